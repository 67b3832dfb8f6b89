// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/measure/runner.h"

#include <cstdint>
#include <map>
#include <string>

namespace rooftop {

/// `sim` / `simulator:SEED`: a SIMULATED board for tests and demos, not a measurement. It answers every
/// configuration from the model's counts and the device spec with physics that deliberately differ from
/// Rooftop's own roofline prior, so that fitting and checking against it means something:
///  - compute and memory overlap only partly: T = Tc + Tm - 0.6 min(Tc, Tm), not max(Tc, Tm);
///  - the achieved fraction of peak grows with batch and arithmetic intensity (no fixed efficiency);
///  - a host overhead per inference and per layer, scaled by f_cpu,max / f_cpu;
///  - power = an idle floor of 0.8 x the catalog's idle plus per-core CPU power, plus GPU and EMC terms in
///    V(f)^2 f with V = 0.55 + 0.45 f / f_max, weighted by how busy each is;
///  - seeded multiplicative noise (about 2 %) on latency and power; p99 a few % above the median.
/// The same seed, configuration and repeat give the same numbers on every platform.
class SimulatedBoardRunner final : public Runner {
public:
    /// `counts`: the model counted at batch 1 at `dims` for each precision the sweep uses; a run at other
    /// dims fails.
    SimulatedBoardRunner(DeviceSpec device, std::map<Precision, Workload> counts, uint64_t seed,
                         std::map<std::string, int64_t> dims = {});
    RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) override;
    std::string name() const override { return "sim:" + std::to_string(seed_); }

private:
    DeviceSpec device_;
    std::map<Precision, Workload> counts_;
    uint64_t seed_;
    std::map<std::string, int64_t> dims_;
    std::map<std::string, uint64_t> calls_; ///< runs so far per configuration: repeats differ in noise
};

} // namespace rooftop
