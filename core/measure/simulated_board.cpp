// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/simulated_board.h"

#include "core/common/errors.h"
#include "core/common/splitmix.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/tensor_path.h"
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
                                           uint64_t seed, std::map<std::string, int64_t> dims,
                                           LlmPassCounts llmCounts)
    : device_(std::move(device)), counts_(std::move(counts)), seed_(seed), dims_(std::move(dims)),
      llmCounts_(std::move(llmCounts)) {
    // a precision the board has no tensor path for (FP8, FP4 on Orin) is no run of it, simulated or not
    if (device_.stockModes.empty()) return;
    const Ceilings top =
        deriveCeilings(device_, powerModeFrom(device_, device_.fastestStockMode()), RuntimeProfile{});
    for (const auto& [precision, workload] : counts_) {
        const bool fp8 = precision == Precision::FP8, fp4 = precision == Precision::FP4;
        if (!fp8 && !fp4) continue;
        const ComputeClass path = fp8 ? ComputeClass::TensorFp8 : ComputeClass::TensorFp4;
        const SourcedValue& peak = top.peak(path);
        const char* name = optionalTensorPrecision(path);
        if (!(peak.value > 0))
            throw InputError(peak.basis + ": the simulated board cannot run " + name + "; " +
                             missingTensorPathRemedy(name));
    }
}

SimulatedBoardRunner::Cost SimulatedBoardRunner::cost(const Work& work, const PowerMode& mode,
                                                      Precision precision) const {
    const double intensity = work.bytes > 0 ? work.flops / work.bytes : 0.0;
    const Ceilings raw = deriveCeilings(device_, mode, RuntimeProfile{});
    // each precision on its own tensor path (the constructor refused FP8 and FP4 where the board has none)
    const ComputeClass unit = precision == Precision::INT8   ? ComputeClass::TensorInt8
                              : precision == Precision::FP16 ? ComputeClass::TensorFp16
                              : precision == Precision::FP8  ? ComputeClass::TensorFp8
                              : precision == Precision::FP4  ? ComputeClass::TensorFp4
                                                             : ComputeClass::Fp32CudaCore;
    double peak = raw.peak(unit).value;
    if (!(peak > 0)) peak = raw.peak(ComputeClass::Fp32CudaCore).value;
    const double bandwidth = raw.bandwidth.value;
    if (!(peak > 0) || !(bandwidth > 0)) return {};

    // achieved fractions: small batches and low intensity leave the GPU idle part of the time
    const double computeEfficiency =
        0.25 + 0.5 * (1.0 - std::exp(-work.fill / 6.0)) * (intensity / (intensity + 20.0)) + 0.05;
    const double memoryEfficiency = 0.5 + 0.3 * (1.0 - std::exp(-work.fill / 3.0));
    const double tc = work.flops / (peak * computeEfficiency);
    const double tm = work.bytes / (bandwidth * memoryEfficiency) + work.updateBytes / (bandwidth * 0.7) +
                      work.updateFlops / (raw.peak(ComputeClass::Fp32CudaCore).value * 0.3);
    const double gpuSeconds = tc + tm - 0.6 * std::min(tc, tm);
    const double cpuSlow =
        1.0 / share(static_cast<double>(mode.cpuKhz), static_cast<double>(device_.maxCpuKhz()));
    const double hostSeconds = work.hostSeconds * cpuSlow;
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
    return {seconds, watts};
}

RunResult SimulatedBoardRunner::run(const RunConfig& config, const std::atomic<bool>* cancel) {
    if (cancel && cancel->load()) return RunResult::failed("cancelled");
    if (config.dims != dims_)
        return RunResult::failed("simulator: counted at " + describeNamedDims(dims_) + ", asked for " +
                                 describeNamedDims(config.dims));
    if (config.llm.active()) return runGeneration(config);
    const auto found = counts_.find(config.precision);
    if (found == counts_.end())
        return RunResult::failed("simulator: no counts for " + precisionName(config.precision));
    const WorkloadTotals& totals = found->second.totals;
    const double batch = static_cast<double>(std::max<int64_t>(1, config.batch));
    const bool training = config.phase == Phase::Training;

    // work and traffic of one batch: activations and work scale with the batch, weights are read once
    const double passes = training ? 3.0 : 1.0;
    Work work;
    work.flops = passes * batch * static_cast<double>(totals.flops + totals.sfuOps);
    work.bytes = passes * (static_cast<double>(totals.weightBytes) +
                           batch * static_cast<double>(totals.inputBytes + totals.outputBytes));
    work.fill = batch;
    work.hostSeconds = 120e-6 * batch + 4e-6 * static_cast<double>(totals.layers) * passes;
    // a training step's update streams fp32 master weights, gradients and the optimizer's state, once per
    // step
    if (training) {
        const UpdateCost update = updateCost(config.optimizer, static_cast<double>(totals.params));
        work.updateBytes = update.bytes;
        work.updateFlops = update.flops;
    }
    const Cost c = cost(work, config.mode, config.precision);
    if (!(c.seconds > 0)) return RunResult::failed("simulator: the mode has no compute or memory");

    SplitMix64 random = noiseFor(config);
    const double latencyNoise = std::exp(0.02 * gaussian(random));
    const double powerNoise = std::exp(0.015 * gaussian(random));
    RunResult result;
    result.ok = true;
    result.latencyMs = c.seconds * 1e3 * latencyNoise;
    result.p99Ms = result.latencyMs * (1.02 + 0.06 * random.uniform());
    result.powerW = c.watts * powerNoise;
    result.energyJ = *result.powerW * result.latencyMs * 1e-3;
    return result;
}

