// SPDX-License-Identifier: GPL-3.0-or-later
// The per-layer fit of a measured profile. For each measured layer L with ONNX nodes n:
//   m_L = sum_n max(a_k(n) R_n, f F_n) + t0 D_L
// R_n: node n's predicted roofline time (kernel floor and dispatch cost excluded), k(n) its operator class;
// F_n: its kernel floor (t_min x its launches); D_L: L's dispatching nodes; a_k: the class's time multiplier;
// f: the floor's; t0: the dispatch cost per dispatching node. The max is linearised at the current
// multipliers (each node's binding term is a column) and the non-negative least squares repeated until no
// node changes side. Each row is divided by m_L, so that every layer's relative error weighs the same and a
// few large layers do not decide every class. A class at its estimate that the rows cannot fit takes the
// fitted classes' geometric mean multiplier (weighted by their measured time), so it keeps its estimate
// relative to them; one fitted by an earlier profile keeps its fit.
#include "core/compare/layer_time_fit.h"

#include "core/common/text_format.h"
#include "core/roofline/least_squares.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

double predictedSeconds(const LayerTimeRow& row, const TermMultipliers& m, double t0) {
    double seconds = row.dispatches * t0;
    for (const LayerTimeNode& n : row.nodes)
        seconds += std::max(m[n.operatorClass] * n.roofline, m[floorTerm] * n.floor);
    return seconds;
}

namespace {

constexpr double minimumTimeShare = 0.01; // of the used layers' measured time, for a class to be fitted
constexpr int minimumLayers = 2;
// The floor is one constant per kernel: each layer that sits on it measures it whole, however little of the
// time it is, so it needs layers, not a share of the time.
constexpr int minimumFloorLayers = 3;
// A class multiplier outside this range is no efficiency but a fused-away class (its time inside another
// class's kernels) or a fit the layers do not pin down: the class keeps its efficiency.
constexpr double minimumMultiplier = 0.05, maximumMultiplier = 20.0;
constexpr int maximumRounds = 12; // linearisations of the max and refits after a drop

bool floorBinds(const LayerTimeNode& n, const TermMultipliers& m) {
    return m[floorTerm] * n.floor > m[n.operatorClass] * n.roofline;
}

// Each term's time in a row with its multiplier 1, the side of each node's max taken at `m`.
TermMultipliers termSeconds(const LayerTimeRow& row, const TermMultipliers& m) {
    TermMultipliers t{};
    for (const LayerTimeNode& n : row.nodes) {
        if (floorBinds(n, m))
            t[floorTerm] += n.floor;
        else
            t[n.operatorClass] += n.roofline;
    }
    return t;
}

// The term that dominates a row's predicted time at `m` (termCount when it has no kernel time).
size_t dominantTerm(const LayerTimeRow& row, const TermMultipliers& m) {
    TermMultipliers t = termSeconds(row, m);
    for (size_t j = 0; j < termCount; ++j)
        t[j] *= m[j];
    const auto top = std::max_element(t.begin(), t.end());
    return *top > 0 ? static_cast<size_t>(top - t.begin()) : termCount;
}

void setRiders(LayerTimeFit& s, const TermEvidence& e) {
    const double reference = referenceMultiplier(s, e);
    for (size_t k = 0; k < operatorClassCount; ++k)
        if (s.rides[k]) s.m[k] = reference;
}

// Solves for the eligible terms' multipliers and t0, relinearising the max until no node changes side; a term
// the fit puts out of range leaves the fit. Returns false when nothing is left to fit.
bool solve(const std::vector<LayerTimeRow>& rows, const TermEvidence& e, bool fitDispatch, LayerTimeFit& s) {
    double previousReference = 1.0;
    for (int round = 0; round < maximumRounds; ++round) {
        setRiders(s, e);
        std::vector<size_t> columns;
        for (size_t j = 0; j < termCount; ++j)
            if (s.eligible[j]) columns.push_back(j);
        const Eigen::Index width = static_cast<Eigen::Index>(columns.size()) + (fitDispatch ? 1 : 0);
        if (width == 0) return false;
        const Eigen::Index n = static_cast<Eigen::Index>(rows.size());
        Eigen::MatrixXd design = Eigen::MatrixXd::Zero(n, width);
        Eigen::VectorXd target(n);
        std::vector<std::vector<bool>> nowSides;
        for (Eigen::Index i = 0; i < n; ++i) {
            const LayerTimeRow& row = rows[static_cast<size_t>(i)];
            std::vector<bool> side;
            for (const LayerTimeNode& node : row.nodes)
                side.push_back(floorBinds(node, s.m));
            nowSides.push_back(side);
            TermMultipliers t = termSeconds(row, s.m);
            // what is not fitted (riding classes included) is fixed at its multiplier
            double fixedSeconds = 0.0;
            for (size_t j = 0; j < termCount; ++j)
                if (!s.eligible[j]) fixedSeconds += s.m[j] * t[j];
            target(i) = 1.0 - fixedSeconds / row.measuredSeconds;
            for (size_t c = 0; c < columns.size(); ++c)
                design(i, static_cast<Eigen::Index>(c)) = t[columns[c]] / row.measuredSeconds;
            if (fitDispatch) design(i, width - 1) = row.dispatches / row.measuredSeconds;
        }
        const Eigen::VectorXd x = nonNegativeLeastSquares(design, target);
        bool dropped = false;
        for (size_t c = 0; c < columns.size(); ++c) {
            const size_t j = columns[c];
            const double a = x(static_cast<Eigen::Index>(c));
            if (a >= minimumMultiplier && a <= maximumMultiplier) {
                s.m[j] = a;
                continue;
            }
            s.eligible[j] = false;
            s.m[j] = 1.0;
            s.notes[j] = "the fit gave it " + general(a, 3) + " x its predicted time (outside " +
                         general(minimumMultiplier, 2) + "-" + general(maximumMultiplier, 2) +
                         "): fused into other layers or not separable";
            dropped = true;
        }
        s.t0 = fitDispatch ? x(width - 1) : s.t0;
        if (dropped) continue;
        const double reference = referenceMultiplier(s, e);
        const bool referenceMoved =
            std::any_of(s.rides.begin(), s.rides.begin() + operatorClassCount, [&](bool r) { return r; }) &&
            std::abs(reference / previousReference - 1.0) > 1e-6;
        previousReference = reference;
        setRiders(s, e);
        // converged when the fitted multipliers leave every node on the side it was fitted on
        std::vector<std::vector<bool>> after;
        for (const LayerTimeRow& row : rows) {
            std::vector<bool> side;
            for (const LayerTimeNode& node : row.nodes)
                side.push_back(floorBinds(node, s.m));
            after.push_back(side);
        }
        if (after == nowSides && !referenceMoved) return true;
    }
    return true; // the last round's fit: the sides still flip between two near-equal terms
}

// The least-squares objective: the sum of the squared relative errors.
double squaredErrors(const std::vector<LayerTimeRow>& rows, const TermMultipliers& m, double t0) {
    double sum = 0.0;
    for (const LayerTimeRow& row : rows)
        sum += std::pow(predictedSeconds(row, m, t0) / row.measuredSeconds - 1.0, 2);
    return sum;
}

// The terms the evidence can fit, the classes that ride with them, and why the others are not fitted.
LayerTimeFit initialState(const TermEvidence& e, const RuntimeProfile& runtime, double minimumKernel,
                          double t0) {
    LayerTimeFit state;
    state.t0 = t0;
    for (size_t j = 0; j < termCount; ++j) {
        const bool floor = j == floorTerm;
        state.eligible[j] =
            floor ? e.layers[j] >= minimumFloorLayers && minimumKernel > 0
                  : e.layers[j] >= minimumLayers && e.seconds[j] >= minimumTimeShare * e.usedSeconds;
        if (!state.eligible[j]) {
            const double share = e.usedSeconds > 0 ? 100 * e.seconds[j] / e.usedSeconds : 0.0;
            const std::string evidence =
                std::to_string(e.layers[j]) + " layer" + (e.layers[j] == 1 ? "" : "s") + ", " +
                fixed(e.seconds[j] * 1e3, 3) + " ms" +
                (floor ? " (needs " + std::to_string(minimumFloorLayers) + " layers)"
                       : ", " + general(share, 3) + " % of the time (needs " + std::to_string(minimumLayers) +
                             " layers and 1 % of the time)");
            state.notes[j] = e.layers[j] == 0
                                 ? std::string(floor ? "no layer is floor-bound" : "not in the profile")
                                 : "too little evidence: " + evidence;
        }
        // a class at its estimate moves with the fitted ones; one fitted by an earlier profile keeps its fit
        if (!floor && !state.eligible[j]) state.rides[j] = !(runtime.calibrated && runtime.classFitted[j]);
    }
    return state;
}

} // namespace

