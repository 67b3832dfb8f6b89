// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/prediction_spread.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rooftop {

namespace {

// RMS of log(true / roofline) over the 4,368 AGX Orin 64GB grid modes on the other-physics board
// (tests/support/other_physics_board.h), ResNet-50, MobileNetV3-Large and EfficientNet-B0 at batch 1, 4 and
// 16 (every 4th mode; 0.440, 0.232, 0.317 with the kernel sizes and class estimates; 0.596, 0.240, 0.446
// with the bare roofline): printed by
// TestRecommendConfidence::priorSpreadIsThePriorsOwnError (docs/learn.md).
constexpr double priorLatencySpread = 0.45;
constexpr double priorPowerSpread = 0.25;
constexpr double priorEnergySpread = 0.35;
// The same on decode steps (one token at context 129, batch 1 and 4, fp16, every 8th grid mode) of
// tiny_llama, a tiny genai export, Qwen2.5-0.5B and Llama-2-7B: 0.574, 0.230, 0.630, the truth 1.3-2.8x the
// prior's time (LlmProfile::priorDecodeSpreadIsItsOwnErrorOnDecodeSteps).
constexpr double priorDecodeLatencySpread = 0.60;
constexpr double priorDecodePowerSpread = 0.25;
constexpr double priorDecodeEnergySpread = 0.65;

} // namespace

double normalQuantile(double p) {
    // Acklam's rational approximation (relative error < 1.2e-9), refined by one Halley step.
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    if (!(p > 0.0 && p < 1.0)) return p >= 1.0 ? INFINITY : -INFINITY;
    const double low = 0.02425;
    double x;
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - low) {
        const double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        const double q = std::sqrt(-2 * std::log(1 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
    const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

Interval intervalAt(double value, double spread, double confidence) {
    if (!(spread > 0.0) || confidence == 0.5) return {value, value};
    const double z = normalQuantile(confidence);
    return {value * std::exp(-z * spread), value * std::exp(z * spread)};
}

double upperBound(double value, double spread, double confidence) {
    return intervalAt(value, spread, confidence).high;
}

PredictionSpread priorSpread() {
    return {priorLatencySpread, priorPowerSpread, priorEnergySpread};
}

std::string priorSpreadBasis() {
    char text[240];
    std::snprintf(text, sizeof text,
                  "the prior's own error (no predictor): %.0f %% time, %.0f %% power, %.0f %% energy "
                  "(1 sigma, the roofline against a simulated board's other physics)",
                  100 * priorLatencySpread, 100 * priorPowerSpread, 100 * priorEnergySpread);
    return text;
}

PredictionSpread priorDecodeSpread() {
    return {priorDecodeLatencySpread, priorDecodePowerSpread, priorDecodeEnergySpread};
}

std::string priorDecodeSpreadBasis() {
    char text[240];
    std::snprintf(
        text, sizeof text,
        "the prior's own error on decode steps (no predictor): %.0f %% time, %.0f %% power, %.0f %% "
        "energy (1 sigma, four decoders against a simulated board's other physics)",
        100 * priorDecodeLatencySpread, 100 * priorDecodePowerSpread, 100 * priorDecodeEnergySpread);
    return text;
}

PredictionSpread operator+(const PredictionSpread& spread, const PredictionSpread& by) {
    return {spread.latency + by.latency, spread.power + by.power, spread.energy + by.energy};
}

double spreadBeyondBatches(int64_t low, int64_t high, int64_t batch) {
    if (high <= 0 || batch <= 0) return 0.0;
    const double b = static_cast<double>(batch);
    const double outside = b < double(low)    ? std::log2(double(low) / b)
                           : b > double(high) ? std::log2(b / double(high))
                                              : 0.0;
    return 0.1 * outside;
}

PredictionSpread coverageSpread(const std::array<double, operatorClassCount>& timeShares,
                                const ClassEfficiencies& classes, int64_t batch) {
    const PredictionSpread prior = priorSpread();
    const std::array<bool, operatorClassCount>& fitted = classes.fitted;
    if (std::find(fitted.begin(), fitted.end(), true) == fitted.end() || !(classes.checkedSpread > 0))
        return prior;
    const double checkedSpread =
        std::min(prior.latency, classes.checkedSpread + spreadBeyondBatches(classes.checkedBatchLow,
                                                                            classes.checkedBatchHigh, batch));
    PredictionSpread spread;
    spread.power = classes.checkedPowerSpread > 0 ? classes.checkedPowerSpread : prior.power;
    const double checkedEnergy = std::sqrt(checkedSpread * checkedSpread + spread.power * spread.power);
    double classShares = 0.0;
    for (size_t k = 0; k < timeShares.size(); ++k) {
        // the classes' errors share the board, so they add rather than average out
        spread.latency += timeShares[k] * (fitted[k] ? checkedSpread : prior.latency);
        spread.energy += timeShares[k] * (fitted[k] ? std::min(checkedEnergy, prior.energy) : prior.energy);
        classShares += timeShares[k];
    }
    // the kernel floors' share: no calibration checks the floor apart, so it keeps the prior's error
    const double unchecked = std::clamp(1.0 - classShares, 0.0, 1.0);
    spread.latency += unchecked * prior.latency;
    spread.energy += unchecked * prior.energy;
    return spread;
}

std::string coverageSpreadBasis(const ClassEfficiencies& classes) {
    const std::array<bool, operatorClassCount>& fitted = classes.fitted;
    if (std::find(fitted.begin(), fitted.end(), true) == fitted.end() || !(classes.checkedSpread > 0))
        return priorSpreadBasis();
    std::string names;
    for (size_t k = 0; k < fitted.size(); ++k)
        if (fitted[k])
            names += (names.empty() ? "" : ", ") + std::string(operatorClassName(OperatorClass(k)));
    char text[400];
    std::snprintf(
        text, sizeof text,
        "the calibrated runtime's own error: %.0f %% time (1 sigma, over its runs) on the layers of the "
        "classes it fitted (%s), the prior's %.0f %% on the others and on the kernel floors, 10 %% more a "
        "doubling of the batch beyond its runs; power %s %.0f %%",
        100 * classes.checkedSpread, names.c_str(), 100 * priorLatencySpread,
        classes.checkedPowerSpread > 0 ? "its fitted power's held-out error," : "the prior's",
        100 * (classes.checkedPowerSpread > 0 ? classes.checkedPowerSpread : priorPowerSpread));
    return text;
}

std::string confidenceText(double confidence) {
    char text[32];
    std::snprintf(text, sizeof text, "%g %%", 100 * confidence);
    return text;
}

} // namespace rooftop
