// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/ceilings.h"
#include "core/device/operator_class.h"
#include "core/roofline/prediction_spread.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace rooftop {

/// What limits a layer in a mode.
enum class Bound {
    Compute, ///< W / (peak f) is the larger roof
    Memory,  ///< Q / BW is the larger roof (or the layer has no FLOPs)
    Overhead ///< the dispatch overhead t0 exceeds the kernel time
};

/// "compute", "memory" or "overhead".
const char* boundName(Bound bound);

/// The compute class a layer runs on: matrix ops at fp16/bf16, int8, fp8 and fp4 on tensor cores (their own
/// class each), the rest on CUDA cores (8- and 4-bit floats element-wise as fp16).
ComputeClass computeClassOf(const LayerCount& layer);

/// True when a layer launches work of its own and pays the dispatch overhead t0: matrix, vector and
/// data-movement layers always, pointwise layers unless fused into a producer's epilogue, aliases and
/// control nodes never.
bool dispatchesKernel(const LayerCount& layer);

/// The kernels a layer launches, each at least the least kernel time t_min: its repeat, times the forward,
/// backward and update phases that have work (0 when it dispatches nothing or has no work).
double kernelLaunches(const LayerCount& layer);

/// Rank of a provenance as evidence, weakest first: estimate 0 < predicted 1 < datasheet 2 < fitted 3 <
/// measured 4 (the order advisor.h's profileProvenance uses). A number computed from several inputs carries
/// the weakest of them, so a prediction is never presented as stronger than its least-known input: an
/// estimate anywhere makes the whole an estimate, an extrapolation from other modes ranks below exact
/// arithmetic on vendor figures, and only all-measured inputs make a measured prediction.
int provenanceStrength(Provenance provenance);

/// The weaker of two provenances (provenanceStrength order).
Provenance weakerProvenance(Provenance a, Provenance b);

/// The weakest provenance among the inputs a workload actually uses in a mode: the peaks of the compute
/// classes it has FLOPs in, the bandwidth when it moves bytes, t0 when a layer dispatches, the efficiency
/// of each operator class with at least 5 % of the kernel time, the kernel floor where it adds 5 % of it, and
/// the power coefficients multiplied by non-zero quantities.
Provenance weakestProvenance(const Workload& workload, const ModeProfile& profile);

/// One layer in one mode: T = max(max(W / (peak f), Q / BW) / e_op, t_min) + t0; E = eps_flop W + eps_byte Q
/// + pi0 T (prediction.cpp says what each term is).
struct LayerPrediction {
    double seconds = 0.0; ///< T, seconds: the kernel time (roofline over e_op, at least t_min) plus t0
    double joules = 0.0;  ///< E, joules: eps_flop W + eps_byte Q + pi0 T
    double dispatchSeconds = 0.0; ///< the t0 part of seconds (0 for layers that dispatch nothing)
    bool dispatches = false;      ///< the layer launches a kernel (dispatchesKernel)
    double busyFraction = 1.0;    ///< of the SMs its kernel keeps busy (kernel_size.h; 1 without the model)
    bool floorBound = false;      ///< its kernels took the least kernel time t_min (each launch)
    Bound bound = Bound::Memory;  ///< what limits the layer (Overhead when t0 exceeds its kernel time)
    ComputeClass computeClass = ComputeClass::Fp32CudaCore; ///< the peak its FLOPs run at (computeClassOf)
    /// The class whose efficiency e_op applies (operatorClassOf).
    OperatorClass operatorClass = OperatorClass::Pointwise;
};

/// What cost a layer its time beyond the bare roofline, for tooltips and reports: "small kernel: 1.3 of 16
/// SMs busy" (kernel_size.h), "kernel floor: 1.5 us" where the least kernel time binds, the operator
/// class's efficiency where it is not 1; "" when none applies.
std::string layerLimitNote(const struct LayerPrediction& layer, const Ceilings& ceilings);

