// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_session.h"

#include "core/advisor/memory_fit.h"
#include "core/advisor/nvpmodel_guide.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/cost/memory_footprint.h"
#include "core/measure/llm_runs.h"
#include "core/measure/model_runner.h"
#include "core/measure/runner_spec.h"
#include "core/measure/runs_file.h"
#include "core/measure/workload_counter.h"
#include "core/platform/board_session.h"
#include "core/session/analysis_session.h"

#include <QFileInfo>
#include <algorithm>
#include <map>
#include <memory>

namespace rooftop {

namespace {

void checkRequest(const TuneRequest& request) {
    if (request.modelPath.empty()) throw InputError("tune: no model given");
    if (!QFileInfo(QString::fromStdString(request.modelPath)).isFile())
        throw InputError(request.modelPath + ": no such model file");
    if (request.deviceId.empty())
        throw InputError("tune: --device ID is required (rooftop devices lists them)");
    for (int64_t batch : request.batches)
        if (batch < 1) throw InputError("tune: batch sizes must be positive");
    if (request.precisions.empty()) throw InputError("tune: no precision");
    checkRunPrecisions(request.precisions, "tune");
    if (request.options.budget < 1) throw InputError("tune: --budget must be at least 1");
    if (!request.options.limits.latencySloSeconds) throw InputError("tune: --latency-slo MS is required");
    if (!(request.runTimeoutSeconds > 0)) throw InputError("tune: --run-timeout must be positive");
}

} // namespace

TuneReport runTuneSession(const TuneRequest& given, const TuneProgressCallback& progress,
                          const std::atomic<bool>* cancel) {
    checkRequest(given);
    TuneRequest request = given;
    RunBatches run = batchesToRun(request.modelPath, request.dims, request.batches);
    request.batches = std::move(run.batches);
    request.dims = std::move(run.dims);
    validateConstraints(request.options.limits);
    TuneReport report;
    report.options = request.options;
    report.options.dims = request.dims;
    if (report.options.runsPath.empty()) report.options.runsPath = defaultRunsPath(request.modelPath);
    report.options.model = runsModelKey(request.modelPath);
    // a malformed file, one with another model's runs, or one that cannot record the dims fails here, before
    // anything changes
    const bool llm = request.options.llm.active();
    checkRunsFileFor(report.options.runsPath, report.options.model, request.dims, request.options.phase,
                     request.options.optimizer, llm);
    const RunnerSpec spec = withDefaultRunner(parseRunnerSpec(request.runner), "tune");
    if (llm) {
        if (spec.kind == RunnerSpec::Kind::Trtexec)
            throw InputError(
                "tune --llm: trtexec runs no generation; give --runner command:CMD (your runtime's "
                "benchmark, printing ttft_ms and tpot_ms) or sim");
        if (request.options.phase != Phase::Inference)
            throw InputError("tune --llm: a generation is inference; --phase training is for steps");
        checkLlmWorkload(request.modelPath, request.dims, request.precisions.front(), request.options.llm,
                         "tune");
    }
    const bool simulated = spec.kind == RunnerSpec::Kind::Simulator;
    const RuntimeProfile runtime = findRuntime(request.runtime);
    report.model = QFileInfo(QString::fromStdString(request.modelPath)).fileName().toStdString();
    report.modelPath = request.modelPath;

    // the runner first: a runner that cannot run at all is the user's input, reported before the board
    WorkloadCounter counter(request.modelPath, request.dims, request.options.optimizer);
    const std::unique_ptr<Runner> runner = makeModelRunner(
        spec, resolveDevice(request.deviceId), counter, request.precisions, request.runTimeoutSeconds, llm);
    report.runner = runner->name();

    BoardSessionRequest open;
    open.command = "tune";
    open.deviceId = request.deviceId;
    open.modes = request.modes;
    open.simulated = simulated;
    open.noSwitch = request.noSwitch;
    const std::unique_ptr<BoardSession> board = BoardSession::open(open);
    report.device = board->device();
    report.switching = board->switcher() != nullptr;
    const DeviceSpec& device = report.device;
    checkRunsAreOfBoard(report.options.runsPath, device);

    // the prior of an LLM tune is the mean decode step's: the latency searched is the time per output token
    LlmStepCounter steps(request.modelPath, request.dims, request.options.llm);
    if (llm) // a batch whose weights and cache the board cannot hold is no configuration to run
        for (const int64_t batch : request.batches)
            for (const Precision precision : request.precisions) {
                const LlmMemory held = steps.memoryHeld(batch, precision, device);
                if (!held.fits)
                    throw InputError(
                        "tune --llm: batch " + std::to_string(batch) + " at " + precisionName(precision) +
                        " holds " + gibText(held.totalBytes) +
                        " of weights, KV cache and activations, more than the " +
                        gibText(held.usableBytes()) + " " + device.id + " leaves after " +
                        fixed(memoryReserveGiB(device), 1) + " GiB for " + memoryReserveFor(device) +
                        (held.largestBatch > 0
                             ? ": leave it out of --batch (at most " + std::to_string(held.largestBatch) + ")"
                             : ": leave it out of --batch"));
            }
    if (!llm) // likewise a batch whose pass the board cannot hold
        for (const int64_t batch : request.batches)
            for (const Precision precision : request.precisions)
                requireMemoryFit(device, counter.count(batch, precision, request.options.phase),
                                 "tune: batch " + std::to_string(batch) + " at " + precisionName(precision));
    report.space = buildTuneSpace(device, runtime, board->modes(), request.batches, request.precisions,
                                  [&](int64_t batch, Precision precision) -> const Workload& {
                                      if (llm) return steps.meanStep(batch, precision);
                                      return counter.count(batch, precision, request.options.phase);
                                  });

    TuneEnvironment env; // the board session is held until the search has restored and returned
    env.runner = runner.get();
    env.switcher = board->switcher();
    env.journal = board->journal();
    env.power = board->power();
    if (board->power()) report.powerSource = board->power()->description();
    env.powerPeriod = board->powerPeriod();

    report.outcome = runTuneSearch(device, report.space, env, report.options, progress, cancel);
    if (report.outcome.recommended) {
        const TuneConfig& best =
            report.space.configs[report.outcome.samples[*report.outcome.recommended].config];
        try {
            report.nvpmodel = nvpmodelInstructions(device, best.mode);
        } catch (const InputError& error) {
            report.nvpmodel = error.what();
        }
    }
    return report;
}

} // namespace rooftop
