// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/recommendation_answer.h"

#include "core/onnx/dim_text.h"
#include "core/report/recommendation_writers.h"
#include "core/report/workload_writers.h"

#include <filesystem>

namespace rooftop {
namespace {

RecommendationQuestion questionOf(const AnalysisResult& result) {
    const AnalysisRequest& request = result.request;
    RecommendationQuestion question;
    question.deviceId = result.device.id;
    question.model = request.modelPath;
    question.dims = request.settings.dims.named;
    question.precision = precisionName(request.settings.precision); // a predictor's for as-model
    if (request.settings.phase == Phase::Training)
        question.optimizer = optimizerName(request.settings.optimizer);
    question.limits = request.constraints;
    question.objective = request.objective;
    question.predictionBasis = analysisPredictionBasis(result);
    return question;
}

std::string preambleOf(const AnalysisResult& result) {
    const AnalysisSettings& settings = result.request.settings;
    std::string text = "Model: " +
                       modelAtDims(std::filesystem::path(result.request.modelPath).filename().string(),
                                   settings.dims.named) +
                       ", " + precisionName(settings.precision) + ", " + phaseName(settings.phase) + "\n";
    text += assumedDimsLine(result.workload().info, true);
    if (result.request.settings.phase == Phase::Training)
        text += "Training step (" + optimizerName(result.request.settings.optimizer) +
                "): time is one minibatch's forward, backward and update; energy is per sample (the JSON's "
                "per-inference fields too)\n\n";
    if (!result.predictorBasis.empty())
        text += "Latency, energy and power: predicted, " + result.predictorBasis + "\n\n";
    return text;
}

} // namespace

std::string recommendationAnswer(const AnalysisResult& result, bool json) {
    if (json) return recommendationToJson(questionOf(result), result.recommendation);
    return preambleOf(result) + recommendationToTable(result.device.name, result.recommendation,
                                                      result.request.constraints, result.request.objective);
}

} // namespace rooftop
