// SPDX-License-Identifier: GPL-3.0-or-later
// The measuring protocol (microbench.md §4, §6.3): a warm-up launch, timed batches of back-to-back launches
// sized to batchSeconds, best and median per launch, the SM clock read by the backend during the run; then
// one energy window per kernel of powerWindowSeconds and an idle window, fitted with fitEnergyModel.
#include "core/microbench/bench_runner.h"

#include "core/common/errors.h"
#include "core/roofline/energy_fit.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

BenchSettings BenchSettings::quick() {
    BenchSettings s;
    s.samples = 3;
    s.batchSeconds = 0.02;
    s.powerWindowSeconds = 1.0;
    s.idleSeconds = 1.0;
    s.intensities = {1, 16, 256, 1024};
    return s;
}

BenchRunner::BenchRunner(GpuBackend& gpu, EnergyMeter* meter, BenchSettings settings)
    : gpu_(gpu), meter_(meter), settings_(std::move(settings)) {}

namespace {

int launchesFor(double targetSeconds, double launchSeconds) {
    if (launchSeconds <= 0) return 1;
    return static_cast<int>(std::clamp(std::ceil(targetSeconds / launchSeconds), 1.0, 1e6));
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

KernelTiming BenchRunner::time(const KernelParams& params) {
    KernelParams probe = params;
    probe.launches = 1;
    probe.samples = 1;
    const KernelRun first = gpu_.run(probe);
    KernelParams timed = params;
    timed.launches =
        launchesFor(settings_.batchSeconds, first.batchSeconds.empty() ? 0 : first.batchSeconds[0]);
    timed.samples = std::max(1, settings_.samples);
    const KernelRun run = gpu_.run(timed);
    std::vector<double> perLaunch;
    for (double s : run.batchSeconds)
        perLaunch.push_back(s / timed.launches);
    KernelTiming t;
    t.kernel = kernelName(params.kind, params.intensity);
    t.medianLaunchSeconds = median(perLaunch);
    const double work = run.flopsPerLaunch > 0 ? run.flopsPerLaunch : run.bytesPerLaunch;
    const double best = perLaunch.empty() ? 0.0 : *std::min_element(perLaunch.begin(), perLaunch.end());
    if (work > 0 && best > 0) t.bestRate = work / best;
    if (work > 0 && t.medianLaunchSeconds > 0) t.medianRate = work / t.medianLaunchSeconds;
    t.smClockHz = run.smClockHz;
    timings_.push_back(t);
    return t;
}

EnergySample BenchRunner::energy(const KernelParams& params, double launchSeconds) {
    KernelParams window = params;
    window.launches = launchesFor(settings_.powerWindowSeconds, launchSeconds);
    window.samples = 1;
    meter_->start();
    const KernelRun run = gpu_.run(window);
    const EnergyWindow measured = meter_->stop();
    const double launches = window.launches + 1.0; // the backend's warm-up launch is inside the window
    EnergySample sample;
    sample.kernel = kernelName(params.kind, params.intensity);
    sample.flops = run.flopsPerLaunch * launches;
    sample.bytes = run.bytesPerLaunch * launches;
    sample.seconds = measured.seconds;
    sample.joules = measured.joules;
    return sample;
}

std::optional<MeasuredMode> BenchRunner::measure(const DeviceSpec& device, const PowerMode& mode,
                                                 int64_t observedEmcHz, const std::atomic<bool>* cancel,
                                                 const BenchPhaseCallback& phase) {
    timings_.clear();
    MeasuredMode result;
    result.mode = mode;
    result.observedEmcHz = observedEmcHz;

    std::vector<KernelParams> kernels = {
        {KernelKind::Fp32Fma},    {KernelKind::Fp16Fma},   {KernelKind::TensorFp16},
        {KernelKind::TensorInt8}, {KernelKind::DramRead},  {KernelKind::DramWrite},
        {KernelKind::DramCopy},   {KernelKind::DramTriad}, {KernelKind::EmptyLaunch}};
    for (int k : settings_.intensities)
        kernels.push_back({KernelKind::Intensity, k});
    const bool tensor = device.units.tensorCoresPerSm > 0 && gpu_.info().computeMajor >= 8;
    // FP8 where both the board (the catalog's FP8 rate: Thor) and the GPU (8.9+) have it; Orin has not
    if (tensor && device.units.tensorFp8FlopsPerSmPerClock > 0 && gpu_.info().fp8Tensor())
        kernels.insert(kernels.begin() + 4, {KernelKind::TensorFp8});
    const size_t steps = kernels.size() * (meter_ ? 2 : 1) + (meter_ ? 1 : 0);
    size_t done = 0;
    auto report = [&](const std::string& text) {
        if (phase) phase(text, static_cast<double>(done) / steps);
    };
    auto cancelled = [&] { return cancel && cancel->load(); };

    std::vector<std::pair<KernelParams, double>> energyKernels;
    int64_t clockSum = 0;
    int clockCount = 0;
    for (const auto& params : kernels) {
        if (cancelled()) return std::nullopt;
        const std::string name = kernelName(params.kind, params.intensity);
        report(name);
        ++done;
        if ((params.kind == KernelKind::TensorFp16 || params.kind == KernelKind::TensorInt8 ||
             params.kind == KernelKind::TensorFp8) &&
            !tensor)
            continue;
        const KernelTiming t = time(params);
        if (t.smClockHz > 0) {
            clockSum += t.smClockHz;
            ++clockCount;
        }
        switch (params.kind) {
        case KernelKind::Fp32Fma:
            result.peakFlops[0] = t.bestRate;
            break;
        case KernelKind::Fp16Fma:
            result.peakFlops[1] = t.bestRate;
            break;
        case KernelKind::TensorFp16:
            result.peakFlops[2] = t.bestRate;
            break;
        case KernelKind::TensorInt8:
            result.peakFlops[3] = t.bestRate;
            break;
        case KernelKind::TensorFp8:
            result.peakFlops[static_cast<size_t>(ComputeClass::TensorFp8)] = t.bestRate;
            break;
        case KernelKind::DramRead:
            result.readBandwidth = t.bestRate;
            break;
        case KernelKind::DramWrite:
            result.writeBandwidth = t.bestRate;
            break;
        case KernelKind::DramCopy:
            result.copyBandwidth = t.bestRate;
            break;
        case KernelKind::DramTriad:
            result.triadBandwidth = t.bestRate;
            break;
        case KernelKind::EmptyLaunch:
            result.dispatchSeconds = t.medianLaunchSeconds;
            break;
        case KernelKind::Intensity:
            break;
        }
        if (params.kind != KernelKind::EmptyLaunch && params.kind != KernelKind::DramWrite)
            energyKernels.push_back({params, t.medianLaunchSeconds});
    }
    result.bandwidth =
        std::max({result.readBandwidth, result.writeBandwidth, result.copyBandwidth, result.triadBandwidth});
    result.observedGpuHz = clockCount ? clockSum / clockCount : 0;

    if (meter_) {
        if (cancelled()) return std::nullopt;
        report("idle baseline");
        ++done;
        EnergySample idle;
        idle.kernel = "idle";
        idle.seconds = settings_.idleSeconds;
        idle.joules = meter_->idleWatts(settings_.idleSeconds) * settings_.idleSeconds;
        result.samples.push_back(idle);
        for (const auto& [params, launchSeconds] : energyKernels) {
            if (cancelled()) return std::nullopt;
            report("energy " + kernelName(params.kind, params.intensity));
            ++done;
            result.samples.push_back(energy(params, launchSeconds));
        }
        // the fit's eps_flop is an FP32 CUDA-core FLOP's energy (predictions scale tensor FLOPs by
        // tensorFlopEnergyRatio): fit the idle, FP32, DRAM and intensity windows only; the FP16 and
        // tensor-core windows stay recorded as samples
        std::vector<EnergySample> fitted;
        for (const EnergySample& sample : result.samples)
            if (sample.kernel != kernelName(KernelKind::Fp16Fma) &&
                sample.kernel != kernelName(KernelKind::TensorFp16) &&
                sample.kernel != kernelName(KernelKind::TensorInt8) &&
                sample.kernel != kernelName(KernelKind::TensorFp8))
                fitted.push_back(sample);
        if (const std::optional<EnergyFit> fit =
                tryFitEnergyModel(fitted)) // else too few or degenerate windows
            result.power =
                powerModelFromFit(*fit, device.energy.tensorFlopEnergyRatio, // not measured: the catalog's
                                  "rooftop bench energy windows");
    }

    // % of theoretical at the clocks read during the run (SM clock measured in-kernel, EMC from sysfs).
    MeasuredMode atClock = result;
    if (result.observedGpuHz > 0) atClock.mode.gpuHz = result.observedGpuHz;
    if (observedEmcHz > 0) atClock.mode.emcHz = observedEmcHz;
    fillPercentOfTheoretical(atClock, device);
    result.percentOfTheoretical = atClock.percentOfTheoretical;
    report("done");
    return result;
}

} // namespace rooftop
