// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_session.h"

#include "core/advisor/nvpmodel_guide.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/device/power_mode.h"
#include "core/learn/predictor_file.h"
#include "core/measure/model_runner.h"
#include "core/measure/runner_spec.h"
#include "core/measure/runs_file.h"
#include "core/measure/workload_counter.h"
#include "core/plan/plan_profiler.h"
#include "core/platform/board_session.h"
#include "core/session/analysis_session.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

namespace rooftop {

namespace {

std::string fileName(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).fileName().toStdString();
}

std::string absolutePath(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).absoluteFilePath().toStdString();
}

void checkModel(const std::string& path, const char* which) {
    if (path.empty()) throw InputError(std::string("plan: --") + which + " MODEL.onnx is required");
    if (!QFileInfo(QString::fromStdString(path)).isFile()) throw InputError(path + ": no such model file");
}

void checkRequest(const PlanRequest& r) {
    checkModel(r.inferenceModel, "inference");
    checkModel(r.trainingModel, "training");
    if (r.deviceId.empty()) throw InputError("plan: --device ID is required (rooftop devices lists them)");
    if (r.arrival.empty())
        throw InputError("plan: --arrival uniform:RATE, poisson:RATE, bursty:RATE or trace:FILE is required");
    if (!(r.latencySloMs > 0) || !std::isfinite(r.latencySloMs))
        throw InputError("plan: --latency-slo MS is required and must be positive");
    if (r.powerCapWatts && (!(*r.powerCapWatts > 0) || !std::isfinite(*r.powerCapWatts)))
        throw InputError("plan: --power-cap must be a positive number of watts");
    if (!(r.maxViolationPct >= 0) || r.maxViolationPct > 100)
        throw InputError("plan: --max-violation must be a percentage from 0 to 100");
    if (r.inferenceBatches.empty()) throw InputError("plan: no inference batch size");
    for (int64_t b : r.inferenceBatches)
        if (b < 1 || b > 4096) throw InputError("plan: inference batch sizes must be from 1 to 4096");
    if (r.trainingBatch < 1 || r.trainingBatch > 4096)
        throw InputError("plan: --training-batch must be from 1 to 4096");
    if (!(r.durationSeconds >= 0) || r.durationSeconds > 86400)
        throw InputError("plan: --duration must be from 0 (the default) to 86400 seconds");
    if (r.planningStreams < 1 || r.planningStreams > 100)
        throw InputError("plan: planning streams must be 1-100");
    if (r.checkStreams < 0 || r.checkStreams > 10000) throw InputError("plan: check streams must be 0-10000");
    if (r.maxProfiles < 0) throw InputError("plan: --max-profiles must be at least 1");
    checkRunPrecisions({r.precision}, "plan");
    if (!(r.runTimeoutSeconds > 0)) throw InputError("plan: --run-timeout must be positive");
    if (!(r.confidence >= 0.5 && r.confidence <= 0.999))
        throw InputError("plan: --confidence must be a probability from 0.5 to 0.999");
}

std::string millis(double seconds) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(seconds < 1e-2 ? 3 : 2);
    out << seconds * 1e3 << " ms";
    return out.str();
}

// Every predicted time and power positive and finite (a predictor's may not be), named where it is not.
void checkCostsFinite(const PlanSpace& space) {
    auto bad = [](double v) { return !(v > 0) || !std::isfinite(v); };
    for (const PlanModeCosts& c : space.modes) {
        for (size_t b = 0; b < space.inferenceBatches.size(); ++b)
            if (bad(c.inferenceSeconds[b]) || bad(c.inferenceWatts[b]))
                throw InputError("plan: no usable prediction of the inference model at batch " +
                                 std::to_string(space.inferenceBatches[b]) + " in " + c.mode.name + " (" +
                                 space.basis + ")");
        if (bad(c.trainingSeconds) || bad(c.trainingWatts))
            throw InputError("plan: no usable prediction of the training step in " + c.mode.name);
    }
}

