// SPDX-License-Identifier: GPL-3.0-or-later
// A second board physics for tests, written apart from the learner's features and from core/measure's
// simulator, so that learning and tuning are judged on laws they were not built around.
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/measure/runner.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace rooftop::test {

/// The noise-free latency (seconds, one batch) and power (watts) of the other physics.
struct OtherPhysicsTruth {
    double seconds = 0.0;
    double watts = 0.0;
};

/// Compute and memory combine as a smooth maximum (p = 3) at 60 % efficiency, memory slows further at low
/// EMC clocks, the host costs 300 us + 1.5 us per layer per batch scaled by (f_max / f)^0.8 plus a penalty
/// below four cores, and power is a floor plus CPU f^2.2, GPU f^2.6 x utilisation^0.7 and EMC f^1.3 x
/// utilisation^0.5 terms. `w` is the model counted at the batch (and precision) of the run.
OtherPhysicsTruth otherPhysicsTruth(const DeviceSpec& device, const Workload& w, const PowerMode& mode);

/// The other physics' power with nothing running in `mode`: the floor and the CPU's idle share.
double otherPhysicsIdleWatts(const DeviceSpec& device, const PowerMode& mode);

/// otherPhysicsTruth with 2 % seeded noise (uniform, the same seed and mode give the same numbers).
RunResult otherPhysics(const DeviceSpec& device, const Workload& w, const PowerMode& mode, uint64_t seed);

/// The other physics as a Runner ("other-physics:SEED"): each run gets noise seeded by the seed, the mode,
/// the batch, the precision and how often the configuration ran before.
class OtherPhysicsBoard final : public Runner {
public:
    using Counts = std::map<std::pair<int64_t, Precision>, Workload>; ///< by (batch, precision)
    OtherPhysicsBoard(DeviceSpec device, Counts counts, uint64_t seed);
    RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) override;
    std::string name() const override { return "other-physics:" + std::to_string(seed_); }
    /// The noise-free answer of a configuration.
    OtherPhysicsTruth truth(const RunConfig& config) const;
    /// Called before each run: a result replaces the run's (a failure, say); may also throw.
    std::function<std::optional<RunResult>(const RunConfig&)> hook;
    int runs = 0; ///< runs so far

private:
    DeviceSpec device_;
    Counts counts_;
    uint64_t seed_;
    std::map<std::string, uint64_t> repeats_;
};

} // namespace rooftop::test
