// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's fast path: latency, energy and power of a 500-layer workload in all 4,368 custom modes of an
// AGX-Orin-like grid (6 core counts x 14 CPU x 13 GPU x 4 EMC clocks), against predict() mode by mode, and
// the cost of deriving those mode profiles. Synthetic inputs: no model file, no catalog.
#include "core/device/measured_profile.h"
#include "core/roofline/prediction.h"
#include "support/device_fixtures.h"

#include <benchmark/benchmark.h>
#include <cmath>
#include <random>

namespace {

std::vector<rooftop::ModeProfile> gridProfiles() {
    const rooftop::DeviceSpec d = rooftop::test::orinLikeDvfsGridDevice();
    rooftop::RuntimeProfile runtime;
    runtime.name = "tensorrt";
    runtime.dispatchSecondsAtMaxCpu = 6e-6;
    runtime.computeEfficiency = 0.75;
    runtime.bandwidthEfficiency = 0.8;
    std::vector<rooftop::ModeProfile> profiles;
    for (int cores = 2; cores <= 12; cores += 2)
        for (int64_t cpu : d.cpuLadderKhz)
            for (int64_t gpu : d.gpuLadderHz)
                for (int64_t emc : d.emcLadderHz) {
                    rooftop::PowerMode m;
                    m.name = "custom";
                    m.onlineCores = cores;
                    m.cpuKhz = cpu;
                    m.gpuHz = gpu;
                    m.emcHz = emc;
                    m.activeTpcs = 8;
                    profiles.push_back(rooftop::deriveModeProfile(d, m, runtime));
                }
    return profiles;
}

// 500 layers: convolutions (fp32 and fp16), pointwise (half of them fused), norms, copies and reshapes.
rooftop::Workload syntheticWorkload(int layers) {
    std::mt19937_64 rng(2024);
    std::uniform_real_distribution<double> exponent(5.0, 9.5);
    rooftop::Workload w;
    for (int i = 0; i < layers; ++i) {
        rooftop::LayerCount l;
        l.name = "layer" + std::to_string(i);
        switch (i % 5) {
        case 0:
            l.kind = rooftop::OpKind::Matrix;
            break;
        case 1:
            l.kind = rooftop::OpKind::Pointwise;
            l.fused = i % 2 == 0;
            break;
        case 2:
            l.kind = rooftop::OpKind::Vector;
            break;
        case 3:
            l.kind = rooftop::OpKind::DataMovement;
            break;
        default:
            l.kind = rooftop::OpKind::Alias;
            break;
        }
        l.computeType = i % 3 == 0 ? rooftop::DataType::Float16 : rooftop::DataType::Float32;
        const bool arithmetic = l.kind != rooftop::OpKind::DataMovement && l.kind != rooftop::OpKind::Alias;
        l.flops = arithmetic ? static_cast<int64_t>(std::pow(10.0, exponent(rng)) *
                                                    (l.kind == rooftop::OpKind::Matrix ? 10 : 0.1))
                             : 0;
        l.inputBytes = static_cast<int64_t>(std::pow(10.0, exponent(rng) - 2));
        l.outputBytes = static_cast<int64_t>(std::pow(10.0, exponent(rng) - 2));
        w.layers.push_back(l);
    }
    return w;
}

void BM_SweepModes(benchmark::State& state) {
    const rooftop::Workload workload = syntheticWorkload(static_cast<int>(state.range(0)));
    const std::vector<rooftop::ModeProfile> profiles = gridProfiles();
    for (auto _ : state) {
        std::vector<rooftop::ModeSummary> summaries = rooftop::sweepModes(workload, profiles);
        benchmark::DoNotOptimize(summaries.data());
    }
    state.counters["layers"] = double(workload.layers.size());
    state.counters["modes"] = double(profiles.size());
    state.counters["layer_modes_per_s"] = benchmark::Counter(double(workload.layers.size() * profiles.size()),
                                                             benchmark::Counter::kIsIterationInvariantRate);
}

void BM_PredictEveryMode(benchmark::State& state) {
    const rooftop::Workload workload = syntheticWorkload(static_cast<int>(state.range(0)));
    const std::vector<rooftop::ModeProfile> profiles = gridProfiles();
    for (auto _ : state) {
        const rooftop::LayerPredictor predictor(workload);
        double total = 0;
        for (const auto& p : profiles)
            total += predictor(p).energyJoules;
        benchmark::DoNotOptimize(total);
    }
    state.counters["modes"] = double(profiles.size());
}

void BM_DeriveGridProfiles(benchmark::State& state) {
    for (auto _ : state) {
        std::vector<rooftop::ModeProfile> profiles = gridProfiles();
        benchmark::DoNotOptimize(profiles.data());
    }
}

} // namespace

BENCHMARK(BM_SweepModes)->Arg(500)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PredictEveryMode)->Arg(500)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DeriveGridProfiles)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