// The shortest predicted inference, and where: an SLO below it cannot be met by any plan.
void checkSloReachable(const PlanSpace& space, double sloSeconds) {
    double fastest = 1e300;
    size_t mode = 0, batch = 0;
    for (size_t m = 0; m < space.modes.size(); ++m)
        for (size_t b = 0; b < space.inferenceBatches.size(); ++b)
            if (space.modes[m].inferenceSeconds[b] < fastest) {
                fastest = space.modes[m].inferenceSeconds[b];
                mode = m;
                batch = b;
            }
    if (fastest > sloSeconds)
        throw InputError("plan: the latency SLO (" + millis(sloSeconds) +
                         ") is shorter than the fastest inference (" + millis(fastest) + " at batch " +
                         std::to_string(space.inferenceBatches[batch]) + " in " +
                         space.modes[mode].mode.name + ", " + space.modes[mode].provenance + ")");
}

PlanSimulation makeSimulation(const ArrivalSpec& arrival, const PlanRequest& request, double duration,
                              int streams, int firstStream) {
    PlanSimulation sim;
    sim.rate = arrival.rate;
    sim.options.durationSeconds = duration;
    sim.options.seed = request.seed * 0x2545f4914f6cdd1dULL + static_cast<uint64_t>(firstStream);
    for (int i = 0; i < streams; ++i)
        sim.arrivals.push_back(planArrivals(arrival, duration, request.seed, firstStream + i));
    if (arrival.kind == ArrivalSpec::Kind::Trace && sim.arrivals.front().empty())
        throw InputError("plan: the trace has no arrival in the first " + std::to_string(duration) + " s");
    return sim;
}

double planDuration(const PlanRequest& request, const ArrivalSpec& arrival) {
    if (request.durationSeconds > 0) return request.durationSeconds;
    if (arrival.kind != ArrivalSpec::Kind::Trace) return 30.0;
    if (arrival.trace.back() > 86400)
        throw InputError(
            "plan: the trace ends " + general(arrival.trace.back(), 4) +
            " s after time 0 (more than a day); shift its times to start near 0, or give --duration");
    return arrival.trace.back() + request.latencySloMs / 1e3 + 1e-6;
}

/// The board the plan is for, opened as every measuring command opens it: gmd and als switch modes and
/// measure power through it; exhaustive only reads the mode in force (for --modes current).
std::unique_ptr<BoardSession> openPlanBoard(const PlanRequest& request, const RunnerSpec& runner) {
    BoardSessionRequest open;
    open.command = "plan";
    open.deviceId = request.deviceId;
    open.modes = request.modes;
    open.simulated = runner.kind == RunnerSpec::Kind::Simulator;
    open.noSwitch = request.noSwitch || request.strategy == PlanStrategy::Exhaustive;
    return BoardSession::open(open);
}

/// Both models counted at their dims (once per batch), and every mode predicted (or the predictor's numbers).
PlanSpace predictPlanSpace(const PlanRequest& request, const BoardSession& board, WorkloadCounter& inference,
                           WorkloadCounter& training, int64_t* trainableParams, PlanMargins* margins) {
    const DeviceSpec& device = board.device();
    std::unique_ptr<Predictor> predictor;
    if (!request.predictorPath.empty()) {
        predictor = std::make_unique<Predictor>(loadPredictor(request.predictorPath));
        checkPredictorFits(*predictor, request.predictorPath, device.id, inference.modelPath());
        checkPredictorDims(*predictor, request.predictorPath, request.inferenceDims);
        checkPredictorWorkload(*predictor, request.predictorPath, Phase::Inference, Optimizer::Adam);
        checkPredictorPrecision(*predictor, request.predictorPath, request.precision, "the plan");
    }
    std::unique_ptr<Predictor> trainingPredictor;
    if (!request.trainingPredictorPath.empty()) {
        const std::string& path = request.trainingPredictorPath;
        trainingPredictor = std::make_unique<Predictor>(loadPredictor(path));
        checkPredictorFits(*trainingPredictor, path, device.id, training.modelPath());
        checkPredictorDims(*trainingPredictor, path, request.trainingDims);
        checkPredictorWorkload(*trainingPredictor, path, Phase::Training, request.optimizer);
        checkPredictorPrecision(*trainingPredictor, path, request.precision, "the plan");
    }
    const Workload& step = training.count(request.trainingBatch, request.precision, Phase::Training);
    *trainableParams = step.totals.trainableParams;
    PlanSpace space = buildPlanSpace(
        device, findRuntime(request.runtime), board.modes(), request.inferenceBatches, request.trainingBatch,
        request.precision,
        [&](int64_t batch) -> const Workload& { return inference.count(batch, request.precision); }, step,
        predictor.get(), trainingPredictor.get());
    checkCostsFinite(space);
    *margins = planMargins(predictor.get(), request.confidence, trainingPredictor.get(),
                           request.inferenceBatches, request.trainingBatch);
    return space;
}

