// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/microbench/bench_session.h"

#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/platform/detected_catalog.h"
#include "core/common/errors.h"
#include "core/platform/board_detection.h"
#include "core/platform/nvml_power.h"

#include <QDateTime>
#include <memory>
#include <sstream>

namespace rooftop {

bool benchAvailable(std::string* whyNot) {
    std::string why;
    const bool available = openCudaBackend(0, &why) != nullptr;
    if (whyNot) *whyNot = available ? std::string() : why;
    return available;
}

namespace {

std::unique_ptr<EnergyMeter> openMeter(const SysfsRoot& root, bool jetson, std::string* why) {
    std::unique_ptr<PowerSource> source;
    if (jetson) {
        auto rails = moduleRails(discoverRails(root));
        if (rails.empty())
            *why = "no INA3221 rail found";
        else
            source = std::make_unique<RailPowerSource>(root, std::move(rails));
    } else {
        source = openNvmlPowerSource(0, why);
    }
    if (!source) return nullptr;
    return std::make_unique<SampledEnergyMeter>(std::move(source),
                                                std::chrono::milliseconds(jetson ? 20 : 50));
}

} // namespace

bool restoreInterruptedMode() {
    RestoreJournal journal(RestoreJournal::defaultPath());
    if (!journal.pending()) return false;
    // a bench session holds the lock while its journal is live: that run is not interrupted, leave it be
    const JournalLock lock(journal.path());
    if (!lock.held()) return false;
    ProcessHelperRunner helper(defaultHelperPath());
    JetsonModeSwitcher switcher(SysfsRoot::fromEnvironment(), helper);
    if (!switcher.currentStockId()) return false; // no nvpmodel here: not a Jetson, nothing to restore
    return replayRestoreJournal(journal, switcher);
}

SweepOutcome runBenchSession(const BenchRequest& request, const SweepProgressCallback& progress,
                             const std::atomic<bool>* cancel) {
    std::string why;
    auto gpu = openCudaBackend(0, &why);
    if (!gpu) throw UnavailableError(why);
    const GpuInfo info = gpu->info();
    const SysfsRoot root = SysfsRoot::fromEnvironment();

    const auto catalog = loadCatalogWithDetected(
        defaultCatalogFolder(), request.deviceId.empty() && !info.integrated ? "cuda:0" : request.deviceId);
    const BoardIdentity board = detectBoard(root, catalog);
    std::string deviceId = request.deviceId;
    if (deviceId.empty()) deviceId = info.integrated ? board.deviceId : "cuda:0";
    if (deviceId.empty())
        throw UnavailableError("cannot tell which Jetson this is (" +
                               (board.model.empty() ? "no device-tree model" : board.model) +
                               "); pass --device ID");
    const DeviceSpec& device = findDevice(catalog, deviceId);

    const bool jetson = board.jetson && !device.discrete;
    std::unique_ptr<HelperRunner> helper;
    std::unique_ptr<ModeSwitcher> switcher;
    std::unique_ptr<RestoreJournal> journal;
    std::unique_ptr<JournalLock> sessionLock; // held until this session has restored and returned
    std::optional<int> current;
    if (jetson) {
        helper = std::make_unique<ProcessHelperRunner>(defaultHelperPath());
        switcher = std::make_unique<JetsonModeSwitcher>(root, *helper);
        journal = std::make_unique<RestoreJournal>(RestoreJournal::defaultPath());
        sessionLock = lockBenchSession(*journal);
        if (journal->pending()) replayRestoreJournal(*journal, *switcher);
        current = switcher->currentStockId();
    }
    const std::vector<PowerMode> modes = modesFor(device, request.modes, current);
    const bool switching = request.modes != "current";
    if (switching && !jetson)
        throw UnavailableError("switching power modes works on a Jetson only; use --modes current");

    std::string meterWhy;
    auto meter = openMeter(root, jetson, &meterWhy);

    SweepEnvironment env;
    env.gpu = gpu.get();
    env.meter = meter.get();
    env.switcher = switching ? switcher.get() : nullptr;
    env.journal = journal.get();
    if (jetson) {
        const ClockPaths paths = findClockPaths(root);
        env.observe = [root, paths] { return readObservedClocks(root, paths); };
    }
    SweepOptions options;
    options.outPath = request.outPath.empty() ? device.id + "-profile.json" : request.outPath;
    options.settleSeconds = request.settleSeconds;
    options.bench = request.quick ? BenchSettings::quick() : BenchSettings();
    options.header.deviceId = device.id;
    options.header.boardModel = board.model.empty() ? info.name : board.model;
    options.header.l4tRelease = board.l4tRelease;
    options.header.driverVersion = info.driverVersion;
    options.header.cudaVersion = info.runtimeVersion;
    options.header.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    if (progress && !meter) {
        SweepProgress note;
        note.modeCount = modes.size();
        note.phase = "power not available (" + meterWhy + "): no power model";
        progress(note);
    }
    return runModeSweep(device, modes, env, options, progress, cancel);
}

} // namespace rooftop