/// A whole model in one mode at one batch size.
struct ModelPrediction {
    ModeProfile profile;         ///< the mode predicted in, with its ceilings and power model
    int64_t batch = 1;           ///< samples per inference batch: the workload's batch (1 when it binds none)
    double latencySeconds = 0.0; ///< sum of layer times + fixedSeconds
    double fixedSeconds = 0.0;   ///< the runtime's fixed cost per inference (host work, sync), at pi0
    double energyJoules = 0.0;   ///< per batch
    double averageWatts = 0.0;   ///< energy / latency
    Provenance provenance = Provenance::Estimate; ///< the weakest provenance of the inputs used
    PredictionSpread spread; ///< how far the totals may be off (coverageSpread; a predictor's own)
    std::vector<LayerPrediction> layers; ///< one per workload layer, in the same order

    /// Joules per sample: energyJoules / batch.
    double energyPerInference() const { return batch > 0 ? energyJoules / double(batch) : energyJoules; }
    /// Samples per second: batch / latencySeconds (0 when the latency is 0).
    double inferencesPerSecond() const { return latencySeconds > 0 ? double(batch) / latencySeconds : 0.0; }
    /// The layers' summed time: what a layer's share of time is of (the latency also holds the fixed cost,
    /// or is a predictor's).
    double layersSeconds() const {
        double sum = 0.0;
        for (const LayerPrediction& layer : layers)
            sum += layer.seconds;
        return sum;
    }
};

/// Predicts every layer and the total of a workload in one mode: the layers' sum plus the fixed cost per
/// inference (Ceilings::inferenceOverhead, spent at the constant power pi0).
ModelPrediction predict(const Workload& workload, const ModeProfile& profile);

/// Shares of a workload's kernel time in one mode (they sum to 1 with the floor's).
struct KernelTimeShares {
    std::array<double, operatorClassCount> classes{}; ///< each class's roofline terms (over e_op)
    double floor = 0.0;                               ///< what the kernel floors add
};

/// predict() of one workload in many modes, what it needs of each layer (work, bytes, classes) found once.
class LayerPredictor {
public:
    /// Finds each layer's work, bytes and classes once; the batch is the workload's (1 when unset).
    explicit LayerPredictor(const Workload& workload);
    /// The same as predict(workload, profile).
    ModelPrediction operator()(const ModeProfile& profile) const;
    /// The same as weakestProvenance(workload, profile).
    Provenance provenance(const ModeProfile& profile) const;
    /// Where the workload's kernel time goes in a mode: each operator class's roofline share and the floor's.
    KernelTimeShares timeShares(const ModeProfile& profile) const;
    /// How far the prediction in a mode may be off: coverageSpread by the classes' shares, at the batch.
    PredictionSpread spread(const ModeProfile& profile) const;
    /// The share of the kernel time below which a class's efficiency (or the floor) does not set the
    /// provenance.
    static constexpr double materialShare = 0.05;

private:
    struct Inputs;
    int64_t batch_ = 1;
    std::shared_ptr<const Inputs> inputs_;
};

/// predict() in every profile (LayerPredictor).
std::vector<ModelPrediction> predictEveryMode(const Workload& workload,
                                              const std::vector<ModeProfile>& profiles);

/// The dynamic energy terms of a workload under a power model.
struct DynamicEnergy {
    double flopJoules = 0.0; ///< sum of eps_flop,class W over the layers
    double byteJoules = 0.0; ///< eps_byte Q
};

/// eps_flop,class W and eps_byte Q of a workload, summed over its layers.
DynamicEnergy dynamicEnergy(const Workload& workload, const PowerModel& power);

/// Latency, energy and power only (no per-layer rows) for many modes at once: the fast path of the advisor.
struct ModeSummary {
    double latencySeconds = 0.0; ///< as predict()'s: the layers' times plus the fixed cost per inference
    double energyJoules = 0.0;   ///< per batch
    double averageWatts = 0.0;   ///< energy / latency (0 when the latency is 0)
    PredictionSpread spread;     ///< how far the three may be off; sweepModes leaves it 0 (the caller knows)
};

/// Vectorised sweep: the same numbers as predict() for every profile, without per-layer allocation.
std::vector<ModeSummary> sweepModes(const Workload& workload, const std::vector<ModeProfile>& profiles);

} // namespace rooftop
