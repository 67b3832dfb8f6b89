// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/measured_profile.h"
#include "core/microbench/energy_meter.h"
#include "core/microbench/gpu_backend.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace rooftop {

/// How long and how often rooftop bench measures (docs/bench.md).
struct BenchSettings {
    int samples = 10;                ///< timed batches per kernel (median and best over them)
    double batchSeconds = 0.05;      ///< target length of one timed batch
    double powerWindowSeconds = 2.0; ///< length of each energy window (>= 1-2 s: INA3221 / NVML averaging)
    double idleSeconds = 5.0;        ///< idle-baseline window
    std::vector<int> intensities = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}; ///< FMAs per element

    /// The --quick settings: 3 samples, 1 s windows, 4 intensity points.
    static BenchSettings quick();
};

/// Timing of one kernel: per-launch rates over the timed batches.
struct KernelTiming {
    std::string kernel;               ///< kernelName of the kernel timed
    double bestRate = 0.0;            ///< FLOP/s or bytes/s of the fastest batch (for empty launches: 0)
    double medianRate = 0.0;          ///< of the median batch
    double medianLaunchSeconds = 0.0; ///< one launch's time in the median batch, seconds
    int64_t smClockHz = 0;            ///< SM clock measured during the batches; 0: unknown
};

/// Called with a phase text ("fp32-fma", "energy dram-copy") and the fraction of the mode done (0..1).
using BenchPhaseCallback = std::function<void(const std::string& phase, double fraction)>;

/// Measures one power mode already in force: compute peaks, DRAM bandwidth per pattern, dispatch overhead,
/// the intensity sweep, energy windows with an idle baseline, and the fitted power model.
class BenchRunner {
public:
    /// `meter` may be null: no power model then (power "not available").
    BenchRunner(GpuBackend& gpu, EnergyMeter* meter, BenchSettings settings);

    /// Runs every kernel for `mode` on `device`; nothing when *cancel became true (checked between kernels).
    /// observedEmcHz, when known, is the EMC clock read during the run (for % of theoretical).
    std::optional<MeasuredMode> measure(const DeviceSpec& device, const PowerMode& mode,
                                        int64_t observedEmcHz, const std::atomic<bool>* cancel,
                                        const BenchPhaseCallback& phase = {});

    /// Timings of the last measure(), one per kernel (the ceilings' best rates come from these).
    const std::vector<KernelTiming>& timings() const { return timings_; }

private:
    KernelTiming time(const KernelParams& params);
    EnergySample energy(const KernelParams& params, double launchSeconds);

    GpuBackend& gpu_;
    EnergyMeter* meter_;
    BenchSettings settings_;
    std::vector<KernelTiming> timings_;
};

} // namespace rooftop
