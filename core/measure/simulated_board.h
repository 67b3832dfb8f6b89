// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/splitmix.h"
#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/measure/runner.h"

#include <cstdint>
#include <functional>
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
/// An LLM generation (RunConfig::llm) is its prefill pass then its decode steps under the same physics, each
/// pass filling the GPU by its tokens.
/// The same seed, configuration and repeat give the same numbers on every platform.
class SimulatedBoardRunner final : public Runner {
public:
    /// One pass of a decoder: `batch` sequences of `sequence` new tokens after `past` cached ones.
    struct LlmPassShape {
        int64_t batch = 1;    ///< sequences in the pass
        int64_t sequence = 1; ///< new tokens of each sequence
        int64_t past = 0;     ///< tokens already cached for each sequence
    };
    /// A decoder's pass counted (all sequences of the batch) at a precision; throws on a pass it cannot
    /// count.
    using LlmPassCounts = std::function<WorkloadTotals(const LlmPassShape&, Precision)>;

    /// `counts`: the model counted at batch 1 at `dims` for each precision the sweep uses; a run at other
    /// dims fails. `llmCounts`: a decoder's passes, for LLM runs (none: they fail).
    SimulatedBoardRunner(DeviceSpec device, std::map<Precision, Workload> counts, uint64_t seed,
                         std::map<std::string, int64_t> dims = {}, LlmPassCounts llmCounts = {});
    /// Answers the configuration from the counts (an LLM run: its prefill, then its decode steps).
    RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) override;
    /// "sim:SEED", as the runs file names it.
    std::string name() const override { return "sim:" + std::to_string(seed_); }

private:
    /// What one pass (or batch) does on the board.
    struct Work {
        double flops = 0, bytes = 0;
        double fill = 1;        ///< how many independent rows fill the GPU (batch, or batch x tokens)
        double hostSeconds = 0; ///< the host's work at the top CPU clock
        double updateBytes = 0, updateFlops = 0; ///< a training step's optimizer update
    };
    struct Cost {
        double seconds = 0, watts = 0;
    };
    Cost cost(const Work& work, const PowerMode& mode, Precision precision) const;
    static Work passWork(const WorkloadTotals& totals, double fill);
    RunResult runGeneration(const RunConfig& config);
    /// The noise of this configuration's next repeat.
    SplitMix64 noiseFor(const RunConfig& config);

    DeviceSpec device_;
    std::map<Precision, Workload> counts_;
    uint64_t seed_;
    std::map<std::string, int64_t> dims_;
    LlmPassCounts llmCounts_;
    std::map<std::string, uint64_t> calls_; ///< runs so far per configuration: repeats differ in noise
};

} // namespace rooftop
