// SPDX-License-Identifier: GPL-3.0-or-later
// Time and energy of every layer in a mode (shared/reference/papers.md section 0):
//   T = max(W / peak_class, Q / BW) / e_op + t0   (t0 only for layers that dispatch a kernel; e_op the
//   runtime's
//                                                  fitted efficiency of the layer's operator class, 1 unless
//                                                  fitted)
//   E = eps_flop,class W + eps_byte Q + pi0 T     (eps_flop,class = eps_flop x tensorFlopEnergyRatio on
//   tensor cores)
// The bound is compute or memory by the larger roofline term, overhead when t0 exceeds both. The model's
// total adds the runtime's fixed cost per inference t_inf (host work, synchronisation), spent at pi0.
#include "core/roofline/prediction.h"

#include "core/common/errors.h"
#include "core/roofline/layer_operator_class.h"
#include "core/roofline/roofline_curves.h"

#include <Eigen/Core>
#include <algorithm>

namespace rooftop {

namespace {

void checkProfile(const ModeProfile& profile, const bool (&classUsed)[computeClassCount], bool movesBytes) {
    for (int c = 0; c < computeClassCount; ++c) {
        if (!classUsed[c] || profile.ceilings.peakFlops[static_cast<size_t>(c)].value > 0) continue;
        const auto computeClass = static_cast<ComputeClass>(c);
        if (computeClass == ComputeClass::TensorFp8 || computeClass == ComputeClass::TensorFp4) {
            // the board lacks the precision (FP8 / FP4 on Orin): one line that says so, no prediction
            const char* precision = computeClass == ComputeClass::TensorFp8 ? "fp8" : "fp4";
            throw InputError(
                profile.ceilings.peakFlops[static_cast<size_t>(c)].basis + ": its " + precision +
                " layers cannot be predicted there; count the model at --precision fp16 or int8, "
                "or choose a board with " +
                precision + " tensor cores (Jetson AGX Thor)");
        }
        throw InputError("mode " + profile.mode.name + " has no " + computeClassName(computeClass) +
                         " peak to predict with");
    }
    if (movesBytes && !(profile.ceilings.bandwidth.value > 0))
        throw InputError("mode " + profile.mode.name + " has no DRAM bandwidth to predict with");
}

double classFactor(const Ceilings& c, const LayerCount& layer) {
    return c.classEfficiency.factor[static_cast<size_t>(operatorClassOf(layer))];
}

// The provenance the class efficiencies lend a workload: the fitted factors' for a class with work that a
// profile fitted; estimate for one it did not fit while it fitted others (its 1 is an assumption, not a fit).
Provenance classEfficiencyProvenance(const Workload& workload, const ClassEfficiencies& e) {
    const bool anyFitted = std::find(e.fitted.begin(), e.fitted.end(), true) != e.fitted.end();
    Provenance p = Provenance::Measured;
    for (const LayerCount& layer : workload.layers) {
        if (layer.bytes() + layer.flops <= 0) continue;
        const size_t k = static_cast<size_t>(operatorClassOf(layer));
        if (e.fitted[k] || e.factor[k] != 1.0)
            p = weakerProvenance(p, e.provenance);
        else if (anyFitted)
            p = weakerProvenance(p, Provenance::Estimate);
    }
    return p;
}

} // namespace

const char* boundName(Bound bound) {
    switch (bound) {
    case Bound::Compute:
        return "compute";
    case Bound::Memory:
        return "memory";
    case Bound::Overhead:
        return "overhead";
    }
    return "memory";
}

ComputeClass computeClassOf(const LayerCount& layer) {
    const DataType t = layer.computeType;
    const bool half = t == DataType::Float16 || t == DataType::BFloat16;
    const bool fp8 = t == DataType::Float8E4M3FN || t == DataType::Float8E4M3FNUZ ||
                     t == DataType::Float8E5M2 || t == DataType::Float8E5M2FNUZ;
    const bool fp4 = t == DataType::Float4E2M1;
    const bool integer8 =
        t == DataType::Int8 || t == DataType::UInt8 || t == DataType::Int4 || t == DataType::UInt4;
    if (layer.kind == OpKind::Matrix) {
        if (half) return ComputeClass::TensorFp16;
        if (fp8) return ComputeClass::TensorFp8;
        if (fp4) return ComputeClass::TensorFp4;
        if (integer8) return ComputeClass::TensorInt8;
    } else if (half || fp8 || fp4) {
        return ComputeClass::Fp16CudaCore; // element-wise work on 8- and 4-bit floats runs dequantised
    }
    return ComputeClass::Fp32CudaCore;
}

bool dispatchesKernel(const LayerCount& layer) {
    switch (layer.kind) {
    case OpKind::Matrix:
    case OpKind::Vector:
    case OpKind::DataMovement:
        return true;
    case OpKind::Pointwise:
        return !layer.fused;
    case OpKind::Alias:
    case OpKind::Control:
        return false;
    }
    return true;
}

int provenanceStrength(Provenance provenance) {
    switch (provenance) {
    case Provenance::Estimate:
        return 0;
    case Provenance::Predicted:
        return 1;
    case Provenance::Datasheet:
        return 2;
    case Provenance::Fitted:
        return 3;
    case Provenance::Measured:
        return 4;
    }
    return 0;
}

Provenance weakerProvenance(Provenance a, Provenance b) {
    return provenanceStrength(b) < provenanceStrength(a) ? b : a;
}

Provenance weakestProvenance(const Workload& workload, const ModeProfile& profile) {
    bool classUsed[computeClassCount] = {};
    bool movesBytes = false, dispatches = false, hasFlops = false;
    for (const LayerCount& layer : workload.layers) {
        if (layer.flops > 0) {
            classUsed[static_cast<int>(computeClassOf(layer))] = true;
            hasFlops = true;
        }
        movesBytes = movesBytes || layer.bytes() > 0;
        dispatches = dispatches || dispatchesKernel(layer);
    }
    Provenance p = Provenance::Measured;
    for (int c = 0; c < computeClassCount; ++c)
        if (classUsed[c])
            p = weakerProvenance(p, profile.ceilings.peakFlops[static_cast<size_t>(c)].provenance);
    if (movesBytes) p = weakerProvenance(p, profile.ceilings.bandwidth.provenance);
    if (dispatches) p = weakerProvenance(p, profile.ceilings.dispatchOverhead.provenance);
    p = weakerProvenance(p, classEfficiencyProvenance(workload, profile.ceilings.classEfficiency));
    if (profile.ceilings.inferenceOverhead.value > 0)
        p = weakerProvenance(p, profile.ceilings.inferenceOverhead.provenance);
    if (hasFlops) p = weakerProvenance(p, profile.power.energyPerFlop.provenance);
    if (movesBytes) p = weakerProvenance(p, profile.power.energyPerByte.provenance);
    return weakerProvenance(p, profile.power.constantPower.provenance);
}

ModelPrediction predict(const Workload& workload, const ModeProfile& profile) {
    ModelPrediction result;
    result.profile = profile;
    result.batch = workload.settings.dims.batch.value_or(1);
    result.layers.reserve(workload.layers.size());

    bool classUsed[computeClassCount] = {};
    bool movesBytes = false;
    for (const LayerCount& layer : workload.layers) {
        if (layer.flops > 0) classUsed[static_cast<int>(computeClassOf(layer))] = true;
        movesBytes = movesBytes || layer.bytes() > 0;
    }
    checkProfile(profile, classUsed, movesBytes);

    const Ceilings& c = profile.ceilings;
    const PowerModel& power = profile.power;
    const double bandwidth = c.bandwidth.value;
    const double t0 = c.dispatchOverhead.value;
    for (const LayerCount& layer : workload.layers) {
        LayerPrediction row;
        row.computeClass = computeClassOf(layer);
        const double w = static_cast<double>(layer.flops);
        const double q = static_cast<double>(layer.bytes());
        const double computeSeconds = w > 0 ? w / c.peak(row.computeClass).value : 0.0;
        const double memorySeconds = q > 0 ? q / bandwidth : 0.0;
        row.dispatches = dispatchesKernel(layer);
        row.dispatchSeconds = row.dispatches ? t0 : 0.0;
        const double roofline = std::max(computeSeconds, memorySeconds) / classFactor(c, layer);
        row.seconds = roofline + row.dispatchSeconds;
        row.bound = row.dispatchSeconds > roofline             ? Bound::Overhead
                    : computeSeconds >= memorySeconds && w > 0 ? Bound::Compute
                                                               : Bound::Memory;
        row.joules = classEnergyPerFlop(power, row.computeClass) * w + power.energyPerByte.value * q +
                     power.constantPower.value * row.seconds;
        result.latencySeconds += row.seconds;
        result.energyJoules += row.joules;
        result.layers.push_back(row);
    }
    result.fixedSeconds = c.inferenceOverhead.value;
    result.latencySeconds += result.fixedSeconds;
    result.energyJoules += power.constantPower.value * result.fixedSeconds;
    result.averageWatts = result.latencySeconds > 0 ? result.energyJoules / result.latencySeconds : 0.0;
    result.provenance = weakestProvenance(workload, profile);
    return result;
}

DynamicEnergy dynamicEnergy(const Workload& workload, const PowerModel& power) {
    DynamicEnergy e;
    for (const LayerCount& layer : workload.layers) {
        e.flopJoules += classEnergyPerFlop(power, computeClassOf(layer)) * static_cast<double>(layer.flops);
        e.byteJoules += power.energyPerByte.value * static_cast<double>(layer.bytes());
    }
    return e;
}

std::vector<ModeSummary> sweepModes(const Workload& workload, const std::vector<ModeProfile>& profiles) {
    // Layers grouped by compute class and operator class into contiguous W and Q arrays (layers without FLOPs
    // are a group of their own per operator class: their time is Q / BW); per mode the roofline term of a
    // group is one vectorised max-and-sum, divided by the class's efficiency.
    constexpr int groupCount = computeClassCount * operatorClassCount;
    std::vector<double> groupW[groupCount], groupQ[groupCount];
    double flopSum[computeClassCount] = {};
    double bytesOnly[operatorClassCount] = {};
    double byteSum = 0.0;
    double dispatchCount = 0.0;
    bool classUsed[computeClassCount] = {};
    bool movesBytes = false;
    for (const LayerCount& layer : workload.layers) {
        const double w = static_cast<double>(layer.flops);
        const double q = static_cast<double>(layer.bytes());
        const int op = static_cast<int>(operatorClassOf(layer));
        byteSum += q;
        movesBytes = movesBytes || q > 0;
        if (dispatchesKernel(layer)) dispatchCount += 1.0;
        if (w > 0) {
            const int c = static_cast<int>(computeClassOf(layer));
            classUsed[c] = true;
            groupW[c * operatorClassCount + op].push_back(w);
            groupQ[c * operatorClassCount + op].push_back(q);
            flopSum[c] += w;
        } else {
            bytesOnly[op] += q;
        }
    }

    std::vector<ModeSummary> result(profiles.size());
    for (size_t m = 0; m < profiles.size(); ++m) {
        const ModeProfile& profile = profiles[m];
        checkProfile(profile, classUsed, movesBytes);
        const Ceilings& c = profile.ceilings;
        const PowerModel& power = profile.power;
        const ClassFactors& factor = c.classEfficiency.factor;
        const double inverseBandwidth = movesBytes ? 1.0 / c.bandwidth.value : 0.0;
        double seconds = 0.0;
        for (int op = 0; op < operatorClassCount; ++op)
            seconds += bytesOnly[op] * inverseBandwidth / factor[static_cast<size_t>(op)];
        double joules = power.energyPerByte.value * byteSum;
        for (int g = 0; g < groupCount; ++g) {
            if (groupW[g].empty()) continue;
            const int k = g / operatorClassCount;
            const Eigen::Index n = static_cast<Eigen::Index>(groupW[g].size());
            const Eigen::Map<const Eigen::ArrayXd> w(groupW[g].data(), n);
            const Eigen::Map<const Eigen::ArrayXd> q(groupQ[g].data(), n);
            const double inversePeak = 1.0 / c.peakFlops[static_cast<size_t>(k)].value;
            seconds += (w * inversePeak).max(q * inverseBandwidth).sum() /
                       factor[static_cast<size_t>(g % operatorClassCount)];
        }
        for (int k = 0; k < computeClassCount; ++k)
            joules += classEnergyPerFlop(power, static_cast<ComputeClass>(k)) * flopSum[k];
        seconds += dispatchCount * c.dispatchOverhead.value + c.inferenceOverhead.value;
        joules += power.constantPower.value * seconds;
        result[m].latencySeconds = seconds;
        result[m].energyJoules = joules;
        result[m].averageWatts = seconds > 0 ? joules / seconds : 0.0;
    }
    return result;
}

} // namespace rooftop
