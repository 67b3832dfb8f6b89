// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/shown_mode.h"

namespace rooftop {

namespace {

int stockPredictionNamed(const AnalysisResult& result, const std::string& name, int otherwise) {
    for (size_t i = 0; i < result.stockPredictions.size(); ++i)
        if (result.stockPredictions[i].profile.mode.name == name) return int(i);
    return otherwise;
}

const PowerMode* recommendedMode(const AnalysisResult& result) {
    const Recommendation& recommendation = result.recommendation;
    return recommendation.recommended ? &recommendation.candidates[*recommendation.recommended].profile.mode
                                      : nullptr;
}

} // namespace

int fastestStockPrediction(const AnalysisResult& result) {
    if (result.device.stockModes.empty()) return 0;
    return stockPredictionNamed(result, result.device.fastestStockMode().name, 0);
}

double leastStockLatencyMs(const AnalysisResult& result) {
    double least = 0.0;
    for (const ModelPrediction& stock : result.stockPredictions)
        if (least <= 0 || stock.latencySeconds * 1e3 < least) least = stock.latencySeconds * 1e3;
    return least;
}

int defaultShownStockPrediction(const AnalysisResult& result) {
    const PowerMode* recommended = recommendedMode(result);
    return recommended && recommended->stock
               ? stockPredictionNamed(result, recommended->name, fastestStockPrediction(result))
               : fastestStockPrediction(result);
}

const PowerMode* defaultShownMode(const AnalysisResult& result) {
    if (const PowerMode* recommended = recommendedMode(result)) return recommended;
    if (result.stockPredictions.empty()) return nullptr;
    return &result.stockPredictions[size_t(fastestStockPrediction(result))].profile.mode;
}

} // namespace rooftop
