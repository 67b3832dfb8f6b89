// SPDX-License-Identifier: GPL-3.0-or-later
// The learned predictor's speed: latency and power of ResNet-50 in all 4,368 AGX Orin 64GB grid modes at 5
// batch sizes from a predictor learned on 50 runs, and learning (with 5-fold CV) from 500 runs of the
// simulated board.
#include "core/device/mode_set.h"
#include "core/learn/learn_points.h"
#include "core/measure/simulated_board.h"
#include "support/device_fixtures.h"
#include "support/test_support.h"

#include <benchmark/benchmark.h>
#include <map>

namespace {

using namespace rooftop;

const std::vector<int64_t> batches = {1, 2, 4, 8, 16};

struct Setup {
    DeviceSpec device = test::shippedAgxOrin();
    RuntimeProfile runtime = findRuntime("tensorrt");
    std::vector<ModeProfile> grid;
    std::map<int64_t, Workload> workloads;

    Setup() {
        for (const PowerMode& mode : gridPowerModes(device))
            grid.push_back(deriveModeProfile(device, mode, runtime));
        for (int64_t batch : batches) {
            AnalysisSettings settings;
            settings.dims.batch = batch;
            workloads[batch] = test::analyzeSample("resnet50", settings);
        }
    }

    /// `count` sampled modes at every batch size in turn, measured on the simulated board.
    std::vector<LearnPoint> points(int count) const {
        SimulatedBoardRunner board(device, {{Precision::FP32, workloads.at(1)}}, 3);
        std::vector<MeasuredRun> runs;
        const std::vector<PowerMode> modes =
            modesFor(device, "sample:" + std::to_string(count), std::nullopt, 9);
        for (size_t i = 0; i < modes.size(); ++i) {
            RunConfig config;
            config.mode = modes[i];
            config.batch = batches[i % batches.size()];
            const RunResult r = board.run(config, nullptr);
            MeasuredRun run;
            run.mode = modes[i];
            run.batch = config.batch;
            run.latencySeconds = r.latencyMs * 1e-3;
            run.watts = *r.powerW;
            runs.push_back(run);
        }
        return learnPoints(device, runtime, runs,
                           [&](int64_t batch, Precision) -> const Workload& { return workloads.at(batch); });
    }
};

const Setup& setup() {
    static const Setup s;
    return s;
}

void BM_PredictGridFiveBatches(benchmark::State& state) {
    const Setup& s = setup();
    const Predictor predictor = learnPredictor(s.points(50));
    for (auto _ : state)
        for (int64_t batch : batches)
            benchmark::DoNotOptimize(
                predictModes(predictor, s.device, s.workloads.at(batch), Precision::FP32, s.grid));
    state.counters["modes"] = double(s.grid.size() * batches.size());
}
BENCHMARK(BM_PredictGridFiveBatches)->Unit(benchmark::kMillisecond);

void BM_LearnFrom500Runs(benchmark::State& state) {
    const std::vector<LearnPoint> points = setup().points(500);
    for (auto _ : state)
        benchmark::DoNotOptimize(learnPredictor(points));
}
BENCHMARK(BM_LearnFrom500Runs)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
