// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/prediction_bounds.h"

#include "core/common/text_format.h"

namespace rooftop {

std::string boundsText(double value, double spread, double scale) {
    if (!(spread > 0)) return {};
    const Interval i = intervalAt(value, spread, tableBoundsConfidence);
    return "[" + general(i.low * scale, 3) + "–" + general(i.high * scale, 3) + "]";
}

QJsonArray boundsJson(double value, double spread, double scale) {
    const Interval i = intervalAt(value, spread, tableBoundsConfidence);
    return QJsonArray{i.low * scale, i.high * scale};
}

std::string predictionBoundsBasis(const AnalysisResult& result) {
    if (result.predictor) return result.predictor->spreadBasis();
    if (!result.modeProfiles.empty())
        return coverageSpreadBasis(result.modeProfiles.front().ceilings.classEfficiency);
    return priorSpreadBasis();
}

std::string boundsLegend(const AnalysisResult& result) {
    return "[low–high]: each bound holds at " + confidenceText(tableBoundsConfidence) +
           " (as recommend's), from " + predictionBoundsBasis(result) + ".";
}

} // namespace rooftop