/// gmd and als: the search profiles modes through the runner on the opened board, appending to the runs
/// files.
PlanOutcome searchWithRunner(const PlanRequest& request, const RunnerSpec& spec, BoardSession& board,
                             WorkloadCounter& inference, WorkloadCounter& training,
                             const PlanSimulation& simulation, const PlanSearchOptions& options,
                             const PlanProgressCallback& progress, const std::atomic<bool>* cancel,
                             PlanReport& report) {
    const DeviceSpec& device = board.device();
    const std::vector<Precision> precisions = {request.precision};
    const std::unique_ptr<Runner> inferenceRunner =
        makeModelRunner(spec, device, inference, precisions, request.runTimeoutSeconds);
    const std::unique_ptr<Runner> trainingRunner =
        makeModelRunner(spec, device, training, precisions, request.runTimeoutSeconds);
    report.runner = inferenceRunner->name();
    // the runs files: a malformed one, or one of another model, is refused before anything changes
    report.inferenceRunsPath = request.inferenceRunsPath.empty() ? defaultRunsPath(request.inferenceModel)
                                                                 : request.inferenceRunsPath;
    report.trainingRunsPath =
        request.trainingRunsPath.empty() ? defaultRunsPath(request.trainingModel) : request.trainingRunsPath;
    const std::string inferenceKey = runsModelKey(inference.modelPath());
    const std::string trainingKey = runsModelKey(training.modelPath());
    const bool oneFile = absolutePath(report.inferenceRunsPath) == absolutePath(report.trainingRunsPath);
    if (oneFile && inferenceKey != trainingKey)
        throw InputError("plan: the two models need runs files of their own (--runs, --training-runs)");
    checkRunsFileFor(report.inferenceRunsPath, inferenceKey, request.inferenceDims);
    checkRunsAreOfBoard(report.inferenceRunsPath, device);
    checkRunsAreOfBoard(report.trainingRunsPath, device);
    checkRunsFileFor(report.trainingRunsPath, trainingKey, request.trainingDims, Phase::Training,
                     request.optimizer);
    RunsFileWriter inferenceRuns(report.inferenceRunsPath);
    std::unique_ptr<RunsFileWriter> trainingRuns;
    if (!oneFile) trainingRuns = std::make_unique<RunsFileWriter>(report.trainingRunsPath);

    PlanProfilerEnvironment env;
    env.inference = inferenceRunner.get();
    env.training = trainingRunner.get();
    env.switcher = board.switcher();
    env.journal = board.journal();
    env.power = board.power();
    env.powerPeriod = board.powerPeriod();
    env.settleSeconds = spec.kind == RunnerSpec::Kind::Simulator ? 0.0 : request.settleSeconds;
    env.cancel = cancel;
    env.inferenceRuns = &inferenceRuns;
    env.trainingRuns = oneFile ? &inferenceRuns : trainingRuns.get();
    env.inferenceModelKey = inferenceKey;
    env.trainingModelKey = trainingKey;
    env.inferenceDims = request.inferenceDims;
    env.trainingDims = request.trainingDims;
    env.optimizer = request.optimizer;
    RunnerModeProfiler profiler(device, report.space, env);
    PlanOutcome outcome =
        runPlanSearch(report.space, report.budgets, simulation, options, &profiler, progress, cancel);
    profiler.restore(); // throws when the restore fails; the journal then stays for the next start
    return outcome;
}

