// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/simulated_board.h"

#include "core/common/splitmix.h"
#include "core/device/ceilings.h"
#include "core/onnx/dim_text.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

namespace {

uint64_t hashText(const std::string& text, uint64_t h) {
    for (unsigned char c : text)
        h = (h ^ c) * 0x100000001b3ULL; // FNV-1a
    return h;
}

/// The clock's share of its maximum (1 when unknown).
double share(double hz, double maxHz) {
    return hz > 0 && maxHz > 0 ? std::min(1.0, hz / maxHz) : 1.0;
}

/// Relative dynamic power of a clock domain: V(f)^2 f with V = 0.55 + 0.45 f / f_max, 1 at the top.
double v2f(double s) {
    const double v = 0.55 + 0.45 * s;
    return v * v * s;
}

/// Roughly normal noise from 4 uniforms (Irwin-Hall), mean 0, deviation 1.
double gaussian(SplitMix64& random) {
    double sum = 0;
    for (int i = 0; i < 4; ++i)
        sum += random.uniform();
    return (sum - 2.0) * std::sqrt(3.0);
}

/// What the simulated board's optimizer step moves and computes: per parameter, sgd reads weight and gradient
/// and writes the weight; momentum adds its velocity; adam its two moments and a square root.
struct UpdateCost {
    double bytes = 0.0;
    double flops = 0.0;
};
UpdateCost updateCost(Optimizer optimizer, double params) {
    switch (optimizer) {
    case Optimizer::Sgd:
        return {12.0 * params, 2.0 * params};
    case Optimizer::Momentum:
        return {20.0 * params, 4.0 * params};
    case Optimizer::Adam:
        return {28.0 * params, 14.0 * params};
    }
    return {};
}

} // namespace

SimulatedBoardRunner::SimulatedBoardRunner(DeviceSpec device, std::map<Precision, Workload> counts,
                                           uint64_t seed, std::map<std::string, int64_t> dims)
    : device_(std::move(device)), counts_(std::move(counts)), seed_(seed), dims_(std::move(dims)) {}

RunResult SimulatedBoardRunner::run(const RunConfig& config, const std::atomic<bool>* cancel) {
    if (cancel && cancel->load()) return RunResult::failed("cancelled");
    const auto found = counts_.find(config.precision);
    if (found == counts_.end())
        return RunResult::failed("simulator: no counts for " + precisionName(config.precision));
    if (config.dims != dims_)
        return RunResult::failed("simulator: counted at " + describeNamedDims(dims_) + ", asked for " +
                                 describeNamedDims(config.dims));
    const WorkloadTotals& totals = found->second.totals;
    const PowerMode& mode = config.mode;
    const double batch = static_cast<double>(std::max<int64_t>(1, config.batch));
    const bool training = config.phase == Phase::Training;

    // work and traffic of one batch: activations and work scale with the batch, weights are read once
    const double passes = training ? 3.0 : 1.0;
    const double flops = passes * batch * static_cast<double>(totals.flops + totals.sfuOps);
    const double bytes = passes * (static_cast<double>(totals.weightBytes) +
                                   batch * static_cast<double>(totals.inputBytes + totals.outputBytes));
    const double intensity = bytes > 0 ? flops / bytes : 0.0;
    // a training step's update streams fp32 master weights, gradients and the optimizer's state, once per
    // step
    const UpdateCost update =
        training ? updateCost(config.optimizer, static_cast<double>(totals.params)) : UpdateCost{};

    const Ceilings raw = deriveCeilings(device_, mode, RuntimeProfile{});
    const ComputeClass unit = config.precision == Precision::INT8   ? ComputeClass::TensorInt8
                              : config.precision == Precision::FP16 ? ComputeClass::TensorFp16
                                                                    : ComputeClass::Fp32CudaCore;
    double peak = raw.peak(unit).value;
    if (!(peak > 0)) peak = raw.peak(ComputeClass::Fp32CudaCore).value;
    const double bandwidth = raw.bandwidth.value;
    if (!(peak > 0) || !(bandwidth > 0))
        return RunResult::failed("simulator: the mode has no compute or memory");

    // achieved fractions: small batches and low intensity leave the GPU idle part of the time
    const double computeEfficiency =
        0.25 + 0.5 * (1.0 - std::exp(-batch / 6.0)) * (intensity / (intensity + 20.0)) + 0.05;
    const double memoryEfficiency = 0.5 + 0.3 * (1.0 - std::exp(-batch / 3.0));
    const double tc = flops / (peak * computeEfficiency);
    const double tm = bytes / (bandwidth * memoryEfficiency) + update.bytes / (bandwidth * 0.7) +
                      update.flops / (raw.peak(ComputeClass::Fp32CudaCore).value * 0.3);
    const double gpuSeconds = tc + tm - 0.6 * std::min(tc, tm);
    const double cpuSlow =
        1.0 / share(static_cast<double>(mode.cpuKhz), static_cast<double>(device_.maxCpuKhz()));
    const double hostSeconds =
        (120e-6 * batch + 4e-6 * static_cast<double>(totals.layers) * passes) * cpuSlow;
    const double seconds = gpuSeconds + hostSeconds;

    const double gpuShare = share(static_cast<double>(mode.gpuHz), static_cast<double>(device_.maxGpuHz()));
    const double emcShare = share(static_cast<double>(mode.emcHz), static_cast<double>(device_.maxEmcHz()));
    const double cpuShare = 1.0 / cpuSlow;
    const double gpuBusy = std::min(1.0, tc / seconds);
    const double memBusy = std::min(1.0, tm / seconds);
    const double module = device_.maxModuleWatts > 0 ? device_.maxModuleWatts : 30.0;
    const double watts = 0.8 * device_.energy.idleWatts +
                         0.3 * mode.onlineCores * v2f(cpuShare) * (0.3 + 0.7 * hostSeconds / seconds) +
                         0.55 * module * v2f(gpuShare) * (0.15 + 0.85 * gpuBusy) +
                         0.15 * module * v2f(emcShare) * (0.2 + 0.8 * memBusy);

    const std::string key = mode.name + "|" + std::to_string(config.batch) + "|" +
                            precisionName(config.precision) + "|" + phaseName(config.phase) +
                            (training ? "|" + optimizerName(config.optimizer) : std::string());
    const uint64_t repeat = calls_[key]++;
    SplitMix64 random(hashText(key, 0xcbf29ce484222325ULL) ^ (seed_ * 0x9e3779b97f4a7c15ULL) ^
                      (repeat * 0xd1b54a32d192ed03ULL));
    const double latencyNoise = std::exp(0.02 * gaussian(random));
    const double powerNoise = std::exp(0.015 * gaussian(random));
    RunResult result;
    result.ok = true;
    result.latencyMs = seconds * 1e3 * latencyNoise;
    result.p99Ms = result.latencyMs * (1.02 + 0.06 * random.uniform());
    result.powerW = watts * powerNoise;
    result.energyJ = *result.powerW * result.latencyMs * 1e-3;
    return result;
}

} // namespace rooftop
