// SPDX-License-Identifier: GPL-3.0-or-later
// Time and energy of every layer in a mode (shared/reference/papers.md section 0):
//   T = max(max(W / (peak_class f), Q / BW) / e_op, t_min) + t0
//   E = eps_flop,class W + eps_byte Q + pi0 T     (eps_flop,class = eps_flop x tensorFlopEnergyRatio on
//                                                  tensor cores)
// e_op: the runtime's efficiency of the layer's operator class (an estimate, or fitted); f: the fraction of
// the SMs the kernel's blocks keep busy (core/roofline/kernel_size.h); t_min: the least time of a kernel;
// t_min and t0 only for layers that dispatch a kernel. The bound is compute or memory by the larger roofline
// term, overhead when t0 exceeds it. The model's total adds the runtime's fixed cost per inference t_inf
// (host work, synchronisation), spent at pi0.
#include "core/roofline/prediction.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/device/tensor_path.h"
#include "core/roofline/kernel_size.h"
#include "core/roofline/layer_operator_class.h"
#include "core/roofline/roofline_curves.h"

#include <Eigen/Core>
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace rooftop {

namespace {

void checkProfile(const ModeProfile& profile, const bool (&classUsed)[computeClassCount], bool movesBytes) {
    for (int c = 0; c < computeClassCount; ++c) {
        if (!classUsed[c] || profile.ceilings.peakFlops[static_cast<size_t>(c)].value > 0) continue;
        const auto computeClass = static_cast<ComputeClass>(c);
        if (const char* precision = optionalTensorPrecision(computeClass)) // FP8 / FP4 on Orin
            throw InputError(profile.ceilings.peakFlops[static_cast<size_t>(c)].basis + ": its " + precision +
                             " layers cannot be predicted there; " + missingTensorPathRemedy(precision));
        throw InputError("mode " + profile.mode.name + " has no " + computeClassName(computeClass) +
                         " peak to predict with");
    }
    if (movesBytes && !(profile.ceilings.bandwidth.value > 0))
        throw InputError("mode " + profile.mode.name + " has no DRAM bandwidth to predict with");
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

double kernelLaunches(const LayerCount& layer) {
    if (!dispatchesKernel(layer) || layer.flops + layer.bytes() <= 0) return 0.0;
    // a training step launches the backward and the update as kernels of their own
    const auto works = [](const PhaseCount& phase) { return phase.flops + phase.bytes > 0 ? 1 : 0; };
    return static_cast<double>(std::max<int64_t>(layer.repeat, 1) *
                               (1 + works(layer.backward) + works(layer.update)));
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

// Named, not anonymous: LayerPredictor::Inputs holds these, and a class with a member of an anonymous
// namespace's type is one gcc warns about in a unity build.
namespace layer_prediction {

// What predicting a workload needs of each layer, found once for all modes: its work, bytes and classes.
struct LayerInputs {
    double w = 0.0;
    double q = 0.0;
    ComputeClass computeClass = ComputeClass::Fp32CudaCore;
    OperatorClass operatorClass = OperatorClass::Pointwise;
    bool dispatches = false;
    double kernels = 1.0; ///< launches the layer's work is spread over (its repeat, a training step's
                          ///< phases), each with a floor t_min
    KernelWork work;
};

// The busy fraction of every layer's kernel on one number of SMs and tail scale, worked out once per pair.
class FillCache {
public:
    std::shared_ptr<const std::vector<double>> busyFractions(const std::vector<LayerInputs>& layers,
                                                             double sms, double tailScale) const {
        const std::lock_guard<std::mutex> lock(mutex_);
        auto& slot = bySms_[{sms, tailScale}];
        if (!slot) {
            auto fractions = std::make_shared<std::vector<double>>();
            fractions->reserve(layers.size());
            for (const LayerInputs& layer : layers)
                fractions->push_back(tailScaledBusyFraction(kernelFill(layer.work, sms), tailScale));
            slot = std::move(fractions);
        }
        return slot;
    }

private:
    mutable std::mutex mutex_;
    mutable std::map<std::pair<double, double>, std::shared_ptr<const std::vector<double>>> bySms_;
};

} // namespace layer_prediction

namespace {

using layer_prediction::FillCache;
using layer_prediction::LayerInputs;

LayerInputs layerInputsOf(const LayerCount& layer) {
    LayerInputs row;
    row.w = static_cast<double>(layer.flops);
    row.q = static_cast<double>(layer.bytes());
    row.computeClass = computeClassOf(layer);
    row.operatorClass = operatorClassOf(layer);
    row.dispatches = dispatchesKernel(layer);
    row.work = kernelWorkOf(layer, row.operatorClass);
    row.kernels = kernelLaunches(layer);
    return row;
}

} // namespace

struct LayerPredictor::Inputs {
    std::vector<layer_prediction::LayerInputs> layers;
    bool classUsed[computeClassCount] = {};
    bool operatorClassWorks[operatorClassCount] = {}; ///< some layer of the class has FLOPs or bytes
    bool movesBytes = false;
    bool dispatches = false;
    bool hasFlops = false;
    FillCache fills;
};

namespace {

// One layer's kernel time in a mode: max(max(W / (peak f), Q / BW) / e_op, t_min x launches). What
// operator() and timeShares() both take from a mode, worked out once per mode.
class KernelTimer {
public:
    struct Time {
        double compute = 0.0, memory = 0.0; ///< W / (peak f) and Q / BW
        double kernel = 0.0;                ///< the roofline term over e_op, or the floor where it binds
        double floorAdded = 0.0;            ///< what the floor adds over the roofline term
        double busyFraction = 1.0;
    };

    KernelTimer(const std::vector<LayerInputs>& layers, const FillCache& fills, const Ceilings& c)
        : minimumKernel_(c.minimumKernel.value),
          inverseBandwidth_(c.bandwidth.value > 0 ? 1.0 / c.bandwidth.value : 0.0),
          busy_(c.kernelSms > 0 ? fills.busyFractions(layers, c.kernelSms, c.kernelTailScale) : nullptr) {
        for (int k = 0; k < computeClassCount; ++k) {
            const double peak = c.peakFlops[static_cast<size_t>(k)].value;
            inversePeak_[k] = peak > 0 ? 1.0 / peak : 0.0;
        }
        for (int k = 0; k < operatorClassCount; ++k)
            inverseFactor_[k] = 1.0 / c.classEfficiency.factor[static_cast<size_t>(k)];
    }

    Time operator()(size_t i, const LayerInputs& layer) const {
        Time t;
        t.busyFraction = busy_ ? (*busy_)[i] : 1.0;
        t.compute =
            layer.w > 0 ? layer.w * inversePeak_[static_cast<int>(layer.computeClass)] / t.busyFraction : 0.0;
        t.memory = layer.q > 0 ? layer.q * inverseBandwidth_ : 0.0;
        t.kernel = std::max(t.compute, t.memory) * inverseFactor_[static_cast<int>(layer.operatorClass)];
        const double floor = minimumKernel_ * layer.kernels;
        if (floor > t.kernel) {
            t.floorAdded = floor - t.kernel;
            t.kernel = floor;
        }
        return t;
    }

private:
    double inversePeak_[computeClassCount] = {};
    double inverseFactor_[operatorClassCount] = {};
    double minimumKernel_;
    double inverseBandwidth_;
    std::shared_ptr<const std::vector<double>> busy_;
};

} // namespace

LayerPredictor::LayerPredictor(const Workload& workload) : batch_(workload.settings.dims.batch.value_or(1)) {
    auto inputs = std::make_shared<Inputs>();
    Inputs& in = *inputs;
    in.layers.reserve(workload.layers.size());
    for (const LayerCount& layer : workload.layers) {
        const LayerInputs row = layerInputsOf(layer);
        if (layer.flops > 0) {
            in.classUsed[static_cast<int>(row.computeClass)] = true;
            in.hasFlops = true;
        }
        in.movesBytes = in.movesBytes || layer.bytes() > 0;
        in.dispatches = in.dispatches || row.dispatches;
        if (layer.bytes() + layer.flops > 0)
            in.operatorClassWorks[static_cast<int>(row.operatorClass)] = true;
        in.layers.push_back(row);
    }
    inputs_ = std::move(inputs);
}

// The weakest provenance of the inputs used: peaks of the classes with FLOPs, bandwidth, t0, the class
// efficiencies (the fitted factors' for a class with work that was fitted; estimate for one that was not,
// when its factor is an estimate or others were fitted: its 1 is then an assumption, not a fit), the fixed
// cost and the power coefficients. The kernel floor t_min joins where it binds (operator()).
Provenance LayerPredictor::provenance(const ModeProfile& profile) const {
    const Inputs& in = *inputs_;
    Provenance p = Provenance::Measured;
    for (int c = 0; c < computeClassCount; ++c)
        if (in.classUsed[c])
            p = weakerProvenance(p, profile.ceilings.peakFlops[static_cast<size_t>(c)].provenance);
    if (in.movesBytes) p = weakerProvenance(p, profile.ceilings.bandwidth.provenance);
    if (in.dispatches) p = weakerProvenance(p, profile.ceilings.dispatchOverhead.provenance);
    const ClassEfficiencies& e = profile.ceilings.classEfficiency;
    const bool anyFitted = std::find(e.fitted.begin(), e.fitted.end(), true) != e.fitted.end();
    // the shares can only weaken what is stronger than an estimate (and cost a pass over the layers)
    KernelTimeShares shares;
    if (provenanceStrength(p) > provenanceStrength(Provenance::Estimate)) shares = timeShares(profile);
    // the floor's estimate marks the whole only where it is a material part of it
    if (shares.floor >= materialShare) p = weakerProvenance(p, profile.ceilings.minimumKernel.provenance);
    for (int k = 0; k < operatorClassCount; ++k) {
        // a class with a sliver of the time (a model's one pooling layer) does not decide what the whole is
        if (!in.operatorClassWorks[k] || shares.classes[static_cast<size_t>(k)] < materialShare) continue;
        if (e.fitted[static_cast<size_t>(k)])
            p = weakerProvenance(p, e.provenance);
        else if (anyFitted || e.factor[static_cast<size_t>(k)] != 1.0)
            p = weakerProvenance(p, Provenance::Estimate);
    }
    if (profile.ceilings.inferenceOverhead.value > 0)
        p = weakerProvenance(p, profile.ceilings.inferenceOverhead.provenance);
    if (in.hasFlops) p = weakerProvenance(p, profile.power.energyPerFlop.provenance);
    if (in.movesBytes) p = weakerProvenance(p, profile.power.energyPerByte.provenance);
    return weakerProvenance(p, profile.power.constantPower.provenance);
}

KernelTimeShares LayerPredictor::timeShares(const ModeProfile& profile) const {
    const KernelTimer time(inputs_->layers, inputs_->fills, profile.ceilings);
    KernelTimeShares shares;
    double total = 0.0;
    for (size_t i = 0; i < inputs_->layers.size(); ++i) {
        const LayerInputs& layer = inputs_->layers[i];
        const KernelTimer::Time t = time(i, layer);
        shares.classes[static_cast<size_t>(layer.operatorClass)] += t.kernel - t.floorAdded;
        shares.floor += t.floorAdded;
        total += t.kernel;
    }
    for (double& s : shares.classes)
        s = total > 0 ? s / total : 0.0;
    shares.floor = total > 0 ? shares.floor / total : 0.0;
    return shares;
}

PredictionSpread LayerPredictor::spread(const ModeProfile& profile) const {
    return coverageSpread(timeShares(profile).classes, profile.ceilings.classEfficiency, batch_);
}

ModelPrediction LayerPredictor::operator()(const ModeProfile& profile) const {
    const Inputs& in = *inputs_;
    checkProfile(profile, in.classUsed, in.movesBytes);
    ModelPrediction result;
    result.profile = profile;
    result.batch = batch_;
    result.layers.resize(in.layers.size());

    const Ceilings& c = profile.ceilings;
    const PowerModel& power = profile.power;
    double energyPerFlop[computeClassCount] = {};
    for (int k = 0; k < computeClassCount; ++k)
        energyPerFlop[k] = classEnergyPerFlop(power, static_cast<ComputeClass>(k));
    const double t0 = c.dispatchOverhead.value;
    const double pi0 = power.constantPower.value;
    const double energyPerByte = power.energyPerByte.value;
    const KernelTimer time(in.layers, in.fills, c);
    for (size_t i = 0; i < in.layers.size(); ++i) {
        const LayerInputs& layer = in.layers[i];
        LayerPrediction& row = result.layers[i];
        const int k = static_cast<int>(layer.computeClass);
        const KernelTimer::Time t = time(i, layer);
        row.computeClass = layer.computeClass;
        row.operatorClass = layer.operatorClass;
        row.busyFraction = t.busyFraction;
        row.floorBound = t.floorAdded > 0;
        row.dispatches = layer.dispatches;
        row.dispatchSeconds = layer.dispatches ? t0 : 0.0;
        const double roofline = t.kernel;
        const double computeSeconds = t.compute, memorySeconds = t.memory;
        row.seconds = roofline + row.dispatchSeconds;
        row.bound = row.dispatchSeconds > roofline                   ? Bound::Overhead
                    : computeSeconds >= memorySeconds && layer.w > 0 ? Bound::Compute
                                                                     : Bound::Memory;
        row.joules = energyPerFlop[k] * layer.w + energyPerByte * layer.q + pi0 * row.seconds;
        result.latencySeconds += row.seconds;
        result.energyJoules += row.joules;
    }
    result.fixedSeconds = c.inferenceOverhead.value;
    result.latencySeconds += result.fixedSeconds;
    result.energyJoules += pi0 * result.fixedSeconds;
    result.averageWatts = result.latencySeconds > 0 ? result.energyJoules / result.latencySeconds : 0.0;
    result.provenance = provenance(profile);
    result.spread = spread(profile);
    return result;
}

std::string layerLimitNote(const LayerPrediction& layer, const Ceilings& ceilings) {
    std::string note;
    auto add = [&](const std::string& part) {
        if (!part.empty()) note += (note.empty() ? "" : "; ") + part;
    };
    if (layer.bound == Bound::Compute) {
        const std::string small = smallKernelText(layer.busyFraction, ceilings.kernelSms);
        if (!small.empty())
            add(small +
                (ceilings.kernelTailScale != 1.0 ? " (estimate; its wave tail fitted)" : " (estimate)"));
    }
    if (layer.floorBound)
        add("kernel floor: " + general(ceilings.minimumKernel.value * 1e6, 3) + " µs (" +
            provenanceName(ceilings.minimumKernel.provenance) + ")");
    const double factor = ceilings.classEfficiency.factor[static_cast<size_t>(layer.operatorClass)];
    if (factor != 1.0)
        add(std::string(operatorClassName(layer.operatorClass)) + " at " + general(factor, 3) +
            " of the roofs (" +
            (ceilings.classEfficiency.fitted[static_cast<size_t>(layer.operatorClass)] ? "fitted"
                                                                                       : "estimate") +
            ")");
    return note;
}

Provenance weakestProvenance(const Workload& workload, const ModeProfile& profile) {
    return LayerPredictor(workload).provenance(profile);
}

ModelPrediction predict(const Workload& workload, const ModeProfile& profile) {
    return LayerPredictor(workload)(profile);
}

std::vector<ModelPrediction> predictEveryMode(const Workload& workload,
                                              const std::vector<ModeProfile>& profiles) {
    const LayerPredictor predictor(workload);
    std::vector<ModelPrediction> predictions;
    predictions.reserve(profiles.size());
    for (const ModeProfile& profile : profiles)
        predictions.push_back(predictor(profile));
    return predictions;
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
    // Layers grouped by compute class and operator class into contiguous arrays of W, Q and whether the layer
    // has a kernel floor (it dispatches and works); W divided by each kernel's busy fraction once per number
    // of SMs. Per mode a group's time is one vectorised max-and-sum, divided by the class's efficiency.
    constexpr int groupCount = computeClassCount * operatorClassCount;
    std::vector<LayerInputs> groupLayers[groupCount];
    std::vector<double> groupW[groupCount], groupQ[groupCount], groupFloor[groupCount];
    double flopSum[computeClassCount] = {};
    double byteSum = 0.0;
    double dispatchCount = 0.0;
    bool classUsed[computeClassCount] = {};
    bool movesBytes = false;
    for (const LayerCount& layer : workload.layers) {
        const LayerInputs row = layerInputsOf(layer);
        byteSum += row.q;
        movesBytes = movesBytes || row.q > 0;
        if (row.dispatches) dispatchCount += 1.0;
        if (row.w + row.q <= 0) continue;
        const int c = static_cast<int>(row.computeClass);
        if (row.w > 0) classUsed[c] = true;
        flopSum[c] += row.w;
        const int g = c * operatorClassCount + static_cast<int>(row.operatorClass);
        groupW[g].push_back(row.w);
        groupQ[g].push_back(row.q);
        groupFloor[g].push_back(row.dispatches ? row.kernels : 0.0);
        groupLayers[g].push_back(row);
    }
    // W / busy fraction per group, for each number of SMs and tail scale the profiles name
    std::map<std::pair<double, double>, std::vector<Eigen::ArrayXd>> filledW;
    auto filledFor = [&](double sms, double tailScale) -> const std::vector<Eigen::ArrayXd>& {
        auto [at, added] = filledW.try_emplace({sms, tailScale});
        if (added) {
            at->second.resize(groupCount);
            for (int g = 0; g < groupCount; ++g) {
                Eigen::ArrayXd w(static_cast<Eigen::Index>(groupW[g].size()));
                for (size_t i = 0; i < groupW[g].size(); ++i)
                    w(static_cast<Eigen::Index>(i)) =
                        groupW[g][i] /
                        (sms > 0 ? tailScaledBusyFraction(kernelFill(groupLayers[g][i].work, sms), tailScale)
                                 : 1.0);
                at->second[static_cast<size_t>(g)] = std::move(w);
            }
        }
        return at->second;
    };

    std::vector<ModeSummary> result(profiles.size());
    for (size_t m = 0; m < profiles.size(); ++m) {
        const ModeProfile& profile = profiles[m];
        checkProfile(profile, classUsed, movesBytes);
        const Ceilings& c = profile.ceilings;
        const PowerModel& power = profile.power;
        const ClassFactors& factor = c.classEfficiency.factor;
        const double inverseBandwidth = movesBytes ? 1.0 / c.bandwidth.value : 0.0;
        const std::vector<Eigen::ArrayXd>& w = filledFor(c.kernelSms, c.kernelTailScale);
        double seconds = 0.0;
        double joules = power.energyPerByte.value * byteSum;
        for (int g = 0; g < groupCount; ++g) {
            if (groupW[g].empty()) continue;
            const int k = g / operatorClassCount;
            const Eigen::Index n = static_cast<Eigen::Index>(groupW[g].size());
            const Eigen::Map<const Eigen::ArrayXd> q(groupQ[g].data(), n);
            const Eigen::Map<const Eigen::ArrayXd> floor(groupFloor[g].data(), n);
            const double peak = c.peakFlops[static_cast<size_t>(k)].value;
            const double inversePeak = peak > 0 ? 1.0 / peak : 0.0;
            const double inverseFactor = 1.0 / factor[static_cast<size_t>(g % operatorClassCount)];
            seconds += ((w[static_cast<size_t>(g)] * inversePeak).max(q * inverseBandwidth) * inverseFactor)
                           .max(floor * c.minimumKernel.value)
                           .sum();
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
