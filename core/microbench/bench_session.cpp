// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/microbench/bench_session.h"

#include "core/common/errors.h"
#include "core/device/mode_set.h"
#include "core/platform/board_session.h"
#include "core/platform/detected_catalog.h"
#include "core/platform/jetson_clocks.h"

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

void checkBenchRequest(const BenchRequest& request) {
    if (request.modes.empty()) throw InputError("bench: --modes is empty");
    if (request.deviceId.empty()) return; // the board is detected: its modes are known once it is
    const DeviceSpec device = resolveDevice(request.deviceId);
    if (request.modes != "current") (void)modesFor(device, request.modes);
}

SweepOutcome runBenchSession(const BenchRequest& request, const SweepProgressCallback& progress,
                             const std::atomic<bool>* cancel) {
    checkBenchRequest(request);
    std::string why;
    auto gpu = openCudaBackend(0, &why);
    if (!gpu) throw UnavailableError("bench: " + why + "; nothing was measured or changed");
    const GpuInfo info = gpu->info();

    BoardSessionRequest open;
    open.command = "bench";
    open.deviceId = request.deviceId.empty() && !info.integrated ? "cuda:0" : request.deviceId;
    open.modes = request.modes;
    const std::unique_ptr<BoardSession> board = BoardSession::open(open);
    const DeviceSpec& device = board->device();

    std::unique_ptr<EnergyMeter> meter;
    if (board->power()) meter = std::make_unique<SampledEnergyMeter>(board->power(), board->powerPeriod());

    SweepEnvironment env;
    env.gpu = gpu.get();
    env.meter = meter.get();
    env.switcher = board->switcher();
    env.journal = board->journal();
    if (board->onBoard()) {
        const SysfsRoot root = board->root();
        const ClockPaths paths = findClockPaths(root);
        env.observe = [root, paths] { return readObservedClocks(root, paths); };
    }
    SweepOptions options;
    options.outPath = request.outPath.empty() ? device.id + "-profile.json" : request.outPath;
    options.settleSeconds = request.settleSeconds;
    options.bench = request.quick ? BenchSettings::quick() : BenchSettings();
    options.header.deviceId = device.id;
    options.header.boardModel = board->identity().model.empty() ? info.name : board->identity().model;
    options.header.l4tRelease = board->identity().l4tRelease;
    options.header.driverVersion = info.driverVersion;
    options.header.cudaVersion = info.runtimeVersion;
    options.header.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    if (progress && !meter) {
        SweepProgress note;
        note.modeCount = board->modes().size();
        note.phase = "power not available (" + board->noPowerReason() + "): no power model";
        progress(note);
    }
    return runModeSweep(device, board->modes(), env, options, progress, cancel);
}

} // namespace rooftop
