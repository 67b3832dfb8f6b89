// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/ceilings.h"
#include "core/device/operator_class.h"

#include <array>
#include <string>

namespace rooftop {

/// How far a prediction may be off: per quantity, the standard deviation of log(true / predicted)
/// (0: no known error, as for a measurement).
struct PredictionSpread {
    double latency = 0.0; ///< sd of log(true / predicted) latency
    double power = 0.0;   ///< sd of log(true / predicted) average power
    double energy = 0.0;  ///< sd of log(true / predicted) energy
};

/// Each quantity's spread plus `by`'s (a widening: log spreads beyond the runs add).
PredictionSpread operator+(const PredictionSpread& spread, const PredictionSpread& by);

/// A predicted value's bounds at a confidence P: value <= high and value >= low each hold with probability P.
struct Interval {
    double low = 0.0;  ///< value >= low with probability P
    double high = 0.0; ///< value <= high with probability P
};

/// The standard normal quantile: z with Phi(z) = p, for p in (0, 1).
double normalQuantile(double p);

/// [value exp(-z s), value exp(z s)] with z = normalQuantile(confidence): the one-sided bounds at
/// `confidence` of a log-normal error of spread s (a confidence of 0.5 gives [value, value]).
Interval intervalAt(double value, double spread, double confidence);

/// value exp(z s): the upper bound at `confidence`.
double upperBound(double value, double spread, double confidence);

/// The error of Rooftop's roofline prior (no predictor, no run) as a spread: its RMS log error over the AGX
/// Orin grid on the other-physics board (docs/learn.md, "The prior's own error").
PredictionSpread priorSpread();

/// What priorSpread rests on, in words.
std::string priorSpreadBasis();

/// The prior's error on an LLM's decode steps (no predictor, no calibration): its RMS log error over the grid
/// on the other-physics board for four decoders' steps, wider than priorSpread's CNNs (host time per step,
/// and weights read once per token at an efficiency the prior guesses).
PredictionSpread priorDecodeSpread();

/// What priorDecodeSpread rests on, in words.
std::string priorDecodeSpreadBasis();

/// The spread of a roofline prediction by what its runtime was checked on: each operator class's share of the
/// time at the calibration's own spread (ClassEfficiencies::checkedSpread, widened by 10 % per doubling of
/// the batch beyond the batches it covered, at most to the prior's) where the class was fitted, at the
/// prior's where it was not, and the time no class holds (what kernel floors add: shares summing under 1) at
/// the prior's; power at the prior's, energy from the two. No class fitted or no checked spread:
/// priorSpread().
PredictionSpread coverageSpread(const std::array<double, operatorClassCount>& timeShares,
                                const ClassEfficiencies& classes, int64_t batch);

/// What a fit's error grows by at a batch outside the batches its runs covered [low, high]: 10 % (of log
/// spread) a doubling beyond them; 0 inside or without a range (high 0).
double spreadBeyondBatches(int64_t low, int64_t high, int64_t batch);

/// What coverageSpread rests on for these class efficiencies: the calibration's checked error on the classes
/// it fitted and the prior's elsewhere; priorSpreadBasis() when nothing was fitted.
std::string coverageSpreadBasis(const ClassEfficiencies& classes);

/// "90 %": a confidence as a percentage for text.
std::string confidenceText(double confidence);

} // namespace rooftop
