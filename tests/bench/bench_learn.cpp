// SPDX-License-Identifier: GPL-3.0-or-later
// The learned predictor's speed: latency and power of ResNet-50 in all 4,368 AGX Orin 64GB grid modes at 5
// batch sizes from a predictor learned on 50 runs; learning (with 5-fold CV) from 500 runs of the simulated
// board; and learning from N runs of the other physics (tests/support/other_physics_board.h: grid modes drawn
// without replacement, the five batch sizes in turn, repeats beyond the grid with fresh noise), exact and
// sparse (the default: exact up to 500 runs), with the grid's time and power MAPE at batch 1 against the
// other physics' noise-free truth as counters.
#include "core/device/mode_set.h"
#include "core/learn/learn_points.h"
#include "core/measure/simulated_board.h"
#include "support/device_fixtures.h"
#include "support/other_physics_board.h"
#include "support/test_support.h"

#include <benchmark/benchmark.h>
#include <cmath>
#include <limits>
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

/// `count` runs of the other physics: grid modes in a seeded order, batch sizes in turn.
std::vector<LearnPoint> otherPhysicsPoints(int count) {
    const Setup& s = setup();
    const std::vector<PowerMode> modes =
        modesFor(s.device, "sample:" + std::to_string(std::min<size_t>(size_t(count), s.grid.size())),
                 std::nullopt, 9);
    std::vector<MeasuredRun> runs;
    for (int i = 0; i < count; ++i) {
        const size_t m = size_t(i) % modes.size(), round = size_t(i) / modes.size();
        const int64_t batch = batches[(size_t(i) + round) % batches.size()];
        const RunResult r = test::otherPhysics(s.device, s.workloads.at(batch), modes[m], 5 + round);
        MeasuredRun run;
        run.mode = modes[m];
        run.batch = batch;
        run.latencySeconds = r.latencyMs * 1e-3;
        run.watts = *r.powerW;
        runs.push_back(run);
    }
    return learnPoints(s.device, s.runtime, runs, [&](int64_t batch, Precision) -> const Workload& {
        return s.workloads.at(batch);
    });
}

/// Time and power MAPE over the whole grid at batch 1 against the other physics' noise-free truth.
std::pair<double, double> gridErrors(const Predictor& predictor) {
    const Setup& s = setup();
    const std::vector<ModeSummary> predicted =
        predictModes(predictor, s.device, s.workloads.at(1), Precision::FP32, s.grid);
    double time = 0, power = 0;
    for (size_t i = 0; i < s.grid.size(); ++i) {
        const test::OtherPhysicsTruth truth =
            test::otherPhysicsTruth(s.device, s.workloads.at(1), s.grid[i].mode);
        time += std::abs(predicted[i].latencySeconds / truth.seconds - 1.0);
        power += std::abs(predicted[i].averageWatts / truth.watts - 1.0);
    }
    return {time / double(s.grid.size()), power / double(s.grid.size())};
}

void learnOtherPhysics(benchmark::State& state, Eigen::Index exactGpLimit) {
    const std::vector<LearnPoint> points = otherPhysicsPoints(int(state.range(0)));
    LearnOptions options;
    options.exactGpLimit = exactGpLimit;
    Predictor predictor;
    for (auto _ : state)
        predictor = learnPredictor(points, nullptr, options);
    const auto [time, power] = gridErrors(predictor);
    state.counters["grid_time_mape_pct"] = 100 * time;
    state.counters["grid_power_mape_pct"] = 100 * power;
    state.counters["cv_time_mape_pct"] = 100 * predictor.cv.timeMape;
    state.counters["cv_power_mape_pct"] = 100 * predictor.cv.powerMape;
}

void BM_LearnOtherPhysics(benchmark::State& state) {
    learnOtherPhysics(state, exactGpPointLimit);
}
BENCHMARK(BM_LearnOtherPhysics)
    ->Arg(20)
    ->Arg(50)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(5000)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond);

/// The exact process at every size, as before the sparse one (2,000 runs take tens of seconds).
void BM_LearnOtherPhysicsExact(benchmark::State& state) {
    learnOtherPhysics(state, std::numeric_limits<Eigen::Index>::max());
}
BENCHMARK(BM_LearnOtherPhysicsExact)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

void BM_LearnFrom500Runs(benchmark::State& state) {
    const std::vector<LearnPoint> points = setup().points(500);
    for (auto _ : state)
        benchmark::DoNotOptimize(learnPredictor(points));
}
BENCHMARK(BM_LearnFrom500Runs)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
