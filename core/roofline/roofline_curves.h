// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/ceilings.h"
#include "core/roofline/prediction.h"

#include <vector>

namespace rooftop {

// The lines a roofline plot draws for one mode and compute class, as functions of the intensity I = W/Q
// (FLOP/B). They describe sustained throughput: the per-layer dispatch overhead t0 is not part of them (it is
// part of every layer's point, see layerPoint). shared/reference/papers.md section 0 has the algebra.

/// Time roofline P(I) = min(peak, I x BW), FLOP/s; 0 for I <= 0.
double attainableFlops(double intensity, double peak, double bandwidth);

/// Time roofline of a mode's compute class.
double attainableFlops(const Ceilings& ceilings, ComputeClass computeClass, double intensity);

/// Time balance point B_tau = peak / BW (FLOP/B) of a compute class.
double timeBalance(const Ceilings& ceilings, ComputeClass computeClass);

/// Energy per FLOP on a compute class: eps_flop, times tensorFlopEnergyRatio on tensor cores (and
/// tensorOpEnergyScale: 1/2 on FP8, 1/4 on FP4).
double classEnergyPerFlop(const PowerModel& power, ComputeClass computeClass);

/// Energy balance point B_eps = eps_byte / eps_flop,class (FLOP/B); 0 without a FLOP energy.
double energyBalance(const PowerModel& power, ComputeClass computeClass);

/// Energy roofline, Choi's "arch line": W/E = 1 / (eps_flop + eps_byte / I + pi0 max(1/peak, 1/(I BW))),
/// FLOP/J; 0 for I <= 0.
double energyEfficiency(const ModeProfile& profile, ComputeClass computeClass, double intensity);

/// Power line P(I) = E/T = pi0 + (eps_flop + eps_byte / I) / max(1/peak, 1/(I BW)), watts; at I <= 0 the
/// limit pi0 + eps_byte BW, maximal at I = B_tau.
double averagePower(const ModeProfile& profile, ComputeClass computeClass, double intensity);

/// Which line to sample.
enum class RooflineCurve {
    Attainable,       ///< the time roofline, FLOP/s (attainableFlops)
    EnergyEfficiency, ///< the energy roofline, FLOP/J (energyEfficiency)
    AveragePower      ///< the power line, watts (averagePower)
};

/// One sample of a line.
struct CurvePoint {
    double intensity = 0.0; ///< I = W/Q, FLOP/B
    double value = 0.0;     ///< the line at I, in its unit (FLOP/s, FLOP/J or W)
};

/// `count` intensities spaced evenly on a log axis from `low` to `high` (both > 0), both ends included.
std::vector<double> logSpacedIntensities(double low, double high, int count);

/// A line sampled at log-spaced intensities; the time roofline also gets its knee (B_tau) as an exact point.
std::vector<CurvePoint> sampleCurve(const ModeProfile& profile, ComputeClass computeClass,
                                    RooflineCurve curve, double low, double high, int count);

/// Where one predicted layer sits on the plots: its intensity, achieved FLOP/s (W/T, t0 included), FLOP/J
/// (W/E) and average power (E/T).
struct LayerPoint {
    double intensity = 0.0;      ///< W/Q, FLOP/B
    double flopsPerSecond = 0.0; ///< W/T, t0 included
    double flopsPerJoule = 0.0;  ///< W/E
    double watts = 0.0;          ///< E/T
};

/// A layer's point from its counts and its prediction.
LayerPoint layerPoint(const LayerCount& layer, const LayerPrediction& prediction);

} // namespace rooftop
