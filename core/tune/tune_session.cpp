// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_session.h"

#include "core/advisor/nvpmodel_block.h"
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/measure/mode_switching.h"
#include "core/measure/model_runner.h"
#include "core/measure/profile_session.h"
#include "core/measure/runner_spec.h"
#include "core/measure/runs_file.h"
#include "core/platform/board_detection.h"
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
    if (request.modes != "stock" && request.modes != "grid" && request.modes != "all")
        throw InputError("tune: --modes must be stock, grid or all, got '" + request.modes + "'");
    if (request.batches.empty()) throw InputError("tune: no batch size");
    for (int64_t batch : request.batches)
        if (batch < 1) throw InputError("tune: batch sizes must be positive");
    if (request.precisions.empty()) throw InputError("tune: no precision");
    const auto& known = runPrecisions();
    for (const std::string& p : request.precisions)
        if (std::find(known.begin(), known.end(), p) == known.end())
            throw InputError("tune: precision must be fp32, fp16 or int8, got '" + p + "'");
    if (request.options.budget < 1) throw InputError("tune: --budget must be at least 1");
    if (!request.options.limits.latencySloSeconds) throw InputError("tune: --latency-slo MS is required");
    if (!(request.runTimeoutSeconds > 0)) throw InputError("tune: --run-timeout must be positive");
}

std::string defaultRunsPath(const std::string& modelPath) {
    return QFileInfo(QString::fromStdString(modelPath)).completeBaseName().toStdString() + "-runs.csv";
}

} // namespace

TuneReport runTuneSession(const TuneRequest& request, const TuneProgressCallback& progress,
                          const std::atomic<bool>* cancel) {
    checkRequest(request);
    validateConstraints(request.options.limits);
    TuneReport report;
    report.options = request.options;
    if (report.options.runsPath.empty()) report.options.runsPath = defaultRunsPath(request.modelPath);
    report.options.model = runsModelKey(request.modelPath);
    // a malformed file, or one with another model's runs, fails here, before anything changes
    checkRunsAreOf(readRunsFile(report.options.runsPath), report.options.runsPath, report.options.model);
    const RunnerSpec parsedRunner = parseRunnerSpec(request.runner);
    report.device = resolveDevice(request.deviceId);
    const DeviceSpec& device = report.device;
    const RuntimeProfile runtime = findRuntime(request.runtime);
    const std::string modelPath =
        QFileInfo(QString::fromStdString(request.modelPath)).absoluteFilePath().toStdString();
    report.model = QFileInfo(QString::fromStdString(request.modelPath)).fileName().toStdString();
    const std::string modeSet = request.modes != "stock" && device.grid.size() == 0 ? "stock" : request.modes;
    const std::vector<PowerMode> modes = modesFor(device, modeSet);

    std::map<std::pair<int64_t, std::string>, Workload> counts;
    for (int64_t batch : request.batches)
        for (const std::string& precision : request.precisions) {
            AnalysisSettings settings;
            parsePrecision(precision, settings.precision);
            settings.dims.batch = batch;
            counts.emplace(std::make_pair(batch, precision), analyzeModelFile(modelPath, settings));
        }
    report.space = buildTuneSpace(device, runtime, modes, request.batches, request.precisions,
                                  [&](int64_t batch, const std::string& p) -> const Workload& {
                                      return counts.at({batch, p});
                                  });

    const RunnerSpec spec = withDefaultRunner(parsedRunner, "tune");
    const bool simulated = spec.kind == RunnerSpec::Kind::Simulator;
    const std::unique_ptr<Runner> runner =
        makeModelRunner(spec, device, modelPath, request.precisions, request.runTimeoutSeconds);
    report.runner = runner->name();

    // the board: as rooftop profile, switching only on a Jetson, through the helper and the restore journal
    const SysfsRoot root = SysfsRoot::fromEnvironment();
    const BoardIdentity board =
        simulated ? BoardIdentity{} : detectBoard(root, loadCatalog(defaultCatalogFolder()));
    const ModeSwitching switching = prepareModeSwitching(device, root, board, simulated, request.noSwitch);
    TuneEnvironment env; // the session lock is held until the search has restored and returned
    env.runner = runner.get();
    env.switcher = switching.switcher.get();
    env.journal = switching.journal.get();
    std::string noPower;
    const std::unique_ptr<PowerSource> power = profilePowerSource(device, root, board, simulated, &noPower);
    env.power = power.get();
    if (power) report.powerSource = power->description();
    env.powerPeriod = std::chrono::milliseconds(device.discrete ? 50 : 20);

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