/// The plan on the check streams. On estimates the schedule keeps the SLO the plan was chosen with (shortened
/// by the costs' time margin): with the full SLO its adaptive policy would fit more minibatches into the gaps
/// than the plan reckoned, and draw more power.
StreamCheck checkOnFreshStreams(const PlanReport& report, const ScheduleCosts& costs,
                                const PlanSimulation& simulation) {
    PlanBudgets scheduled = report.budgets;
    if (report.margins.estimated && report.request.strategy == PlanStrategy::Exhaustive)
        scheduled.sloSeconds /= planSloFactor(report.margins);
    return checkStreams(costs, scheduled, simulation);
}

/// A candidate checked as the plan would be: on estimates at the costs' upper bounds.
StreamCheck checkCandidate(const PlanReport& report, const PlanCandidate& c,
                           const PlanSimulation& simulation) {
    const PlanModeCosts costs = report.margins.estimated ? withMargin(c.costs, report.margins) : c.costs;
    return checkOnFreshStreams(report, scheduleCosts(report.space, costs, c.result.batchIndex), simulation);
}

/// The search offers the first feasible candidate its check streams keep (runPlanSearch). When none is kept
/// (a plan's average power varies between streams with Poisson or bursty arrivals, by how many gaps they
/// leave for training), the exhaustive search plans again against a cap lowered by that spread; otherwise
/// the plan stays with a note of how often it keeps the budgets.
void settleOnACheckedPlan(PlanReport& report, const PlanSimulation& simulation,
                          const PlanSearchOptions& options, const PlanProgressCallback& progress,
                          const std::atomic<bool>* cancel) {
    if (!report.outcome.plan) return;
    const PlanCandidate& best = report.outcome.candidates.front();
    const std::string bestName = namedModeText(report.space.modes[best.mode].mode) + " at inference batch " +
                                 std::to_string(report.space.inferenceBatches[best.result.batchIndex]);
    const double bestKept = best.keptPct;
    const std::optional<double> cap = report.budgets.powerCapWatts;
    for (int attempt = 0; attempt < 4 && report.outcome.plan && !report.outcome.cancelled; ++attempt) {
        const PlanCandidate& plan = report.outcome.candidates[*report.outcome.plan];
        if (plan.keptPct < 0 || plan.keptPct >= keptShareRequired) break;
        if (report.request.strategy != PlanStrategy::Exhaustive || !cap) break;
        const StreamCheck check = checkCandidate(report, plan, simulation);
        if (!(check.power97 > *cap)) break; // the latency, not the power, varies: a lower cap would not help
        // the cap less this plan's spread above it; a plan chosen again against that cap that still breaks it
        // lowers it by its own spread, from the cap itself (the spreads do not compound)
        const double lowered = *cap * *cap / check.power97;
        report.planningCapWatts =
            report.planningCapWatts ? std::min(*report.planningCapWatts * 0.99, lowered) : lowered;
        planOnEstimates(report, simulation, options, progress, cancel);
    }
    if (!report.outcome.plan) return;
    const PlanCandidate& plan = report.outcome.candidates[*report.outcome.plan];
    const std::string streams = std::to_string(report.request.checkStreams) + " fresh streams";
    if (bestKept >= 0 && bestKept < keptShareRequired && plan.keptPct >= keptShareRequired)
        report.outcome.notes.push_back(
            "The best candidate on the planning streams, " + bestName + ", kept the budgets in " +
            fixed(bestKept, 0) + " % of " + streams + " (a plan needs " + fixed(keptShareRequired, 0) +
            " %)" +
            (report.planningCapWatts
                 ? "; planned against a cap of " + fixed(*report.planningCapWatts, 2) +
                       " W, the cap less the spread of a plan's average power between streams"
                 : std::string()) +
            ".");
    if (plan.keptPct >= 0 && plan.keptPct < keptShareRequired)
        report.outcome.notes.push_back("The plan kept the budgets in " + fixed(plan.keptPct, 0) + " % of " +
                                       streams + ", less than the " + fixed(keptShareRequired, 0) +
                                       " % a plan needs, as did every candidate checked: its power and "
                                       "latency vary with the arrivals; a "
                                       "lower cap, a longer SLO or a larger --max-violation keeps it.");
}

