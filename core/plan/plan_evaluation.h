// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/concurrent_schedule.h"
#include "core/plan/plan_space.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// What a plan must meet.
struct PlanBudgets {
    double sloSeconds = 0;               ///< latency objective of one inference request
    std::optional<double> powerCapWatts; ///< average power over the schedule
    double maxViolationPct = 1.0;        ///< late or dropped requests at most
};

/// The simulated arrivals a plan is judged on: one stream per planning seed, and how to simulate them.
struct PlanSimulation {
    std::vector<std::vector<double>> arrivals;
    /// Fresh streams a plan is checked on before it is offered (none: no check).
    std::vector<std::vector<double>> checkArrivals;
    ScheduleOptions options; ///< policy, duration, jitter; sloSeconds is taken from the budgets
    double rate = 0;         ///< mean arrival rate (requests per second)
};

/// The share of a plan's check streams (PlanSimulation::checkArrivals) that keep the budgets: a plan must
/// keep them in keptShareRequired % of the streams it was not chosen on.
constexpr double keptShareRequired = 97.0;

/// One configuration (a mode and an inference batch size) over every planning stream.
struct ConfigResult {
    size_t batchIndex = 0;
    ScheduleStats stats;          ///< counts summed over the streams, rates and percentiles their mean
    double worstViolationPct = 0; ///< over the streams (what feasibility reads)
    double worstWatts = 0;        ///< average power of the most power-hungry stream
    bool feasible = false;
    bool evaluated = false; ///< false: skipped (could not beat what was already found)
    std::string reason;     ///< why not feasible
};

/// Simulates the configuration on every stream; feasible when every stream meets the budgets.
ConfigResult evaluateConfig(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                            const PlanBudgets& budgets, const PlanSimulation& simulation);

/// A configuration on the check streams (PlanSimulation::checkArrivals): the share that kept the budgets, and
/// the 97th percentile of their average powers.
struct StreamCheck {
    double metPct = 0;
    double power97 = 0;
};

/// The schedule of `costs` on every check stream, with budgets.sloSeconds (as evaluateConfig does); both 0
/// without check streams.
StreamCheck checkStreams(const ScheduleCosts& costs, const PlanBudgets& budgets,
                         const PlanSimulation& simulation);

/// checkStreams' share for a mode's costs at one batch; -1 without check streams.
double keptShare(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                 const PlanBudgets& budgets, const PlanSimulation& simulation);

/// An upper bound on the training throughput (minibatches/s) of a configuration: the time inference
/// leaves free with the fewest requests of any planning stream, filled with minibatches; 0 when the adaptive
/// policy can never train (a minibatch and a batch do not fit in the SLO).
double throughputBound(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                       const PlanBudgets& budgets, const PlanSimulation& simulation);

/// A quick estimate of training throughput and average power (no simulation) for ranking many modes.
struct ScheduleEstimate {
    double minibatchesPerSecond = 0;
    double watts = 0;
    bool feasible = false; ///< the SLO can be met while training runs, and the power cap holds
};
/// Estimate at `rate` requests/s: training fills the time full batches leave free (half a minibatch lost
/// per gap); watts weights inference, training and idle power by their time shares.
ScheduleEstimate estimateSchedule(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                                  const PlanBudgets& budgets, double rate);

/// The mode's best configuration: its feasible batch of most training throughput (least energy on ties),
/// else the one closest to the budgets. Batches whose bound cannot beat `mustBeat`, or whose least possible
/// average power is above the cap, are not simulated.
ConfigResult evaluateMode(const PlanSpace& space, const PlanModeCosts& costs, const PlanBudgets& budgets,
                          const PlanSimulation& simulation, double mustBeat = -1.0);

/// Higher is better: a feasible result's training throughput; an infeasible one's negative distance to
/// the budgets; lowest of all a result never simulated (every batch slower than the SLO).
double planScore(const ConfigResult& result, const PlanBudgets& budgets);

} // namespace rooftop
