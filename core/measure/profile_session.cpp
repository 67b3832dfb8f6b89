// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/profile_session.h"

#include "core/advisor/memory_fit.h"
#include "core/common/errors.h"
#include "core/measure/llm_runs.h"
#include "core/measure/model_runner.h"
#include "core/measure/runner_spec.h"
#include "core/measure/runs_file.h"
#include "core/measure/workload_counter.h"
#include "core/platform/board_session.h"
#include "core/platform/detected_catalog.h"

#include <QFileInfo>
#include <algorithm>
#include <memory>

namespace rooftop {

namespace {

void checkRequest(const ProfileRequest& request) {
    if (request.modelPath.empty()) throw InputError("profile: no model given");
    const QFileInfo model(QString::fromStdString(request.modelPath));
    if (!model.isFile()) throw InputError(request.modelPath + ": no such model file");
    if (request.deviceId.empty())
        throw InputError("profile: --device ID is required (rooftop devices lists them)");
    for (int64_t batch : request.batches)
        if (batch < 1) throw InputError("profile: batch sizes must be positive");
    if (request.precisions.empty()) throw InputError("profile: no precision");
    checkRunPrecisions(request.precisions, "profile");
    if (request.repeat < 1) throw InputError("profile: --repeat must be at least 1");
    if (!(request.runTimeoutSeconds > 0)) throw InputError("profile: --run-timeout must be positive");
    if (!(request.idleSeconds >= 0.1 && request.idleSeconds <= 600))
        throw InputError("profile: --idle must be from 0.1 to 600 seconds");
    if (request.llm.active() || request.llm.generate != 0) {
        if (request.llm.prompt < 1 || request.llm.generate < 1)
            throw InputError("profile --llm: --prompt and --generate must be at least 1 token");
        if (request.phase != Phase::Inference)
            throw InputError("profile --llm: a generation is inference; --phase training is for steps");
    }
}

} // namespace

ProfileOutcome runProfileSession(const ProfileRequest& given, const ProfileProgressCallback& progress,
                                 const std::atomic<bool>* cancel) {
    checkRequest(given);
    ProfileRequest request = given;
    RunBatches run = batchesToRun(request.modelPath, request.dims, request.batches);
    request.batches = std::move(run.batches);
    request.dims = std::move(run.dims);
    const RunnerSpec spec = withDefaultRunner(parseRunnerSpec(request.runner), "profile");
    const bool simulated = spec.kind == RunnerSpec::Kind::Simulator;

    ProfileOptions options;
    options.outPath = request.outPath.empty() ? defaultRunsPath(request.modelPath) : request.outPath;
    options.batches = request.batches;
    options.precisions = request.precisions;
    options.phase = request.phase;
    options.optimizer = request.optimizer;
    options.dims = request.dims;
    options.llm = request.llm;
    options.repeat = request.repeat;
    options.settleSeconds = request.settleSeconds;
    options.idleSeconds = request.idleSeconds;
    options.model = runsModelKey(request.modelPath);
    // a malformed file, one with another model's runs, or one that cannot record the dims fails here, before
    // anything changes
    checkRunsFileFor(options.outPath, options.model, options.dims, options.phase, options.optimizer,
                     options.llm.active());
    checkRunsAreOfBoard(options.outPath, resolveDevice(request.deviceId));
    if (options.llm.active()) {
        if (spec.kind == RunnerSpec::Kind::Trtexec)
            throw InputError("profile --llm: trtexec runs no generation; give --runner command:CMD (your "
                             "runtime's benchmark, printing ttft_ms and tpot_ms) or sim");
        checkLlmWorkload(request.modelPath, request.dims, request.precisions.front(), request.llm, "profile");
    }

    BoardSessionRequest open;
    open.command = "profile";
    open.deviceId = request.deviceId;
    open.modes = request.modes;
    open.seed = request.seed;
    open.simulated = simulated;
    open.noSwitch = request.noSwitch;
    // the runner first: a runner that cannot run at all is the user's input, reported before the board
    WorkloadCounter counter(request.modelPath, request.dims, request.optimizer);
    const DeviceSpec device = resolveDevice(request.deviceId);
    // a workload the other commands refuse is no run either: a training step of a model without trainable
    // parameters, a pass the board cannot hold (a runner would fail on it, the simulated board would lie)
    if (!options.llm.active())
        for (const int64_t batch : request.batches)
            for (const Precision precision : request.precisions)
                requireMemoryFit(device, counter.count(batch, precision, request.phase),
                                 "profile: batch " + std::to_string(batch) + " at " +
                                     precisionName(precision));
    const std::unique_ptr<Runner> runner = makeModelRunner(spec, device, counter, request.precisions,
                                                           request.runTimeoutSeconds, request.llm.active());
    const std::unique_ptr<BoardSession> board = BoardSession::open(open);

    ProfileEnvironment env;
    env.runner = runner.get();
    env.power = board->power();
    env.powerPeriod = board->powerPeriod();
    env.switcher = board->switcher();
    env.journal = board->journal();
    ProfileOutcome outcome = runProfileSweep(board->device(), board->modes(), env, options, progress, cancel);
    if (!board->power()) outcome.noPowerReason = board->noPowerReason();
    outcome.currentModeNote = board->currentModeNote();
    outcome.switching = board->switcher() != nullptr;
    return outcome;
}

} // namespace rooftop
