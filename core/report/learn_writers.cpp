// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/learn_writers.h"

#include "core/learn/config_features.h"
#include "core/onnx/dim_text.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace rooftop {

namespace {

template <size_t N>
std::string coefficientLine(const char* what, const std::array<const char*, N>& names,
                            const LearnedQuantity& q) {
    char part[160];
    std::string line = std::string(what) + " coefficients:";
    for (size_t i = 0; i < names.size(); ++i)
        if (q.coefficients[Eigen::Index(i)] != 0.0) {
            std::snprintf(part, sizeof part, " %s %.4g", names[i], q.coefficients[Eigen::Index(i)]);
            line += part;
        }
    std::snprintf(part, sizeof part, " (ridge pull %g); residual GP length %.2g, sd %.3g", q.ridgePull,
                  q.residual.lengthScale, std::sqrt(q.residual.signalVariance));
    return line + part;
}

} // namespace

LearnReport learnReport(const Predictor& p, const std::vector<std::string>& notes,
                        const std::string& outputPath) {
    LearnReport r;
    r.headline = "Learned time and power of " +
                 modelAtDims(p.model, parseNamedDimsText(p.dims, "the predictor's dims")) +
                 (p.phase == Phase::Training ? " training steps (" + optimizerName(p.optimizer) + ")"
                                             : std::string()) +
                 " on " + p.board + " from " + std::to_string(p.runs) + " runs" +
                 (p.learnedOnSimulatedRuns() ? " of the simulated board, not measurements" : "") + " (" +
                 std::to_string(p.powerRuns) + " with power)";
    if (!p.referenceModel.empty()) r.headline += "; reference: " + p.referenceText();
    r.method =
        "Method: physics coefficients of the roofline parts (relative ridge NNLS) x exp(Gaussian process "
        "on the log residuals)";
    char line[400];
    if (p.powerLearned)
        std::snprintf(
            line, sizeof line,
            "Cross-validated (%d-fold) MAPE: time %.1f %%, power %.1f %% (each run predicted by a fit "
            "that left it out)",
            p.cv.folds, 100 * p.cv.timeMape, 100 * p.cv.powerMape);
    else
        std::snprintf(
            line, sizeof line,
            "Cross-validated (%d-fold) MAPE: time %.1f %%; power not learned (%d runs with power, %d "
            "needed): Rooftop's estimate",
            p.cv.folds, 100 * p.cv.timeMape, p.powerRuns, minimumLearnRuns);
    r.error = line;
    r.range =
        "Range: " + p.range.describe() + ". Outside it the predictor extrapolates, and its bounds widen.";
    r.coefficients.push_back(coefficientLine("Time", timeFeatureNames(), p.time));
    if (p.powerLearned) r.coefficients.push_back(coefficientLine("Power", powerFeatureNames(), p.power));
    for (const std::string& note : notes)
        r.notes.push_back("Note: " + note);
    if (!outputPath.empty()) r.written = "Predictor written to " + outputPath;
    return r;
}

std::string learnReportText(const LearnReport& report, const std::string& usage) {
    std::string text =
        report.headline + "\n" + report.method + "\n" + report.error + "\n" + report.range + "\n";
    for (const std::string& line : report.coefficients)
        text += line + "\n";
    for (const std::string& line : report.notes)
        text += line + "\n";
    if (!report.written.empty()) text += report.written + (usage.empty() ? "" : " " + usage) + "\n";
    return text;
}

} // namespace rooftop
