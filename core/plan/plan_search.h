// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/plan_evaluation.h"
#include "core/plan/plan_space.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooftop {

/// How a plan is searched for.
enum class PlanStrategy {
    Exhaustive, ///< every mode, over the prediction (no run)
    Gmd,        ///< Fulcrum's gradient-descent multi-dimensional search, profiling modes through a runner
    Als         ///< Fulcrum's active-learning search for the Pareto-optimal modes, profiling through a runner
};

/// "exhaustive", "gmd" or "als".
const char* planStrategyName(PlanStrategy strategy);
/// Parses a strategy name; nothing when unknown.
std::optional<PlanStrategy> parsePlanStrategy(std::string_view text);

/// Measures both workloads in one mode (the training step and the inference model at every batch size).
class ModeProfiler {
public:
    virtual ~ModeProfiler() = default;
    /// The measured costs of `predicted.mode`; nothing (with *why) when a run or the mode switch failed.
    virtual std::optional<PlanModeCosts> profile(const PlanModeCosts& predicted, std::string* why) = 0;
};

/// How much a search may profile.
struct PlanSearchOptions {
    PlanStrategy strategy = PlanStrategy::Exhaustive;
    int maxProfiles = 0;     ///< modes profiled at most; 0: 15 for gmd, 150 for als
    int minProfiles = 50;    ///< als profiles at least this many (or every mode) before its front may settle
    int settleProfiles = 10; ///< als stops when its front has not changed for this many profiles
    int refineProfiles = 10; ///< als then profiles at most this many neighbours of its best point
    double powerMargin = 0.02; ///< gmd, als: measured power must stay this share under the cap (run noise)
    uint64_t seed = 1;
};

/// A mode the search evaluated, with its best inference batch.
struct PlanCandidate {
    size_t mode = 0;     ///< index into PlanSpace::modes
    ConfigResult result; ///< simulated with `costs`
    PlanModeCosts costs; ///< measured when profiled, else the prediction
    bool profiled = false;
    double score = 0; ///< planScore of result
    /// Of the fresh streams the plan is checked on, the share this candidate kept the budgets in; below 0:
    /// not checked.
    double keptPct = -1;
};

/// One point of the measured Pareto front (als): training throughput against average power.
struct ParetoPoint {
    size_t mode = 0;
    size_t batchIndex = 0;
    double minibatchesPerSecond = 0;
    double watts = 0;
};

/// What a search found.
struct PlanOutcome {
    std::optional<size_t> plan;            ///< index into candidates: the best feasible one
    std::vector<PlanCandidate> candidates; ///< best first
    int profiledModes = 0;                 ///< modes profiled through the runner (failed ones included)
    int failedProfiles = 0;
    std::vector<ParetoPoint> pareto; ///< als: the measured front, by power
    std::string stopReason;
    std::vector<std::string> notes; ///< profiles that failed and why
    bool cancelled = false;
    /// Every profile failed: no mode has measured costs, and the plan says so rather than judge the budgets.
    bool nothingMeasured() const { return profiledModes > 0 && failedProfiles == profiledModes; }
};

/// A plan keeps the budgets on streams it was not chosen on: of the feasible candidates, best first (20 at
/// most), the first that keeps `budgets` in keptShareRequired % of the check streams becomes the plan; when
/// none does, the first feasible one stays. Records each checked candidate's keptPct.
void settleOnACheckedPlan(PlanOutcome& outcome, const PlanSpace& space, const PlanBudgets& budgets,
                          const PlanSimulation& simulation);

/// Reports a stage ("profiled 4 of 15 modes") after each profile.
using PlanProgressCallback = std::function<void(const std::string& stage, int profiled)>;

/// Finds the power mode and inference batch of most training throughput within the budgets: exhaustive over
/// the prediction (modes in the order of their throughput bound, stopping when none can beat the best
/// found), or (gmd, als) profiling modes through `profiler`, steered by the prediction corrected with what
/// the profiled modes measured. The plan is always a configuration the strategy evaluated: predicted for
/// exhaustive, measured for gmd and als. Throws InputError when gmd or als has no profiler.
PlanOutcome runPlanSearch(const PlanSpace& space, const PlanBudgets& budgets,
                          const PlanSimulation& simulation, const PlanSearchOptions& options,
                          ModeProfiler* profiler, const PlanProgressCallback& progress = {},
                          const std::atomic<bool>* cancel = nullptr);

} // namespace rooftop