double meanRelativeErrorPct(const std::vector<LayerTimeRow>& rows, const TermMultipliers& m, double t0) {
    double sum = 0.0;
    for (const LayerTimeRow& row : rows)
        sum += std::abs(predictedSeconds(row, m, t0) / row.measuredSeconds - 1.0);
    return rows.empty() ? 0.0 : 100.0 * sum / static_cast<double>(rows.size());
}

TermMultipliers unitMultipliers() {
    TermMultipliers m;
    m.fill(1.0);
    return m;
}

// The fitted classes' geometric mean multiplier, weighted by the measured time each dominates (1 when none).
double referenceMultiplier(const LayerTimeFit& s, const TermEvidence& e) {
    double logSum = 0.0, weight = 0.0;
    for (size_t k = 0; k < operatorClassCount; ++k)
        if (s.eligible[k]) {
            logSum += e.seconds[k] * std::log(s.m[k]);
            weight += e.seconds[k];
        }
    return weight > 0 ? std::exp(logSum / weight) : 1.0;
}

TermEvidence termEvidence(const std::vector<LayerTimeRow>& rows) {
    TermEvidence e;
    const TermMultipliers unit = unitMultipliers();
    for (const LayerTimeRow& row : rows) {
        e.usedSeconds += row.measuredSeconds;
        const size_t top = dominantTerm(row, unit);
        if (top == termCount) continue;
        e.layers[top] += 1;
        e.seconds[top] += row.measuredSeconds;
    }
    return e;
}

LayerTimeFit fitLayerTimes(const std::vector<LayerTimeRow>& rows, const TermEvidence& evidence,
                           const RuntimeProfile& runtime, double minimumKernel, double t0, bool fitDispatch) {
    LayerTimeFit fit = initialState(evidence, runtime, minimumKernel, t0);
    fit.solved = solve(rows, evidence, fitDispatch, fit);
    fit.objective = squaredErrors(rows, fit.m, fit.t0);
    return fit;
}

} // namespace rooftop
