// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/prediction.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// What the advisor minimises or maximises.
enum class Objective { Energy, Latency, Efficiency };

/// Limits a recommendation must respect; unset limits do not apply.
struct Constraints {
    std::optional<double> latencySloSeconds;
    std::optional<double> powerCapWatts;
    std::optional<double> maxSlowdownPercent; ///< against the fastest candidate
};

/// One evaluated candidate: a mode at a batch size.
struct Candidate {
    ModeProfile profile;
    int64_t batch = 1;
    ModeSummary summary;
    Provenance provenance = Provenance::Estimate;
    bool feasible = true;
    bool pareto = false;
    double energyPerInference() const { return batch > 0 ? summary.energyJoules / double(batch) : 0.0; }
};

/// The advisor's answer.
struct Recommendation {
    std::vector<Candidate> candidates;  ///< every mode x batch evaluated, feasibility and Pareto flags set
    Candidate baseline;                 ///< the board's fastest stock mode at the first batch size
    std::optional<size_t> recommended;  ///< index into candidates; empty when no candidate is feasible
    std::vector<size_t> closest;        ///< when infeasible: the candidates nearest to meeting the limits
    double savingPercent = 0.0;         ///< energy per inference saved against the baseline
    std::string explanation;            ///< plain language: what binds, why a lower clock costs little
    std::string nvpmodelBlock;          ///< POWER_MODEL block + commands to apply the recommended mode
};

/// Indices of the Pareto-optimal candidates (no other is at least as fast and as frugal, and better in one).
std::vector<size_t> paretoFront(const std::vector<Candidate>& candidates);

} // namespace rooftop