/// PolyThrottle's comparison at the plan: the inference stream alone, greedy and adaptive training, for each
/// arrival process at the request's rate (and the trace).
std::vector<PolicyComparison> comparePolicies(const PlanReport& report, const PlanCandidate& chosen,
                                              double duration) {
    std::vector<ArrivalSpec> processes;
    for (ArrivalSpec::Kind kind :
         {ArrivalSpec::Kind::Uniform, ArrivalSpec::Kind::Poisson, ArrivalSpec::Kind::Bursty}) {
        ArrivalSpec a;
        a.kind = kind;
        a.rate = report.arrival.rate;
        if (a.rate > 0) processes.push_back(a);
    }
    if (report.arrival.kind == ArrivalSpec::Kind::Trace) processes.push_back(report.arrival);
    std::vector<PolicyComparison> rows;
    for (const ArrivalSpec& a : processes) {
        PolicyComparison row;
        row.arrival = describeArrivals(a);
        const PlanSimulation sim =
            makeSimulation(a, report.request, duration, report.request.planningStreams, 0);
        for (SchedulePolicy policy :
             {SchedulePolicy::InferenceOnly, SchedulePolicy::Greedy, SchedulePolicy::Adaptive}) {
            PlanSimulation withPolicy = sim;
            withPolicy.options.policy = policy;
            const ConfigResult r = evaluateConfig(report.space, chosen.costs, chosen.result.batchIndex,
                                                  report.budgets, withPolicy);
            if (policy == SchedulePolicy::InferenceOnly) row.inferenceOnlyPct = r.stats.violationPct;
            if (policy == SchedulePolicy::Greedy) {
                row.greedyPct = r.stats.violationPct;
                row.greedyMinibatchesPerSecond = r.stats.minibatchesPerSecond;
            }
            if (policy == SchedulePolicy::Adaptive) {
                row.adaptivePct = r.stats.violationPct;
                row.adaptiveMinibatchesPerSecond = r.stats.minibatchesPerSecond;
            }
        }
        rows.push_back(row);
    }
    return rows;
}

std::string planCandidateText(const PlanReport& r, const ConfigResult& result, size_t mode) {
    std::string text = namedModeText(r.space.modes[mode].mode) + " at inference batch " +
                       std::to_string(r.space.inferenceBatches[result.batchIndex]) + " (" +
                       fixed(result.stats.minibatchesPerSecond, 2) + " minibatches/s, " +
                       fixed(result.stats.averageWatts, 1) + " W";
    return text + ")";
}

} // namespace

