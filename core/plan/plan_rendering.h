// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/plan_session.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One labelled line of a plan: a setting (no provenance), or a figure with where its number comes from.
struct PlanLine {
    std::string label;      ///< "Training", "SLO violations", "Requests"
    std::string value;      ///< "11.93 minibatches/s"
    std::string provenance; ///< "simulated", "estimate", "predicted", "measured", ...; empty for a setting
    std::string basis;      ///< what the provenance rests on, in words; empty for a setting
};

/// A column of a plan table.
struct PlanColumn {
    std::string name;     ///< "Greedy"
    std::string unit;     ///< of its numbers ("%", "minibatches/s", "W"); empty for names and counts
    bool label = false;   ///< names and words (flush left), else numbers (flush right)
    std::string tip;      ///< what the column holds
    bool setting = false; ///< a configuration chosen (a batch size), not a figure: it carries no provenance
};

/// One cell: its text as shown, and the number behind it (sorting, export); no number for names and words.
struct PlanCell {
    std::string text;
    std::optional<double> value;
};

/// A table of a plan (the policy comparison, the best candidates) with the provenance of its numbers.
struct PlanTable {
    std::string title; ///< "SLO violations by scheduling policy at GPU 1301 · EMC 3199 · ... at batch 2"
    std::string provenance; ///< of every number in it ("simulated")
    std::string basis;      ///< what that rests on, in words
    std::vector<PlanColumn> columns;
    std::vector<std::vector<PlanCell>> rows; ///< each as many cells as columns
    std::vector<std::string> rowNotes; ///< per row (same count as rows): why a row is greyed; may be empty
    std::vector<bool> greyedRows;      ///< per row (same count as rows): an infeasible candidate
    int emphasisedRow = -1;            ///< the plan's row; -1 when none
};

/// A plan as every front-end shows it: the text writer (planTable) and the window's plan page render this.
struct PlanRendering {
    std::string title;              ///< "Plan for training B (batch 16, adam) beside inference of A on BOARD"
    std::vector<PlanLine> settings; ///< requests and budgets, strategy, runs files, the prior, the schedule
    bool planned = false;           ///< a configuration meets the budgets
    std::string headline;           ///< "Plan: MODE (clocks), inference batch N", or why there is no plan
    std::vector<PlanLine> figures;  ///< the plan's figures, each with its provenance; empty without a plan
    std::string nvpmodel;           ///< the commands that apply the plan's mode; may be empty
    PlanTable policies;             ///< SLO violations by scheduling policy at the plan's configuration
    PlanTable candidates;           ///< the best candidates, best first
    std::vector<std::string> notes; ///< profiles that failed and why
    /// The configuration the schedule's timeline shows: "GPU 1033 · EMC 3199 · 2 × 1958 MHz at batch 4", or
    /// "the best candidate, … (no plan)"; empty when nothing was simulated
    std::string timelineConfiguration;
};

/// The plan as labelled lines and tables with the provenance of every number; at most `candidateRows`
/// candidates.
PlanRendering renderPlan(const PlanReport& report, size_t candidateRows = 20);

/// What the plan's schedule figures rest on: "seeded discrete-event simulation of 3 streams of 30 s".
std::string planScheduleBasis(const PlanReport& report);

/// When no configuration met the budgets: the closest misses and what to relax, e.g. "Closest: MAXN at batch
/// 4 trains 15.2 minibatches/s at 22.1 W average, 47 % over the 15 W cap: a cap of 22.2 W admits it."; empty
/// when there is a plan.
std::string planClosestMiss(const PlanReport& report);

/// The clocks of a mode: "2 cores @ 1958.4 MHz, GPU 1032.75 MHz, EMC 3199 MHz".
std::string planModeClocks(const PowerMode& mode);

} // namespace rooftop
