// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/microbench/energy_meter.h"
#include "core/microbench/gpu_backend.h"

#include <functional>

namespace rooftop {

/// The ground truth a FakeGpuBackend simulates: roofs, launch cost and an exact energy model.
struct FakeGpuModel {
    /// Roofs, FLOP/s (ops/s for INT8).
    double fp32Flops = 5.0e12, fp16Flops = 10.0e12, tensorFp16Flops = 40.0e12, tensorInt8Ops = 80.0e12;
    double tensorFp8Flops = 0.0;            ///< 0: the GPU has no FP8 tensor path (the fake is an Orin, 8.7)
    int computeMajor = 8, computeMinor = 7; ///< the compute capability info() reports
    double bandwidth = 180.0e9;             ///< bytes/s of every DRAM pattern
    double launchSeconds = 5e-6;            ///< per launch, added to every kernel
    double flopsPerLaunch = 1e10; ///< FLOPs of one launch of a compute kernel (Intensity's follow its bytes)
    /// DRAM bytes of one read or write launch (a copy moves twice as many, a triad three times).
    double bytesPerLaunch = 1e9;
    int64_t smClockHz = 1300500000; ///< the SM clock every run reports
    /// The energy model: W, J/FLOP, J/byte.
    double constantWatts = 10.0, joulesPerFlop = 5e-12, joulesPerByte = 40e-12;
    /// energy of an FP16 / tensor-core op relative to joulesPerFlop (those windows stay out of the fit)
    double otherFlopEnergyRatio = 1.0;
};

/// A GPU that takes no time: kernel times follow FakeGpuModel's roofline, and the simulated clock and energy
/// counters advance with every run so FakeEnergyMeter can measure windows exactly. For tests and dry runs.
class FakeGpuBackend final : public GpuBackend {
public:
    /// A GPU simulating `model`.
    explicit FakeGpuBackend(FakeGpuModel model = {}) : model_(model) {}
    GpuInfo info() const override;
    KernelRun run(const KernelParams& params) override;
    /// Simulated seconds and joules since construction (the idle waits included).
    double clockSeconds() const { return seconds_; }
    double energyJoules() const { return joules_; }
    /// Lets simulated time pass with the GPU idle (constant power only).
    void idle(double seconds);
    /// The model; tests change it between modes.
    FakeGpuModel& model() { return model_; }
    /// Called before each run (tests use it to cancel or fail at a given point).
    std::function<void(const KernelParams&)> onRun;
    /// Number of run() calls.
    int runs() const { return runs_; }

private:
    FakeGpuModel model_;
    double seconds_ = 0.0, joules_ = 0.0;
    int runs_ = 0;
};

/// An EnergyMeter reading a FakeGpuBackend's simulated counters.
class FakeEnergyMeter final : public EnergyMeter {
public:
    /// Reads `gpu`'s counters; it must outlive the meter.
    explicit FakeEnergyMeter(FakeGpuBackend& gpu) : gpu_(gpu) {}
    std::string description() const override { return "fake meter"; }
    void start() override;
    EnergyWindow stop() override;
    double idleWatts(double seconds) override;

private:
    FakeGpuBackend& gpu_;
    double startSeconds_ = 0.0, startJoules_ = 0.0;
};

} // namespace rooftop
