// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/ceilings.h"

#include <string>
#include <vector>

namespace rooftop {

/// What limits a layer in a mode.
enum class Bound { Compute, Memory, Overhead };

/// "compute", "memory" or "overhead".
const char* boundName(Bound bound);

/// The compute class a layer runs on: matrix ops at fp16/int8 on tensor cores, the rest on CUDA cores.
ComputeClass computeClassOf(const LayerCount& layer);

/// One layer in one mode: T = max(W / peak, Q / BW) + t0; E = eps_flop W + eps_byte Q + pi0 T.
struct LayerPrediction {
    double seconds = 0.0;
    double joules = 0.0;
    Bound bound = Bound::Memory;
    ComputeClass computeClass = ComputeClass::Fp32CudaCore;
};

/// A whole model in one mode at one batch size.
struct ModelPrediction {
    ModeProfile profile;
    int64_t batch = 1;
    double latencySeconds = 0.0;   ///< sum of layer times
    double energyJoules = 0.0;     ///< per batch
    double averageWatts = 0.0;     ///< energy / latency
    Provenance provenance = Provenance::Estimate; ///< the weakest provenance of the inputs used
    std::vector<LayerPrediction> layers;

    double energyPerInference() const { return batch > 0 ? energyJoules / double(batch) : energyJoules; }
    double inferencesPerSecond() const { return latencySeconds > 0 ? double(batch) / latencySeconds : 0.0; }
};

/// Predicts every layer and the total of a workload in one mode.
ModelPrediction predict(const Workload& workload, const ModeProfile& profile);

/// Latency, energy and power only (no per-layer rows) for many modes at once: the fast path of the advisor.
struct ModeSummary {
    double latencySeconds = 0.0;
    double energyJoules = 0.0;
    double averageWatts = 0.0;
};

/// Vectorised sweep: the same numbers as predict() for every profile, without per-layer allocation.
std::vector<ModeSummary> sweepModes(const Workload& workload, const std::vector<ModeProfile>& profiles);

} // namespace rooftop
