// SPDX-License-Identifier: GPL-3.0-or-later
// Per-class efficiencies from a measured layer profile. For each measured layer L with ONNX nodes:
//   m_L = sum_k a_k R_Lk + t0 D_L
// R_Lk: the predicted roofline time (dispatch cost excluded) of L's nodes of operator class k; D_L: L's
// dispatching nodes; a_k: the class's time multiplier (its new efficiency is the old one / a_k); t0: the
// dispatch cost per dispatching node at the profile's CPU clock. Each row is divided by m_L, so that every
// layer's relative error weighs the same and a few large layers do not decide every class.
#include "core/compare/class_calibration.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/compare/node_mapping.h"
#include "core/roofline/layer_operator_class.h"
#include "core/roofline/least_squares.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace rooftop {

namespace {

constexpr double minimumTimeShare = 0.01; // of the used layers' measured time, for a class to be fitted
constexpr int minimumLayers = 2;
// A class multiplier outside this range is no efficiency but a fused-away class (its time inside another
// class's kernels) or a fit the layers do not pin down: the class keeps its efficiency.
constexpr double minimumMultiplier = 0.05, maximumMultiplier = 20.0;
constexpr double minimumDispatchSeconds = 1e-9; // below: the fit put t0 on its bound, nothing was separated

struct Row {
    double measuredSeconds = 0.0;
    std::array<double, operatorClassCount> roofline{}; ///< R_Lk, seconds
    double dispatches = 0.0;                           ///< D_L
};

double predictedSeconds(const Row& row, const std::array<double, operatorClassCount>& multiplier, double t0) {
    double seconds = row.dispatches * t0;
    for (int k = 0; k < operatorClassCount; ++k)
        seconds += multiplier[static_cast<size_t>(k)] * row.roofline[static_cast<size_t>(k)];
    return seconds;
}

double meanRelativeErrorPct(const std::vector<Row>& rows,
                            const std::array<double, operatorClassCount>& multiplier, double t0) {
    double sum = 0.0;
    for (const Row& row : rows)
        sum += std::abs(predictedSeconds(row, multiplier, t0) / row.measuredSeconds - 1.0);
    return rows.empty() ? 0.0 : 100.0 * sum / static_cast<double>(rows.size());
}

std::vector<Row> usableRows(const ClassCalibrationInput& input, double& overheadMs, double& unmappedMs) {
    const NodeIndex index(*input.workload);
    std::vector<Row> rows;
    for (const ComparedLayer& layer : input.comparison->layers) {
        if (layer.kind == MappingKind::Overhead) {
            overheadMs += layer.measuredMs;
            continue;
        }
        if (layer.kind == MappingKind::Unmapped) {
            unmappedMs += layer.measuredMs;
            continue;
        }
        if (!(layer.measuredMs > 0)) continue;
        Row row;
        row.measuredSeconds = layer.measuredMs * 1e-3;
        for (const std::string& name : layer.nodes) {
            const int i = index.find(name);
            if (i < 0) continue;
            const LayerPrediction& p = input.prediction->layers[static_cast<size_t>(i)];
            row.roofline[static_cast<size_t>(operatorClassOf(
                input.workload->layers[static_cast<size_t>(i)]))] += p.seconds - p.dispatchSeconds;
            if (p.dispatches) row.dispatches += 1.0;
        }
        const double roofline = std::accumulate(row.roofline.begin(), row.roofline.end(), 0.0);
        if (roofline > 0 || row.dispatches > 0) rows.push_back(row);
    }
    return rows;
}

// Solves for the multipliers of the eligible classes and t0; a class the fit gives no time leaves the fit.
// Returns false when nothing is left to fit.
bool solve(const std::vector<Row>& rows, std::array<bool, operatorClassCount>& eligible, bool fitDispatch,
           std::array<double, operatorClassCount>& multiplier, double& t0, std::vector<ClassFit>& classes) {
    for (int round = 0; round <= operatorClassCount; ++round) {
        std::vector<int> columns;
        for (int k = 0; k < operatorClassCount; ++k)
            if (eligible[static_cast<size_t>(k)]) columns.push_back(k);
        const Eigen::Index width = static_cast<Eigen::Index>(columns.size()) + (fitDispatch ? 1 : 0);
        if (width == 0) return false;
        const Eigen::Index n = static_cast<Eigen::Index>(rows.size());
        Eigen::MatrixXd design(n, width);
        Eigen::VectorXd target(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const Row& row = rows[static_cast<size_t>(i)];
            double fixed = 0.0; // the classes kept at their multiplier 1
            for (int k = 0; k < operatorClassCount; ++k)
                if (!eligible[static_cast<size_t>(k)]) fixed += row.roofline[static_cast<size_t>(k)];
            target(i) = 1.0 - fixed / row.measuredSeconds;
            for (size_t c = 0; c < columns.size(); ++c)
                design(i, static_cast<Eigen::Index>(c)) =
                    row.roofline[static_cast<size_t>(columns[c])] / row.measuredSeconds;
            if (fitDispatch) design(i, width - 1) = row.dispatches / row.measuredSeconds;
        }
        const Eigen::VectorXd x = nonNegativeLeastSquares(design, target);
        bool dropped = false;
        for (size_t c = 0; c < columns.size(); ++c) {
            const size_t k = static_cast<size_t>(columns[c]);
            const double a = x(static_cast<Eigen::Index>(c));
            if (a >= minimumMultiplier && a <= maximumMultiplier) {
                multiplier[k] = a;
                continue;
            }
            eligible[k] = false;
            multiplier[k] = 1.0;
            classes[k].note = "the fit gave it " + general(a, 3) + " x its predicted time (outside " +
                              general(minimumMultiplier, 2) + "-" + general(maximumMultiplier, 2) +
                              "): fused into other layers or not separable";
            dropped = true;
        }
        t0 = fitDispatch ? x(width - 1) : t0;
        if (!dropped) return true;
    }
    return false;
}

} // namespace

