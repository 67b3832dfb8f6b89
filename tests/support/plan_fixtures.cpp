// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/plan_fixtures.h"

namespace rooftop::test {

namespace {

PowerMode mode(const std::string& name, bool stock, int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz) {
    PowerMode m;
    m.name = name;
    m.stock = stock;
    m.onlineCores = cores;
    m.cpuKhz = cpuKhz;
    m.gpuHz = gpuHz;
    m.emcHz = emcHz;
    return m;
}

PlanModeCosts costs(const PowerMode& m, double scale) {
    PlanModeCosts c;
    c.mode = m;
    c.inferenceSeconds = {0.004 * scale, 0.010 * scale};
    c.inferenceWatts = {8.0 / scale, 10.5 / scale};
    c.trainingSeconds = 0.0624 * scale;
    c.trainingWatts = 18.3 / scale;
    c.idleWatts = 3.9;
    c.provenance = "estimate";
    return c;
}

PlanCandidate candidate(const PlanSpace& space, size_t m, size_t batch, double mbps, double violations,
                        double watts, bool feasible, const std::string& reason) {
    PlanCandidate c;
    c.mode = m;
    c.costs = space.modes[m];
    c.result.batchIndex = batch;
    c.result.stats.requests = 2658;
    c.result.stats.late = feasible ? 0 : 40;
    c.result.stats.dropped = feasible ? 1 : 45;
    c.result.stats.violationPct = violations;
    c.result.stats.p50Ms = 50.2;
    c.result.stats.p99Ms = 99.9;
    c.result.stats.minibatchesPerSecond = mbps;
    c.result.stats.averageWatts = watts;
    c.result.stats.energyJoules = watts * 30;
    c.result.feasible = feasible;
    c.result.evaluated = true;
    c.result.reason = reason;
    return c;
}

} // namespace

PlanReport knownPlanReport() {
    PlanReport r;
    r.device.id = "orin-nano-8gb";
    r.device.name = "NVIDIA Jetson Orin Nano 8GB";
    r.inferenceModel = "mobilenet_v2.onnx";
    r.trainingModel = "resnet18.onnx";
    r.arrival.kind = ArrivalSpec::Kind::Poisson;
    r.arrival.rate = 30;
    r.budgets.sloSeconds = 0.1;
    r.budgets.powerCapWatts = 15.0;
    r.budgets.maxViolationPct = 1.0;
    r.request.deviceId = r.device.id;
    r.request.strategy = PlanStrategy::Exhaustive;
    r.request.planningStreams = 3;
    r.space.inferenceBatches = {1, 4};
    r.space.trainingBatch = 16;
    r.space.basis = "Rooftop's roofline (tensorrt runtime), no run";
    r.space.modes = {
        costs(mode("15W", true, 6, 1510400, 624750000, 2133000000), 1.4),
        costs(mode("c2-cpu1958.4-gpu1032.75-emc3199", false, 2, 1958400, 1032750000, 3199000000), 1.0),
        costs(mode("MAXN_SUPER", true, 6, 1728000, 1020000000, 3199000000), 0.8)};
    r.outcome.candidates = {
        candidate(r.space, 1, 1, 11.93, 0.04, 14.8, true, ""),
        candidate(r.space, 0, 0, 6.5, 0.5, 9.87, true, ""),
        candidate(r.space, 2, 1, 15.2, 3.2, 22.1, false, "average power 22.1 W over the 15 W cap")};
    r.outcome.plan = 0;
    r.outcome.stopReason = "every mode bounded or simulated";
    r.policies = {{"uniform at 30 req/s", 0.0, 30.19, 0.0, 19.08, 10.01},
                  {"poisson at 30 req/s", 0.0, 24.04, 0.04, 19.06, 15.5},
                  {"bursty at 30 req/s", 0.0, 20.97, 0.06, 19.22, 15.28}};
    r.budgetMetPct = 100;
    r.checkStreams = 100;
    r.nvpmodel = "sudo nvpmodel -m 2";
    r.simulatedSeconds = 30;
    double t = 1.0;                // the plan page shows the second from 1 s to 2 s
    for (int i = 0; i < 10; ++i) { // one simulated second: a batch, then two minibatches, then idle
        r.timeline.push_back({TimelineSegment::Kind::Inference, t, t + 0.01, 4});
        r.timeline.push_back({TimelineSegment::Kind::Training, t + 0.01, t + 0.04, 0});
        r.timeline.push_back({TimelineSegment::Kind::Idle, t + 0.04, t + 0.1, 0});
        t += 0.1;
    }
    return r;
}

} // namespace rooftop::test
