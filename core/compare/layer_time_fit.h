// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/operator_class.h"
#include "core/device/runtime_profile.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace rooftop {

/// One node of a measured layer, as the fit sees it.
struct LayerTimeNode {
    size_t operatorClass = 0; ///< its OperatorClass
    double roofline = 0.0;    ///< R_n: its predicted roofline time (floor and dispatch left out), seconds
    double floor = 0.0;       ///< F_n: its kernel floor (t_min x its launches), seconds
};

/// One measured layer that maps to ONNX nodes.
struct LayerTimeRow {
    double measuredSeconds = 0.0;     ///< its measured time per inference, seconds
    std::vector<LayerTimeNode> nodes; ///< the ONNX nodes it covers that have predicted time
    double dispatches = 0.0;          ///< D_L: its nodes that dispatch a kernel
};

/// Index of the floor's term: the fit's terms are one multiplier per operator class, then the floor's.
constexpr size_t floorTerm = operatorClassCount;
/// Number of fit terms: one per operator class, plus the floor.
constexpr size_t termCount = operatorClassCount + 1;
/// One multiplier per fit term (operator classes, then the floor at floorTerm).
using TermMultipliers = std::array<double, termCount>;

/// Every multiplier 1: the prediction the rows were made with.
TermMultipliers unitMultipliers();

/// What the rows show of each term: the layers and the measured time it dominates at multipliers 1.
struct TermEvidence {
    std::array<int, termCount> layers{};     ///< per term: rows it dominates
    std::array<double, termCount> seconds{}; ///< per term: those rows' measured time, seconds
    double usedSeconds = 0.0;                ///< all rows' measured time
};

/// The evidence of the rows.
TermEvidence termEvidence(const std::vector<LayerTimeRow>& rows);

/// The multipliers and dispatch cost fitted to the rows, with what was fitted and why not.
struct LayerTimeFit {
    std::array<bool, termCount> eligible{}; ///< fitted as a column of its own
    std::array<bool, termCount> rides{};    ///< a class at its estimate: the fitted classes' mean multiplier
    /// The fitted multiplier of each term's time (1: unchanged).
    TermMultipliers m = unitMultipliers();
    double t0 = 0.0;                          ///< dispatch cost per dispatching node, seconds
    std::array<std::string, termCount> notes; ///< why a term was not fitted
    bool solved = false;                      ///< false: nothing was left to fit
    double objective = 0.0;                   ///< the sum of the squared relative errors
};

/// Fits the classes that dominate two layers and 1 % of the time, the floor where it dominates three layers
/// (when `minimumKernel` > 0) and the dispatch cost (when `fitDispatch`), starting from `t0`; classes at
/// their estimate in `runtime` ride with the fitted ones, classes it fitted earlier keep their multiplier 1.
LayerTimeFit fitLayerTimes(const std::vector<LayerTimeRow>& rows, const TermEvidence& evidence,
                           const RuntimeProfile& runtime, double minimumKernel, double t0, bool fitDispatch);

/// The fitted classes' geometric mean multiplier, weighted by the measured time each dominates in the
/// evidence (1 when none).
double referenceMultiplier(const LayerTimeFit& fit, const TermEvidence& evidence);

/// The mean |relative error| of the rows under the multipliers and dispatch cost, in percent.
double meanRelativeErrorPct(const std::vector<LayerTimeRow>& rows, const TermMultipliers& m, double t0);

/// The rows' predicted time of one layer under the multipliers and dispatch cost.
double predictedSeconds(const LayerTimeRow& row, const TermMultipliers& m, double t0);

} // namespace rooftop
