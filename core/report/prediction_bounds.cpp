// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/prediction_bounds.h"

#include "core/common/text_format.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

std::string compactNumber(double value) {
    const double magnitude = std::abs(value);
    const int decimals = magnitude > 0 ? std::clamp(2 - int(std::floor(std::log10(magnitude))), 0, 6) : 0;
    return fixed(value, decimals);
}

std::string boundsText(double value, double spread, double scale, double confidence) {
    if (!(spread > 0) || !(confidence > 0.5)) return {}; // at 0.5 both bounds are the value itself
    const Interval i = intervalAt(value, spread, confidence);
    return "[" + compactNumber(i.low * scale) + "–" + compactNumber(i.high * scale) + "]";
}

std::string withBounds(const std::string& text, double value, double spread, double scale,
                       double confidence) {
    const std::string bounds = boundsText(value, spread, scale, confidence);
    return bounds.empty() ? text : text + " " + bounds;
}

std::string durationWithBounds(double seconds, double spread, double confidence) {
    return withBounds(duration(seconds), seconds, spread, durationScale(seconds), confidence);
}

QJsonArray boundsJson(double value, double spread, double scale, double confidence) {
    const Interval i = intervalAt(value, spread, confidence);
    return QJsonArray{i.low * scale, i.high * scale};
}

std::string boundsCsv(double value, double spread, double scale, double confidence) {
    if (!(spread > 0)) return ",,"; // no spread known: no bounds, not bounds at the value
    const Interval i = intervalAt(value, spread, confidence);
    return "," + general(i.low * scale, 9) + "," + general(i.high * scale, 9);
}

std::string boundsConfidenceCsv(double confidence) {
    return "," + general(confidence, 6);
}

std::string predictionBoundsBasis(const AnalysisResult& result) {
    if (result.predictor) return result.predictor->spreadBasis();
    if (!result.modeProfiles.empty())
        return coverageSpreadBasis(result.modeProfiles.front().ceilings.classEfficiency);
    return priorSpreadBasis();
}

std::string boundsLegendText(const std::string& basis, double confidence) {
    return "[low–high]: in the number's unit, each bound holding at " + confidenceText(confidence) +
           (confidence == tableBoundsConfidence ? " (recommend's default confidence)" : "") + ", from " +
           basis + ".";
}

std::string boundsLegend(const AnalysisResult& result) {
    return boundsLegendText(predictionBoundsBasis(result), result.request.constraints.confidence);
}

} // namespace rooftop
