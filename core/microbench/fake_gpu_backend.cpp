// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/microbench/fake_gpu_backend.h"

#include "core/common/errors.h"

#include <algorithm>

namespace rooftop {

GpuInfo FakeGpuBackend::info() const {
    GpuInfo info;
    info.name = "Fake GPU";
    info.smCount = 16;
    info.computeMajor = model_.computeMajor;
    info.computeMinor = model_.computeMinor;
    info.l2Bytes = 4 << 20;
    info.integrated = true;
    info.driverVersion = "13.0";
    info.runtimeVersion = "13.0";
    return info;
}

void FakeGpuBackend::idle(double seconds) {
    seconds_ += seconds;
    joules_ += model_.constantWatts * seconds;
}

KernelRun FakeGpuBackend::run(const KernelParams& p) {
    ++runs_;
    if (onRun) onRun(p);
    KernelRun r;
    double peak = model_.fp32Flops;
    switch (p.kind) {
    case KernelKind::Fp32Fma:
        r.flopsPerLaunch = model_.flopsPerLaunch;
        break;
    case KernelKind::Fp16Fma:
        r.flopsPerLaunch = model_.flopsPerLaunch;
        peak = model_.fp16Flops;
        break;
    case KernelKind::TensorFp16:
        r.flopsPerLaunch = model_.flopsPerLaunch;
        peak = model_.tensorFp16Flops;
        break;
    case KernelKind::TensorInt8:
        r.flopsPerLaunch = model_.flopsPerLaunch;
        peak = model_.tensorInt8Ops;
        break;
    case KernelKind::TensorFp8:
        if (!(model_.tensorFp8Flops > 0))
            throw UnavailableError("mma.sync FP8 needs compute capability 8.9 or newer");
        r.flopsPerLaunch = model_.flopsPerLaunch;
        peak = model_.tensorFp8Flops;
        break;
    case KernelKind::DramRead:
    case KernelKind::DramWrite:
        r.bytesPerLaunch = model_.bytesPerLaunch;
        break;
    case KernelKind::DramCopy:
        r.bytesPerLaunch = 2 * model_.bytesPerLaunch;
        break;
    case KernelKind::DramTriad:
        r.bytesPerLaunch = 3 * model_.bytesPerLaunch;
        break;
    case KernelKind::Intensity:
        r.bytesPerLaunch = model_.bytesPerLaunch;
        r.flopsPerLaunch = model_.bytesPerLaunch / 4.0 * 2.0 * p.intensity;
        break;
    case KernelKind::EmptyLaunch:
        break;
    }
    const bool fp32Class = p.kind == KernelKind::Fp32Fma || p.kind == KernelKind::Intensity;
    const double joulesPerFlop = model_.joulesPerFlop * (fp32Class ? 1.0 : model_.otherFlopEnergyRatio);
    const double launch =
        std::max(r.flopsPerLaunch / peak, r.bytesPerLaunch / model_.bandwidth) + model_.launchSeconds;
    auto account = [&](int launches) {
        const double t = launch * launches;
        seconds_ += t;
        joules_ += model_.constantWatts * t +
                   launches * (joulesPerFlop * r.flopsPerLaunch + model_.joulesPerByte * r.bytesPerLaunch);
        return t;
    };
    account(1); // warm-up
    for (int s = 0; s < std::max(1, p.samples); ++s)
        r.batchSeconds.push_back(account(std::max(1, p.launches)));
    r.smClockHz = model_.smClockHz;
    return r;
}

void FakeEnergyMeter::start() {
    startSeconds_ = gpu_.clockSeconds();
    startJoules_ = gpu_.energyJoules();
}

EnergyWindow FakeEnergyMeter::stop() {
    EnergyWindow window;
    window.seconds = gpu_.clockSeconds() - startSeconds_;
    window.joules = gpu_.energyJoules() - startJoules_;
    window.samples = {{0.0, window.seconds > 0 ? window.joules / window.seconds : 0.0},
                      {window.seconds, window.seconds > 0 ? window.joules / window.seconds : 0.0}};
    return window;
}

double FakeEnergyMeter::idleWatts(double seconds) {
    start();
    gpu_.idle(seconds);
    const EnergyWindow window = stop();
    return window.seconds > 0 ? window.joules / window.seconds : 0.0;
}

} // namespace rooftop
