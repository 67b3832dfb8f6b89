// SPDX-License-Identifier: GPL-3.0-or-later
// Per-class efficiencies, the kernel floor, the wave-tail penalty and the dispatch cost from a measured layer
// profile: the measured layers as rows of the per-layer fit (core/compare/layer_time_fit.h), the wave tail's
// scale the best of a grid of such fits, and the fitted multipliers written into a runtime (a class's new
// efficiency is the old one / its multiplier).
#include "core/compare/class_calibration.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/compare/layer_time_fit.h"
#include "core/compare/node_mapping.h"
#include "core/roofline/layer_operator_class.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace rooftop {

namespace {

// The wave-tail penalty's scale (kernel_size.h, tailScaledBusyFraction) is tried on a grid (the max and the
// waves make it no linear term) where as many layers pay it 10 % or more, and kept only when it fits 2 %
// better.
constexpr int minimumTailLayers = 3;
constexpr double tailScaleGrid[] = {0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0};
constexpr double minimumTailGain = 0.02;
constexpr double minimumDispatchSeconds = 1e-9; // below: the fit put t0 on its bound, nothing was separated

// The measured layers as rows of the fit, their roofline terms at the wave-tail penalty's scale `tailScale`.
std::vector<LayerTimeRow> usableRows(const ClassCalibrationInput& input, double tailScale) {
    const NodeIndex index(*input.workload);
    // the roofline terms alone: the prediction again without the floor
    ModeProfile bare = input.prediction->profile;
    const double minimumKernel = bare.ceilings.minimumKernel.value;
    bare.ceilings.minimumKernel.value = 0.0;
    bare.ceilings.kernelTailScale = tailScale;
    const ModelPrediction roofline = predict(*input.workload, bare);
    std::vector<LayerTimeRow> rows;
    for (const ComparedLayer& layer : input.comparison->layers) {
        if (layer.kind != MappingKind::Nodes || !(layer.measuredMs > 0)) continue;
        LayerTimeRow row;
        row.measuredSeconds = layer.measuredMs * 1e-3;
        double work = 0.0;
        for (const std::string& name : layer.nodes) {
            const int i = index.find(name);
            if (i < 0) continue;
            const size_t at = static_cast<size_t>(i);
            const LayerPrediction& p = roofline.layers[at];
            const LayerCount& count = input.workload->layers[at];
            LayerTimeNode node;
            node.operatorClass = static_cast<size_t>(operatorClassOf(count));
            node.roofline = p.seconds - p.dispatchSeconds;
            node.floor = minimumKernel * kernelLaunches(count);
            work += node.roofline + node.floor;
            if (node.roofline + node.floor > 0) row.nodes.push_back(node);
            if (p.dispatches) row.dispatches += 1.0;
        }
        if (work > 0 || row.dispatches > 0) rows.push_back(row);
    }
    return rows;
}

// The measured time of the profile's layers of one kind (overhead layers, layers on no node).
double measuredMsOf(const Comparison& comparison, MappingKind kind) {
    double ms = 0.0;
    for (const ComparedLayer& layer : comparison.layers)
        if (layer.kind == kind) ms += layer.measuredMs;
    return ms;
}

// One fit of the rows at one scale of the wave-tail penalty.
struct Attempt {
    double tailScale = 1.0;
    std::vector<LayerTimeRow> rows;
    TermEvidence evidence;
    LayerTimeFit state;
};

// Layers whose predicted roofline time the wave-tail penalty adds at least 10 % to.
int tailBoundLayers(const std::vector<LayerTimeRow>& withPenalty, const std::vector<LayerTimeRow>& without) {
    int count = 0;
    for (size_t i = 0; i < withPenalty.size() && i < without.size(); ++i) {
        double a = 0.0, b = 0.0;
        for (const LayerTimeNode& n : withPenalty[i].nodes)
            a += n.roofline;
        for (const LayerTimeNode& n : without[i].nodes)
            b += n.roofline;
        if (a > 0 && a - b >= 0.1 * a) ++count;
    }
    return count;
}

} // namespace

