// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/plan/arrival_process.h"
#include "core/plan/plan_margins.h"
#include "core/plan/plan_search.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// What `rooftop plan` asks for.
struct PlanRequest {
    std::string inferenceModel;
    std::string trainingModel;
    std::string deviceId;
    std::string arrival; ///< parseArrivalSpec: uniform:RATE, poisson:RATE, bursty:RATE, trace:FILE
    double latencySloMs = 0;
    std::optional<double> powerCapWatts;
    double maxViolationPct = 1.0;
    std::vector<int64_t> inferenceBatches = {1, 2, 4, 8, 16};
    int64_t trainingBatch = 16;
    std::string modes; ///< a mode set (modesFor); empty: grid, or stock on a board without a grid
    std::map<std::string, int64_t> inferenceDims, trainingDims; ///< each model's symbolic dims bound (--dim)
    PlanStrategy strategy = PlanStrategy::Exhaustive;           ///< front-ends: gmd when a runner is given
    double confidence =
        0.9;             ///< exhaustive: the budgets are met by the costs' upper bounds at this confidence
    int maxProfiles = 0; ///< 0: the strategy's default
    std::string runner;  ///< parseRunnerSpec; gmd and als need one
    bool noSwitch = false;
    double durationSeconds = 0; ///< the simulated window; 0: 30 s, or a trace's whole length
    uint64_t seed = 1;
    int planningStreams = 3; ///< seeded arrival streams every candidate is simulated on
    int checkStreams = 100;  ///< fresh streams the plan is checked on (budgets met in how many)
    Precision precision = Precision::FP32;
    Optimizer optimizer = Optimizer::Adam;
    std::string runtime = "tensorrt";
    std::string predictorPath; ///< a predictor of the inference model (rooftop learn -o)
    std::string
        trainingPredictorPath; ///< a predictor of the training step (rooftop learn --phase training -o)
    double runTimeoutSeconds = 600;
    double settleSeconds = 2.0;
    std::string
        inferenceRunsPath; ///< gmd, als: the inference model's runs file; empty: "<model name>-runs.csv"
    std::string trainingRunsPath; ///< gmd, als: the training model's; empty: "<model name>-runs.csv"
};

/// SLO violations of one arrival process at the plan's configuration, per scheduling policy.
struct PolicyComparison {
    std::string arrival;         ///< "uniform at 8 req/s", ...
    double inferenceOnlyPct = 0; ///< the inference stream alone (the baseline)
    double greedyPct = 0, adaptivePct = 0;
    double greedyMinibatchesPerSecond = 0, adaptiveMinibatchesPerSecond = 0;
};

/// A plan with what it needs to be shown.
struct PlanReport {
    DeviceSpec device;
    std::string inferenceModel, trainingModel; ///< file names
    ArrivalSpec arrival;
    PlanBudgets budgets;
    PlanRequest request;
    PlanSpace space;
    PlanOutcome outcome;
    std::string runner;     ///< the runner's name; empty for exhaustive over the prediction
    bool switching = false; ///< the search switched modes (the original one restored at its end)
    std::string inferenceRunsPath, trainingRunsPath; ///< the runs files written (gmd, als)
    double budgetMetPct = 0; ///< of checkStreams fresh simulations of the plan, those within budgets
    /// The cap the exhaustive search planned against when the cap itself left plans that broke it on fresh
    /// streams: the cap less the spread of a plan's average power between streams.
    std::optional<double> planningCapWatts;
    int checkStreams = 0;
    std::vector<PolicyComparison> policies; ///< at the plan's configuration
    std::vector<TimelineSegment> timeline;  ///< one simulated second of the plan
    std::string nvpmodel;                   ///< the commands to apply the plan's mode
    int64_t trainableParams = 0;
    double simulatedSeconds = 0; ///< the window each stream simulates
    PlanMargins margins;         ///< what the costs rest on and the margin their error takes
    /// A plan on estimated costs: the plan simulated on the estimates themselves (its candidate's figures are
    /// at the upper bounds); empty for a plan on measured costs.
    std::optional<ConfigResult> atEstimates;
    /// Why and how to measure: the margin is larger than the slack the estimates would plan in; empty when
    /// not.
    std::string advice;
    /// Each model's symbolic dims no option bound, taken as 1 ("sequence=1"), its batch aside.
    std::vector<std::string> inferenceAssumedDims, trainingAssumedDims;
};

/// Runs a plan: checks the request (InputError before anything changes: a missing model or board, a bad
/// arrival process or trace, a rate <= 0, an SLO shorter than the fastest predicted inference, a training
/// model without trainable parameters, a bad batch, strategy or budget), opens the board (BoardSession),
/// counts both models at their dims, predicts every mode, searches (profiling through the runner for gmd
/// and als, restoring the original mode however the search ends), checks the plan on fresh streams and
/// compares the scheduling policies at it. UnavailableError without a runner or switching here.
PlanReport runPlanSession(const PlanRequest& request, const PlanProgressCallback& progress = {},
                          const std::atomic<bool>* cancel = nullptr);

/// The exhaustive search on estimated costs: plans on their upper bounds (report.margins), keeps the
/// estimates in the candidates, simulates the plan on the estimates themselves (report.atEstimates) and, when
/// the estimates alone would plan a configuration their error could break, says so and how to measure
/// (report.advice). Reads report.space, budgets and margins.
void planOnEstimates(PlanReport& report, const PlanSimulation& simulation, const PlanSearchOptions& options,
                     const PlanProgressCallback& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// The arrival times of stream `index` of a request's process (seed-derived, the same on every platform).
std::vector<double> planArrivals(const ArrivalSpec& arrival, double durationSeconds, uint64_t seed,
                                 int index);

} // namespace rooftop
