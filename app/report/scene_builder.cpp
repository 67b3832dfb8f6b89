// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/scene_builder.h"

#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "plots/op_palette.h"

#include <QObject>

namespace rooftop::report {

const ModelPrediction* activePrediction(const AnalysisResult& result, const SceneChoice& choice) {
    if (choice.whatIf) return &*choice.whatIf;
    if (choice.activeStockMode >= 0 && size_t(choice.activeStockMode) < result.stockPredictions.size())
        return &result.stockPredictions[size_t(choice.activeStockMode)];
    return result.stockPredictions.empty() ? nullptr : &result.stockPredictions.front();
}

plots::RooflineScene buildRooflineScene(const AnalysisResult& result, const SceneChoice& choice) {
    plots::RooflineScene scene;
    scene.classes = plots::classesUsed(result.workload());
    scene.opTypes = plots::opTypesOf(result.workload());
    for (int index : choice.overlaidStockModes) {
        if (index < 0 || size_t(index) >= result.stockPredictions.size()) continue;
        const ModelPrediction& prediction = result.stockPredictions[size_t(index)];
        scene.modes.push_back({QString::fromStdString(readableModeName(prediction.profile.mode)),
                               prediction.profile, plots::colorForMode(index), false});
    }
    if (choice.whatIf) {
        scene.modes.push_back(
            {(choice.whatIfRecommended ? QObject::tr("recommended %1") : QObject::tr("what-if %1"))
                 .arg(QString::fromStdString(readableModeName(choice.whatIf->profile.mode))),
             choice.whatIf->profile, QColor(0xE0, 0x1E, 0x9B), true,
             choice.whatIfRecommended ? QObject::tr("recommended") : QObject::tr("what-if")});
    }
    if (const ModelPrediction* prediction = activePrediction(result, choice)) {
        scene.layers = plots::layerMarkers(result.workload(), *prediction);
        scene.model = plots::modelMarker(result.workload(), *prediction);
        scene.hasModelPoint = true;
        scene.activeMode = QString::fromStdString(readableModeName(prediction->profile.mode));
        // a predictor's totals come from runs; the points are still the roofline's layers
        scene.provenance = prediction->provenance == Provenance::Predicted
                               ? QStringLiteral("the roofline's layers; totals learned from runs")
                               : QStringLiteral("predicted from %1 inputs")
                                     .arg(QString::fromUtf8(provenanceName(prediction->provenance)));
    }
    return scene;
}

} // namespace rooftop::report