void planOnEstimates(PlanReport& report, const PlanSimulation& simulation, const PlanSearchOptions& options,
                     const PlanProgressCallback& progress, const std::atomic<bool>* cancel) {
    const PlanSpace bounded = withMargins(report.space, report.margins);
    PlanBudgets budgets = report.budgets;
    budgets.sloSeconds /= planSloFactor(report.margins);
    if (report.planningCapWatts) budgets.powerCapWatts = report.planningCapWatts;
    report.outcome = runPlanSearch(bounded, budgets, simulation, options, nullptr, progress, cancel);
    if (report.planningCapWatts) { // the plan is checked against the cap itself
        PlanBudgets checked = budgets;
        checked.powerCapWatts = report.budgets.powerCapWatts;
        settleOnACheckedPlan(report.outcome, bounded, checked, simulation);
    }
    for (PlanCandidate& c : report.outcome.candidates)
        c.costs = report.space.modes[c.mode];
    if (report.outcome.plan) {
        const PlanCandidate& c = report.outcome.candidates[*report.outcome.plan];
        // scheduled as the plan is, with the shortened SLO: with the full one the schedule would train more
        PlanBudgets scheduled = report.budgets;
        scheduled.sloSeconds = budgets.sloSeconds;
        report.atEstimates =
            evaluateConfig(report.space, c.costs, c.result.batchIndex, scheduled, simulation);
    }
    if (report.outcome.cancelled || report.margins.confidence <= 0.5) return;
    const PlanOutcome bare =
        runPlanSearch(report.space, report.budgets, simulation, options, nullptr, {}, cancel);
    if (bare.cancelled) {
        report.outcome.cancelled = true;
        report.outcome.notes.push_back("Cancelled before the search on the estimates alone (without their "
                                       "error as a margin) ended: whether measuring the costs would pay "
                                       "is not known.");
        return;
    }
    if (!bare.plan) return;
    const PlanCandidate& best = bare.candidates[*bare.plan];
    // the same configuration, or one no better at the estimates: the margin cost nothing
    if (report.outcome.plan) {
        const PlanCandidate& planned = report.outcome.candidates[*report.outcome.plan];
        if (planned.mode == best.mode && planned.result.batchIndex == best.result.batchIndex) return;
        if (!(best.result.stats.minibatchesPerSecond >
              report.atEstimates->stats.minibatchesPerSecond * 1.0001))
            return;
    }
    report.advice =
        "The costs' error is larger than the slack under the budgets: on the estimates alone the plan "
        "would be " +
        planCandidateText(report, best.result, best.mode) + ", which that error could break" +
        (report.outcome.plan ? "" : "; with it as a margin no configuration meets the budgets") +
        ". Measure the costs instead: the gmd strategy (or als) profiles the modes on the board through a "
        "runner: --runner command:CMD, your own benchmark of an inference batch and of a training step "
        "(trtexec "
        "runs inference only), or sim for the simulated board.";
}

std::vector<double> planArrivals(const ArrivalSpec& arrival, double durationSeconds, uint64_t seed,
                                 int index) {
    return generateArrivals(arrival, durationSeconds, seed * 1000003ULL + static_cast<uint64_t>(index));
}

