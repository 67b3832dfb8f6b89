// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop plan's schedule simulation: 60 s of arrivals at 100 requests/s (target: under 100 ms), per policy
// and arrival process, and the exhaustive plan over the AGX Orin 64GB grid (4,368 modes x 5 batch sizes).
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/plan/arrival_process.h"
#include "core/plan/concurrent_schedule.h"
#include "core/plan/plan_search.h"
#include "core/plan/plan_session.h"
#include "core/session/analysis_session.h"

#include <benchmark/benchmark.h>

using namespace rooftop;

namespace {

ScheduleCosts mobileNetBesideResNet(int64_t batch) {
    ScheduleCosts c; // MobileNetV2 inference and a ResNet-18 training step in MAXN, as Rooftop predicts them
    c.inferenceBatch = batch;
    c.inferenceSeconds = 0.0013 * (0.6 + 0.4 * static_cast<double>(batch));
    c.inferenceWatts = 14.5;
    c.trainingSeconds = 0.051;
    c.trainingWatts = 29.6;
    c.idleWatts = 9.0;
    return c;
}

void simulate(benchmark::State& state, const char* arrival, SchedulePolicy policy) {
    const std::vector<double> arrivals = generateArrivals(parseArrivalSpec(arrival), 60.0, 1);
    ScheduleOptions o;
    o.sloSeconds = 0.1;
    o.policy = policy;
    o.durationSeconds = 60.0;
    for (auto _ : state)
        benchmark::DoNotOptimize(simulateSchedule(arrivals, mobileNetBesideResNet(4), o));
    state.counters["requests"] = static_cast<double>(arrivals.size());
}

void BM_Simulate60sPoisson100Adaptive(benchmark::State& s) {
    simulate(s, "poisson:100", SchedulePolicy::Adaptive);
}
void BM_Simulate60sPoisson100Greedy(benchmark::State& s) {
    simulate(s, "poisson:100", SchedulePolicy::Greedy);
}
void BM_Simulate60sBursty100Adaptive(benchmark::State& s) {
    simulate(s, "bursty:100", SchedulePolicy::Adaptive);
}
void BM_Simulate60sUniform100Adaptive(benchmark::State& s) {
    simulate(s, "uniform:100", SchedulePolicy::Adaptive);
}

void BM_GenerateArrivals60sPoisson100(benchmark::State& state) {
    const ArrivalSpec spec = parseArrivalSpec("poisson:100");
    for (auto _ : state)
        benchmark::DoNotOptimize(generateArrivals(spec, 60.0, 1));
}

void BM_ExhaustivePlanOverTheGrid(benchmark::State& state) {
    const DeviceSpec device = resolveDevice("agx-orin-64gb");
    const std::string models = ROOFTOP_BENCH_MODELS_DIR;
    std::map<int64_t, Workload> inference;
    const std::vector<int64_t> batches = {1, 2, 4, 8, 16};
    for (int64_t b : batches) {
        AnalysisSettings s;
        s.dims.batch = b;
        inference.emplace(b, analyzeModelFile(models + "/mobilenet_v2.onnx", s));
    }
    AnalysisSettings t;
    t.phase = Phase::Training;
    t.dims.batch = 16;
    const Workload training = analyzeModelFile(models + "/resnet18.onnx", t);
    const PlanSpace space = buildPlanSpace(
        device, findRuntime("tensorrt"), gridPowerModes(device), batches, 16, Precision::FP32,
        [&](int64_t b) -> const Workload& { return inference.at(b); }, training, nullptr);
    ArrivalSpec a = parseArrivalSpec("poisson:30");
    PlanSimulation sim;
    sim.rate = 30;
    sim.options.durationSeconds = 30;
    for (int i = 0; i < 3; ++i)
        sim.arrivals.push_back(planArrivals(a, 30, 1, i));
    PlanBudgets budgets;
    budgets.sloSeconds = 0.1;
    for (auto _ : state)
        benchmark::DoNotOptimize(runPlanSearch(space, budgets, sim, PlanSearchOptions{}, nullptr));
}

} // namespace

BENCHMARK(BM_Simulate60sPoisson100Adaptive)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate60sPoisson100Greedy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate60sBursty100Adaptive)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate60sUniform100Adaptive)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateArrivals60sPoisson100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExhaustivePlanOverTheGrid)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
