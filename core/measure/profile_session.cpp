// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/profile_session.h"

#include "core/common/errors.h"
#include "core/cost/workload.h"
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/measure/command_runner.h"
#include "core/measure/runner_spec.h"
#include "core/measure/runs_file.h"
#include "core/measure/simulated_board.h"
#include "core/measure/trtexec_runner.h"
#include "core/platform/board_detection.h"
#include "core/platform/nvml_power.h"
#include "core/platform/power_rails.h"
#include "core/session/analysis_session.h"

#include <QFileInfo>
#include <algorithm>
#include <cstdlib>
#include <memory>

namespace rooftop {

namespace {

void checkRequest(const ProfileRequest& request) {
    if (request.modelPath.empty()) throw InputError("profile: no model given");
    const QFileInfo model(QString::fromStdString(request.modelPath));
    if (!model.isFile()) throw InputError(request.modelPath + ": no such model file");
    if (request.deviceId.empty())
        throw InputError("profile: --device ID is required (rooftop devices lists them)");
    if (request.batches.empty()) throw InputError("profile: no batch size");
    for (int64_t batch : request.batches)
        if (batch < 1) throw InputError("profile: batch sizes must be positive");
    if (request.precisions.empty()) throw InputError("profile: no precision");
    const auto& known = runPrecisions();
    for (const std::string& precision : request.precisions)
        if (std::find(known.begin(), known.end(), precision) == known.end())
            throw InputError("profile: precision must be fp32, fp16 or int8, got '" + precision + "'");
    if (!isRunPhase(request.phase))
        throw InputError("profile: --phase must be inference or training, got '" + request.phase + "'");
    if (request.repeat < 1) throw InputError("profile: --repeat must be at least 1");
    if (!(request.runTimeoutSeconds > 0)) throw InputError("profile: --run-timeout must be positive");
    if (!(request.idleSeconds >= 0.1 && request.idleSeconds <= 600))
        throw InputError("profile: --idle must be from 0.1 to 600 seconds");
}

std::map<std::string, Workload> countPerPrecision(const std::string& path,
                                                  const std::vector<std::string>& names) {
    std::map<std::string, Workload> counts;
    for (const std::string& name : names) {
        AnalysisSettings settings;
        if (!parsePrecision(name, settings.precision)) throw InputError("profile: unknown precision " + name);
        settings.dims.batch = 1;
        counts.emplace(name, analyzeModelFile(path, settings));
    }
    return counts;
}

std::string defaultRunsPath(const std::string& modelPath) {
    return QFileInfo(QString::fromStdString(modelPath)).completeBaseName().toStdString() + "-runs.csv";
}

} // namespace

std::unique_ptr<PowerSource> profilePowerSource(const DeviceSpec& device, const SysfsRoot& root,
                                                const BoardIdentity& board, bool simulated,
                                                std::string* whyNot) {
    if (simulated) {
        *whyNot = "the simulated board reports its own power";
        return nullptr;
    }
    if (device.discrete) {
        // NVML numbers GPUs by PCI bus, CUDA by speed (and through CUDA_VISIBLE_DEVICES): only the lone first
        // GPU is surely the same one in both
        if (device.id != "cuda:0" || std::getenv("CUDA_VISIBLE_DEVICES")) {
            *whyNot = "NVML's GPU order may differ from CUDA's for " + device.id;
            return nullptr;
        }
        return openNvmlPowerSource(0, whyNot);
    }
    // another board's numbers would be meaningless: the rails read are this machine's
    if (!board.jetson || (!board.deviceId.empty() && board.deviceId != device.id)) {
        *whyNot = "the board is not this machine";
        return nullptr;
    }
    std::vector<RailChannel> rails = moduleRails(discoverRails(root));
    if (rails.empty()) {
        *whyNot = "no INA3221 rail found";
        return nullptr;
    }
    return std::make_unique<RailPowerSource>(root, std::move(rails));
}

ProfileOutcome runProfileSession(const ProfileRequest& request, const ProfileProgressCallback& progress,
                                 const std::atomic<bool>* cancel) {
    checkRequest(request);
    RunnerSpec spec = parseRunnerSpec(request.runner);
    if (spec.kind == RunnerSpec::Kind::None ||
        (spec.kind == RunnerSpec::Kind::Trtexec && spec.command.empty())) {
        const std::string trtexec = findTrtexec();
        if (trtexec.empty())
            throw UnavailableError("profile: no runner here (no trtexec found); give --runner command:CMD, "
                                   "trtexec:PATH or sim; nothing was run or changed");
        spec.kind = RunnerSpec::Kind::Trtexec;
        spec.command = trtexec;
    }
    const DeviceSpec device = resolveDevice(request.deviceId);
    const std::string modelPath =
        QFileInfo(QString::fromStdString(request.modelPath)).absoluteFilePath().toStdString();

    std::unique_ptr<Runner> runner;
    const bool simulated = spec.kind == RunnerSpec::Kind::Simulator;
    if (simulated)
        runner = std::make_unique<SimulatedBoardRunner>(
            device, countPerPrecision(modelPath, request.precisions), spec.seed);
    else if (spec.kind == RunnerSpec::Kind::Trtexec)
        runner = std::make_unique<TrtexecRunner>(spec.command, modelPath, request.runTimeoutSeconds);
    else
        runner = std::make_unique<CommandRunner>(spec.command, modelPath, request.runTimeoutSeconds);

    ProfileOptions options;
    options.outPath = request.outPath.empty() ? defaultRunsPath(request.modelPath) : request.outPath;
    options.batches = request.batches;
    options.precisions = request.precisions;
    options.phase = request.phase;
    options.repeat = request.repeat;
    options.settleSeconds = request.settleSeconds;
    options.idleSeconds = request.idleSeconds;
    options.model = runsModelKey(request.modelPath);
    // a malformed file, or one with another model's runs, fails here, before anything changes
    checkRunsAreOf(readRunsFile(options.outPath), options.outPath, options.model);

    // the board: reading the mode in force changes nothing; switching needs a Jetson and the helper
    const SysfsRoot root = SysfsRoot::fromEnvironment();
    const BoardIdentity board =
        simulated ? BoardIdentity{} : detectBoard(root, loadCatalog(defaultCatalogFolder()));
    const bool jetson = !simulated && !device.discrete && board.jetson;
    std::unique_ptr<HelperRunner> helper;
    std::unique_ptr<ModeSwitcher> switcher;
    std::optional<int> current;
    if (simulated && !device.stockModes.empty()) current = device.stockModes.front().id;
    if (jetson) {
        helper = std::make_unique<ProcessHelperRunner>(defaultHelperPath());
        switcher = std::make_unique<JetsonModeSwitcher>(root, *helper);
        current = switcher->currentStockId();
    }
    const std::vector<PowerMode> modes = modesFor(device, request.modes, current, request.seed);
    const bool switching = !simulated && !request.noSwitch && request.modes != "current";
    if (switching && !jetson)
        throw UnavailableError(
            "switching power modes works on a Jetson only; use --no-switch or --modes current");

    ProfileEnvironment env;
    env.runner = runner.get();
    std::string noPower;
    const std::shared_ptr<PowerSource> power = profilePowerSource(device, root, board, simulated, &noPower);
    env.power = power; // shared: a power read that blocks keeps the source alive after the sweep gave up
    env.powerPeriod = std::chrono::milliseconds(device.discrete ? 50 : 20);
    std::unique_ptr<RestoreJournal> journal;
    std::unique_ptr<JournalLock> sessionLock; // held until the sweep has restored and returned
    if (switching) {
        journal = std::make_unique<RestoreJournal>(RestoreJournal::defaultPath());
        sessionLock = lockBenchSession(*journal);
        if (journal->pending()) replayRestoreJournal(*journal, *switcher);
        env.switcher = switcher.get();
        env.journal = journal.get();
    }
    ProfileOutcome outcome = runProfileSweep(device, modes, env, options, progress, cancel);
    if (!power) outcome.noPowerReason = noPower;
    return outcome;
}

} // namespace rooftop