PlanReport runPlanSession(const PlanRequest& request, const PlanProgressCallback& progress,
                          const std::atomic<bool>* cancel) {
    checkRequest(request);
    PlanReport report;
    report.request = request;
    report.arrival = parseArrivalSpec(request.arrival);
    report.budgets.sloSeconds = request.latencySloMs / 1e3;
    report.budgets.powerCapWatts = request.powerCapWatts;
    report.budgets.maxViolationPct = request.maxViolationPct;
    const RunnerSpec runner = parseRunnerSpec(request.runner);
    if (request.strategy == PlanStrategy::Exhaustive && runner.kind != RunnerSpec::Kind::None)
        throw InputError(
            "plan: --strategy exhaustive plans over the prediction and runs nothing; --runner is for "
            "gmd and als");
    if (runner.kind == RunnerSpec::Kind::Trtexec)
        throw InputError("plan: trtexec runs inference only; profiling a training step needs --runner "
                         "command:CMD (or sim)");
    if (request.strategy != PlanStrategy::Exhaustive && runner.kind == RunnerSpec::Kind::None)
        throw UnavailableError(std::string("plan: --strategy ") + planStrategyName(request.strategy) +
                               " profiles both models through a runner: give --runner command:CMD (or sim "
                               "for the simulated board); trtexec runs inference only");
    report.inferenceModel = fileName(request.inferenceModel);
    report.trainingModel = fileName(request.trainingModel);
    const std::unique_ptr<BoardSession> board = openPlanBoard(request, runner);
    report.device = board->device();
    report.switching = board->switcher() != nullptr;
    WorkloadCounter inference(request.inferenceModel, request.inferenceDims);
    WorkloadCounter training(request.trainingModel, request.trainingDims, request.optimizer);
    inference.nameOptions("--dim", "--inference-batch");
    training.nameOptions("--training-dim", "--training-batch");
    report.space =
        predictPlanSpace(request, *board, inference, training, &report.trainableParams, &report.margins);
    checkSloReachable(report.space, report.budgets.sloSeconds);
    report.inferenceAssumedDims =
        inference.count(request.inferenceBatches.front(), request.precision).info.assumedShapeDims();
    report.trainingAssumedDims =
        training.count(request.trainingBatch, request.precision, Phase::Training).info.assumedShapeDims();
    const double duration = planDuration(request, report.arrival);
    report.simulatedSeconds = duration;
    // every stream is held at once (the planning streams and the check's): 20 million arrivals, 160 MB
    const double perStream = report.arrival.kind == ArrivalSpec::Kind::Trace
                                 ? static_cast<double>(report.arrival.trace.size())
                                 : report.arrival.rate * duration * 1.1;
    const double streams = static_cast<double>(request.planningStreams + request.checkStreams);
    if (perStream * streams > 2e7)
        throw InputError("plan: " + general(perStream, 3) + " arrivals a stream over " +
                         std::to_string(request.planningStreams + request.checkStreams) +
                         " streams (planned and checked) is more than 20 million: lower the rate or shorten "
                         "--duration");
    PlanSimulation simulation = makeSimulation(report.arrival, request, duration, request.planningStreams, 0);
    for (int i = 0; i < request.checkStreams; ++i) // the streams a plan is checked on (checkOnFreshStreams)
        simulation.checkArrivals.push_back(planArrivals(report.arrival, duration, request.seed, 1000 + i));

    PlanSearchOptions options;
    options.strategy = request.strategy;
    options.maxProfiles = request.maxProfiles;
    options.seed = request.seed;
    if (request.strategy == PlanStrategy::Exhaustive) {
        planOnEstimates(report, simulation, options, progress, cancel);
    } else { // the runs measure the workloads, never the board idle: that estimate is taken at its bound
        report.space = withIdleMargin(report.space, report.margins);
        report.margins.idleAtUpperBound = true;
        report.outcome = searchWithRunner(request, runner, *board, inference, training, simulation, options,
                                          progress, cancel, report);
        report.margins.estimated = false;
        report.margins.basis = report.outcome.nothingMeasured()
                                   ? "no mode profiled completely: every profile failed"
                                   : measuredPlanBasis(report.runner, report.margins);
    }

    settleOnACheckedPlan(report, simulation, options, progress, cancel);

    const PlanCandidate* chosen = report.outcome.plan ? &report.outcome.candidates[*report.outcome.plan]
                                  : report.outcome.candidates.empty() ? nullptr
                                                                      : &report.outcome.candidates.front();
    if (!chosen) return report;
    const ScheduleCosts costs = scheduleCosts(report.space, chosen->costs, chosen->result.batchIndex);
    // on estimates, the check keeps the margin the plan was chosen with
    const ScheduleCosts checked = report.margins.estimated
                                      ? scheduleCosts(report.space, withMargin(chosen->costs, report.margins),
                                                      chosen->result.batchIndex)
                                      : costs;
    report.checkStreams = request.checkStreams;
    report.budgetMetPct = checkOnFreshStreams(report, checked, simulation).metPct;
    report.policies = comparePolicies(report, *chosen, duration);

    ScheduleOptions timeline = simulation.options;
    timeline.sloSeconds = report.budgets.sloSeconds;
    timeline.timelineFrom = duration >= 2.0 ? 1.0 : 0.0;
    timeline.timelineSeconds = std::min(1.0, duration);
    report.timeline = simulateSchedule(simulation.arrivals.front(), costs, timeline).timeline;
    try {
        report.nvpmodel = nvpmodelInstructions(report.device, report.space.modes[chosen->mode].mode);
    } catch (const InputError& error) {
        report.nvpmodel = error.what();
    }
    return report;
}

} // namespace rooftop