ClassCalibration calibrateClasses(const ClassCalibrationInput& input) {
    if (!input.comparison || !input.workload || !input.prediction)
        throw std::invalid_argument("calibrateClasses: comparison, workload and prediction are required");
    if (input.prediction->layers.size() != input.workload->layers.size())
        throw std::invalid_argument("calibrateClasses: the prediction is of another workload");
    ClassCalibration result;
    const double overheadMs = measuredMsOf(*input.comparison, MappingKind::Overhead);
    const double unmappedMs = measuredMsOf(*input.comparison, MappingKind::Unmapped);
    const Ceilings& ceilings = input.prediction->profile.ceilings;
    const double tailBefore = ceilings.kernelTailScale;
    const std::vector<LayerTimeRow> firstRows = usableRows(input, tailBefore);
    if (firstRows.empty())
        throw InputError(input.comparison->file +
                         ": no measured layer with ONNX nodes and a positive time to "
                         "calibrate from");
    result.layersUsed = static_cast<int>(firstRows.size());
    result.classes.resize(operatorClassCount);
    for (int k = 0; k < operatorClassCount; ++k) {
        ClassFit& fit = result.classes[static_cast<size_t>(k)];
        fit.operatorClass = static_cast<OperatorClass>(k);
        fit.before = fit.after = input.runtime.classEfficiency[static_cast<size_t>(k)];
    }
    const double minimumKernel = ceilings.minimumKernel.value;
    const double t0Before = ceilings.dispatchOverhead.value;
    const bool fitDispatch = std::any_of(firstRows.begin(), firstRows.end(),
                                         [](const LayerTimeRow& r) { return r.dispatches > 0; });
    auto attempt = [&](double tailScale, std::vector<LayerTimeRow> rows) {
        Attempt a;
        a.tailScale = tailScale;
        a.rows = std::move(rows);
        a.evidence = termEvidence(a.rows);
        a.state = fitLayerTimes(a.rows, a.evidence, input.runtime, minimumKernel, t0Before, fitDispatch);
        return a;
    };
    result.layerErrorBeforePct = meanRelativeErrorPct(firstRows, unitMultipliers(), t0Before);
    Attempt best = attempt(tailBefore, firstRows);
    if (!best.state.solved)
        throw InputError(input.comparison->file +
                         ": the profile separates no operator class nor the dispatch cost");
    // the wave-tail penalty's scale: the best of a grid, where enough layers pay it to tell
    TailFit& tail = result.tail;
    tail.before = tail.after = tailBefore;
    tail.layers = ceilings.kernelSms > 0 ? tailBoundLayers(firstRows, usableRows(input, 0.0)) : 0;
    if (ceilings.kernelSms <= 0) {
        tail.note = "the runtime models no kernel sizes (kernel_size_model false)";
    } else if (tail.layers < minimumTailLayers) {
        tail.note = "too little evidence: " + std::to_string(tail.layers) + " layer" +
                    (tail.layers == 1 ? "" : "s") + " pay 10 % or more for a partial last wave (needs " +
                    std::to_string(minimumTailLayers) + ")";
    } else {
        const double before = best.state.objective;
        for (double g : tailScaleGrid) {
            if (g == tailBefore) continue;
            Attempt a = attempt(g, usableRows(input, g));
            if (a.state.solved && a.state.objective < best.state.objective) best = std::move(a);
        }
        if (best.tailScale != tailBefore && best.state.objective < (1.0 - minimumTailGain) * before) {
            tail.after = best.tailScale;
            tail.fitted = true;
            if (tail.after == std::end(tailScaleGrid)[-1])
                result.notes.push_back(
                    "the wave tail fitted at the grid's largest scale (" + general(tail.after, 3) +
                    "): the layers slow down more than partial waves explain; was the profile "
                    "measured in the mode given?");
        } else {
            if (best.tailScale != tailBefore) best = attempt(tailBefore, firstRows);
            tail.note = "no scale of the grid fits the layers 2 % better than " + general(tailBefore, 3);
        }
    }
    const std::vector<LayerTimeRow>& rows = best.rows;
    const LayerTimeFit& state = best.state;
    const std::array<int, termCount>& layers = best.evidence.layers;
    const std::array<double, termCount>& measuredSeconds = best.evidence.seconds;
    for (size_t k = 0; k < operatorClassCount; ++k) {
        result.classes[k].layers = layers[k];
        result.classes[k].measuredMs = measuredSeconds[k] * 1e3;
    }
    double t0 = state.t0;
    const TermMultipliers& multiplier = state.m;

    RuntimeProfile& runtime = result.runtime;
    runtime = input.runtime;
    if (!runtime.calibrated) runtime.name = input.runtime.name + "-calibrated";
    runtime.calibrated = true;
    const bool anyClassFitted = std::any_of(
        state.eligible.begin(), state.eligible.begin() + operatorClassCount, [](bool e) { return e; });
    const double reference = referenceMultiplier(state, best.evidence);
    for (ClassFit& fit : result.classes) {
        const size_t k = static_cast<size_t>(fit.operatorClass);
        fit.note = state.notes[k];
        if (state.eligible[k]) {
            fit.after = std::clamp(fit.before / multiplier[k], 1e-4, 1e3);
            fit.fitted = true;
            runtime.classEfficiency[k] = fit.after;
            runtime.classFitted[k] = true;
        } else if (state.rides[k] && anyClassFitted && multiplier[k] != 1.0) {
            fit.after = std::clamp(fit.before / multiplier[k], 1e-4, 1e3);
            fit.relative = true;
            fit.note += "; its estimate kept relative to the fitted classes";
            runtime.classEfficiency[k] = fit.after;
        }
    }
    FloorFit& floor = result.floor;
    floor.layers = layers[floorTerm];
    floor.measuredMs = measuredSeconds[floorTerm] * 1e3;
    floor.beforeUs = floor.afterUs = minimumKernel * 1e6;
    floor.fitted = state.eligible[floorTerm];
    floor.note = minimumKernel > 0 ? state.notes[floorTerm]
                                   : "the runtime models no kernel floor (kernel_size_model false)";
    if (tail.fitted) runtime.kernelTailScale = tail.after;
    if (floor.fitted) {
        floor.afterUs = floor.beforeUs * multiplier[floorTerm];
        runtime.kernelFloorScale =
            std::clamp(input.runtime.kernelFloorScale * multiplier[floorTerm], 1e-3, 1e3);
    }
    // CPU-clock law of the dispatch and fixed costs (runtime_profile.h): at the top clock they are x cpu /
    // max.
    const double toTopClock = input.cpuKhz > 0 && input.maxCpuKhz > 0 ? input.cpuKhz / input.maxCpuKhz : 1.0;
    result.dispatchBeforeUs = t0Before * 1e6;
    result.dispatchFitted = fitDispatch && t0 >= minimumDispatchSeconds;
    if (result.dispatchFitted) {
        runtime.dispatchSecondsAtMaxCpu = t0 * toTopClock;
        runtime.dispatchFitted = true;
    } else {
        if (fitDispatch) result.notes.push_back("the fit put the dispatch cost at 0: kept at the runtime's");
        t0 = t0Before;
    }
    result.layerErrorAfterPct = meanRelativeErrorPct(rows, multiplier, t0);
    result.dispatchAfterUs = t0 * 1e6;
    result.fixedMs = overheadMs;
    const bool fixedSeen = overheadMs > 0 || input.inferenceMs.has_value();
    if (input.inferenceMs) {
        const double gap = *input.inferenceMs - input.comparison->measuredTotalMs;
        if (gap >= 0)
            result.fixedMs += gap;
        else
            result.notes.push_back(
                "the layers add up to " + fixed(input.comparison->measuredTotalMs, 4) +
                " ms, more than the " + fixed(*input.inferenceMs, 4) +
                " ms per inference of --trtexec-times (per-layer profiling slows the engine): "
                "no gap added to the fixed cost");
    }
    result.fixedFitted = fixedSeen;
    if (fixedSeen) {
        runtime.inferenceSecondsAtMaxCpu = result.fixedMs * 1e-3 * toTopClock;
        runtime.inferenceFitted = true;
    } else { // no overhead layer and no --trtexec-times: the profile says nothing of the fixed cost
        result.fixedMs = input.runtime.inferenceSecondsAtMaxCpu * 1e3 / toTopClock;
        result.notes.push_back(
            "no overhead layers and no --trtexec-times: the fixed cost per inference is kept");
    }
    if (overheadMs > 0)
        result.notes.push_back(fixed(overheadMs, 4) +
                               " ms of overhead layers (reformats, inserted copies) are "
                               "the fixed cost per inference");
    if (unmappedMs > 0)
        result.notes.push_back(fixed(unmappedMs, 4) +
                               " ms of layers on no ONNX node were left out of the fit");
    std::string relative;
    for (const ClassFit& fit : result.classes)
        if (fit.relative)
            relative += (relative.empty() ? "" : ", ") + std::string(operatorClassName(fit.operatorClass));
    if (!relative.empty())
        runtime.classEstimateBasis =
            (input.runtime.classEstimateBasis.empty() ? std::string("1") : input.runtime.classEstimateBasis) +
            "; then x " + general(1.0 / reference, 4) +
            " with the fitted classes (their time-weighted geometric mean) by rooftop compare "
            "--calibrate-classes on " +
            input.basis;
    if (anyClassFitted) // classes kept from an earlier file keep their own basis in front
        runtime.classBasis =
            (input.runtime.classBasis.empty() ? std::string() : input.runtime.classBasis + "; then ") +
            "fitted by rooftop compare --calibrate-classes to " + std::to_string(rows.size()) +
            " measured layers of " + input.basis +
            (relative.empty() ? std::string()
                              : " (" + relative + " at their estimate relative to the fitted classes)");
    runtime.basis =
        input.runtime.basis + " | rooftop compare --calibrate-classes on " + input.basis + ": dispatch " +
        fixed(t0 * 1e6, 3) + " µs per dispatching node at the profile's CPU clock (" +
        (result.dispatchFitted ? "fitted" : "kept") + "), fixed cost " + fixed(result.fixedMs * 1e3, 3) +
        " µs per inference (" + (result.fixedFitted ? "fitted" : "kept") + ")" +
        (floor.fitted ? ", kernel floor " + general(floor.beforeUs, 3) + " -> " + general(floor.afterUs, 3) +
                            " µs (fitted to " + std::to_string(floor.layers) + " floor-bound layers)"
                      : std::string()) +
        (tail.fitted ? ", wave-tail penalty x " + general(tail.after, 3) + " (fitted to " +
                           std::to_string(tail.layers) + " layers that pay it)"
                     : std::string());
    return result;
}

} // namespace rooftop