SplitMix64 SimulatedBoardRunner::noiseFor(const RunConfig& config) {
    const bool training = config.phase == Phase::Training;
    std::string key = config.mode.name + "|" + std::to_string(config.batch) + "|" +
                      precisionName(config.precision) + "|" + phaseName(config.phase) +
                      (training ? "|" + optimizerName(config.optimizer) : std::string());
    if (config.llm.active())
        key += "|llm " + std::to_string(config.llm.prompt) + "+" + std::to_string(config.llm.generate);
    // a resumed profile's or tune's repeat continues the file's count, not this runner's
    const uint64_t repeat = std::max<uint64_t>(calls_[key], uint64_t(std::max(config.repeat, 0)));
    calls_[key] = repeat + 1;
    return SplitMix64(hashText(key, 0xcbf29ce484222325ULL) ^ (seed_ * 0x9e3779b97f4a7c15ULL) ^
                      (repeat * 0xd1b54a32d192ed03ULL));
}

SimulatedBoardRunner::Work SimulatedBoardRunner::passWork(const WorkloadTotals& totals, double fill) {
    Work work;
    work.flops = static_cast<double>(totals.flops + totals.sfuOps);
    work.bytes = static_cast<double>(totals.weightBytes + totals.inputBytes + totals.outputBytes);
    work.fill = fill;
    work.hostSeconds = 120e-6 + 4e-6 * static_cast<double>(totals.layers);
    return work;
}

// A generation: the prefill of the batch's prompts (the GPU filled by batch x prompt tokens), then the decode
// steps, each filled by the batch alone; a step's counts are affine in its context, so the steps between the
// first and the last are interpolated and the physics (not affine) averaged over nine of them.
RunResult SimulatedBoardRunner::runGeneration(const RunConfig& config) {
    if (config.phase != Phase::Inference)
        return RunResult::failed("simulator: an LLM generation is inference");
    if (!llmCounts_) return RunResult::failed("simulator: the model was not counted as a decoder");
    const int64_t batch = std::max<int64_t>(1, config.batch);
    const LlmRun& llm = config.llm;
    WorkloadTotals prefill, first, last;
    try {
        prefill = llmCounts_(LlmPassShape{batch, llm.prompt, 0}, config.precision);
        first = llmCounts_(LlmPassShape{batch, 1, llm.prompt}, config.precision);
        last = llmCounts_(LlmPassShape{batch, 1, llm.prompt + llm.generate - 1}, config.precision);
    } catch (const std::exception& error) {
        return RunResult::failed(std::string("simulator: ") + error.what());
    }
    const Cost ttft = cost(passWork(prefill, double(batch * llm.prompt)), config.mode, config.precision);
    if (!(ttft.seconds > 0)) return RunResult::failed("simulator: the mode has no compute or memory");
    constexpr int samples = 9;
    double stepSeconds = 0, stepJoules = 0;
    for (int i = 0; i < samples; ++i) {
        const double t = double(i) / (samples - 1);
        const auto mix = [t](int64_t a, int64_t b) {
            return int64_t(std::llround(double(a) + t * double(b - a)));
        };
        WorkloadTotals step = first;
        step.flops = mix(first.flops, last.flops);
        step.sfuOps = mix(first.sfuOps, last.sfuOps);
        step.inputBytes = mix(first.inputBytes, last.inputBytes);
        step.outputBytes = mix(first.outputBytes, last.outputBytes);
        const Cost c = cost(passWork(step, double(batch)), config.mode, config.precision);
        stepSeconds += c.seconds / samples;
        stepJoules += c.seconds * c.watts / samples;
    }
    SplitMix64 random = noiseFor(config);
    const double prefillNoise = std::exp(0.02 * gaussian(random));
    const double decodeNoise = std::exp(0.02 * gaussian(random));
    const double powerNoise = std::exp(0.015 * gaussian(random));
    LlmMetrics metrics;
    metrics.ttftMs = ttft.seconds * 1e3 * prefillNoise;
    metrics.tpotMs = stepSeconds * 1e3 * decodeNoise;
    const double decodeMs = double(llm.generate) * metrics.tpotMs;
    const double joules =
        (ttft.seconds * ttft.watts) * prefillNoise + double(llm.generate) * stepJoules * decodeNoise;
    RunResult result;
    result.ok = true;
    result.llm = metrics;
    result.latencyMs = metrics.ttftMs + decodeMs;
    result.powerW = joules / (result.latencyMs * 1e-3) * powerNoise;
    result.energyJ = *result.powerW * result.latencyMs * 1e-3;
    return result;
}

} // namespace rooftop