ClassCalibration calibrateClasses(const ClassCalibrationInput& input) {
    if (!input.comparison || !input.workload || !input.prediction)
        throw std::invalid_argument("calibrateClasses: comparison, workload and prediction are required");
    if (input.prediction->layers.size() != input.workload->layers.size())
        throw std::invalid_argument("calibrateClasses: the prediction is of another workload");
    ClassCalibration result;
    double overheadMs = 0.0, unmappedMs = 0.0;
    const std::vector<Row> rows = usableRows(input, overheadMs, unmappedMs);
    if (rows.empty())
        throw InputError(input.comparison->file +
                         ": no measured layer with ONNX nodes and a positive time to "
                         "calibrate from");
    result.layersUsed = static_cast<int>(rows.size());

    double usedSeconds = 0.0;
    result.classes.resize(operatorClassCount);
    for (int k = 0; k < operatorClassCount; ++k) {
        ClassFit& fit = result.classes[static_cast<size_t>(k)];
        fit.operatorClass = static_cast<OperatorClass>(k);
        fit.before = fit.after = input.runtime.classEfficiency[static_cast<size_t>(k)];
    }
    for (const Row& row : rows) {
        usedSeconds += row.measuredSeconds;
        const auto dominant = std::max_element(row.roofline.begin(), row.roofline.end());
        if (*dominant <= 0) continue;
        ClassFit& fit = result.classes[static_cast<size_t>(dominant - row.roofline.begin())];
        fit.layers += 1;
        fit.measuredMs += row.measuredSeconds * 1e3;
    }
    std::array<bool, operatorClassCount> eligible{};
    for (ClassFit& fit : result.classes) {
        const size_t k = static_cast<size_t>(fit.operatorClass);
        eligible[k] = fit.layers >= minimumLayers && fit.measuredMs >= minimumTimeShare * usedSeconds * 1e3;
        if (!eligible[k])
            fit.note = fit.layers == 0
                           ? "not in the profile"
                           : "too little evidence: " + std::to_string(fit.layers) + " layer" +
                                 (fit.layers == 1 ? "" : "s") + ", " + fixed(fit.measuredMs, 3) +
                                 " ms (needs " + std::to_string(minimumLayers) + " and 1 % of the time)";
    }

    const double t0Before = input.prediction->profile.ceilings.dispatchOverhead.value;
    const bool fitDispatch =
        std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.dispatches > 0; });
    std::array<double, operatorClassCount> unit;
    unit.fill(1.0);
    result.layerErrorBeforePct = meanRelativeErrorPct(rows, unit, t0Before);
    std::array<double, operatorClassCount> multiplier = unit;
    double t0 = t0Before;
    if (!solve(rows, eligible, fitDispatch, multiplier, t0, result.classes))
        throw InputError(input.comparison->file +
                         ": the profile separates no operator class nor the dispatch cost");
    result.layerErrorAfterPct = meanRelativeErrorPct(rows, multiplier, t0);

    RuntimeProfile& runtime = result.runtime;
    runtime = input.runtime;
    if (!runtime.calibrated) runtime.name = input.runtime.name + "-calibrated";
    runtime.calibrated = true;
    for (ClassFit& fit : result.classes) {
        const size_t k = static_cast<size_t>(fit.operatorClass);
        if (!eligible[k]) continue;
        fit.after = std::clamp(fit.before / multiplier[k], 1e-4, 1e3);
        fit.fitted = true;
        runtime.classEfficiency[k] = fit.after;
        runtime.classFitted[k] = true;
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
        result.layerErrorAfterPct = meanRelativeErrorPct(rows, multiplier, t0);
    }
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
    const bool anyClassFitted = std::any_of(result.classes.begin(), result.classes.end(),
                                            [](const ClassFit& fit) { return fit.fitted; });
    if (anyClassFitted) // classes kept from an earlier file keep their own basis in front
        runtime.classBasis =
            (input.runtime.classBasis.empty() ? std::string() : input.runtime.classBasis + "; then ") +
            "fitted by rooftop compare --calibrate-classes to " + std::to_string(rows.size()) +
            " measured layers of " + input.basis;
    runtime.basis =
        input.runtime.basis + " | rooftop compare --calibrate-classes on " + input.basis + ": dispatch " +
        fixed(t0 * 1e6, 3) + " us per dispatching node at the profile's CPU clock (" +
        (result.dispatchFitted ? "fitted" : "kept") + "), fixed cost " + fixed(result.fixedMs * 1e3, 3) +
        " us per inference (" + (result.fixedFitted ? "fitted" : "kept") + ")";
    return result;
}

} // namespace rooftop
