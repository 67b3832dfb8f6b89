// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/other_physics_board.h"

#include "core/common/splitmix.h"
#include "core/device/ceilings.h"

#include <algorithm>
#include <cmath>

namespace rooftop::test {

namespace {

double uniformNoise(SplitMix64& random) {
    return 1.0 + 0.02 * (2.0 * random.uniform() - 1.0) * std::sqrt(3.0);
}

uint64_t modeSeed(const PowerMode& mode) {
    return uint64_t(mode.cpuKhz) * 31 + uint64_t(mode.gpuHz) * 7 + uint64_t(mode.emcHz) * 3 +
           uint64_t(mode.onlineCores);
}

} // namespace

OtherPhysicsTruth otherPhysicsTruth(const DeviceSpec& device, const Workload& w, const PowerMode& mode) {
    const Ceilings c = deriveCeilings(device, mode, RuntimeProfile{});
    auto share = [](double v, double m) { return v > 0 && m > 0 ? std::min(1.0, v / m) : 1.0; };
    const double cpu = share(double(mode.cpuKhz), double(device.maxCpuKhz()));
    const double gpu = share(double(mode.gpuHz), double(device.maxGpuHz()));
    const double emc = share(double(mode.emcHz), double(device.maxEmcHz()));
    const double compute = double(w.totals.flops) / c.peak(ComputeClass::Fp32CudaCore).value;
    const double memory =
        double(w.totals.bytes()) / c.bandwidth.value * (1.0 + 0.5 * (1.0 - emc) * (1.0 - emc));
    const double gpuTime = std::cbrt(compute * compute * compute + memory * memory * memory) / 0.6;
    const double host = (300e-6 + 1.5e-6 * double(w.totals.layers)) * std::pow(1.0 / cpu, 0.8) +
                        50e-6 * std::max(0, 4 - mode.onlineCores);
    OtherPhysicsTruth t;
    t.seconds = gpuTime + host;
    t.watts = otherPhysicsIdleWatts(device, mode) +
              0.9 * mode.onlineCores * std::pow(cpu, 2.2) * host / t.seconds +
              22.0 * std::pow(gpu, 2.6) * std::pow(std::min(1.0, compute / t.seconds), 0.7) +
              9.0 * std::pow(emc, 1.3) * std::pow(std::min(1.0, memory / t.seconds), 0.5);
    return t;
}

double otherPhysicsIdleWatts(const DeviceSpec& device, const PowerMode& mode) {
    const double cpu =
        device.maxCpuKhz() > 0 ? std::min(1.0, double(mode.cpuKhz) / double(device.maxCpuKhz())) : 1.0;
    return 3.5 + 0.9 * mode.onlineCores * std::pow(cpu, 2.2) * 0.2;
}

RunResult otherPhysics(const DeviceSpec& device, const Workload& w, const PowerMode& mode, uint64_t seed) {
    const OtherPhysicsTruth t = otherPhysicsTruth(device, w, mode);
    SplitMix64 random(seed ^ modeSeed(mode));
    RunResult r;
    r.ok = true;
    r.latencyMs = t.seconds * 1e3 * uniformNoise(random);
    r.p99Ms = r.latencyMs;
    r.powerW = t.watts * uniformNoise(random);
    return r;
}

OtherPhysicsBoard::OtherPhysicsBoard(DeviceSpec device, Counts counts, uint64_t seed)
    : device_(std::move(device)), counts_(std::move(counts)), seed_(seed) {}

OtherPhysicsTruth OtherPhysicsBoard::truth(const RunConfig& config) const {
    return otherPhysicsTruth(device_, counts_.at({config.batch, config.precision}), config.mode);
}

RunResult OtherPhysicsBoard::run(const RunConfig& config, const std::atomic<bool>* cancel) {
    ++runs;
    if (cancel && cancel->load()) return RunResult::failed("cancelled");
    if (hook)
        if (std::optional<RunResult> r = hook(config)) return *r;
    const auto found = counts_.find({config.batch, config.precision});
    if (found == counts_.end()) return RunResult::failed("other physics: no counts for this batch");
    const OtherPhysicsTruth t = otherPhysicsTruth(device_, found->second, config.mode);
    const std::string key =
        config.mode.name + "|" + std::to_string(config.batch) + "|" + precisionName(config.precision);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char ch : key)
        h = (h ^ ch) * 0x100000001b3ULL;
    SplitMix64 random(h ^ (seed_ * 0x9e3779b97f4a7c15ULL) ^ (repeats_[key]++ * 0xd1b54a32d192ed03ULL));
    RunResult r;
    r.ok = true;
    r.latencyMs = t.seconds * 1e3 * uniformNoise(random);
    r.p99Ms = r.latencyMs;
    r.powerW = t.watts * uniformNoise(random);
    return r;
}

} // namespace rooftop::test
