// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/llm_scene.h"

#include "core/device/provenance.h"
#include "core/roofline/prediction.h"
#include "plots/op_palette.h"

namespace rooftop::report {

plots::RooflineScene buildLlmDecodeScene(const LlmResult& result, size_t mode, size_t step) {
    plots::RooflineScene scene;
    if (mode >= result.modes.size() || step >= result.decodeSteps.size()) return scene;
    const ModeProfile& profile = result.modes[mode].profile;
    const Workload& workload = result.decodeSteps[step].workload;
    const ModelPrediction prediction = predict(workload, profile);
    const QString name = QString::fromStdString(profile.mode.name);
    scene.modes.push_back({name, profile, plots::colorForMode(0), false});
    scene.classes = plots::classesUsed(workload);
    scene.layers = plots::layerMarkers(workload, prediction);
    scene.activeMode = name;
    scene.provenance = QString::fromUtf8(provenanceName(prediction.provenance));
    scene.hasModelPoint = true;
    scene.model = plots::modelMarker(workload, prediction);
    scene.model.name = QObject::tr("decode step at context %1").arg(result.decodeSteps[step].pass.context());
    scene.opTypes = plots::opTypesOf(workload);
    return scene;
}

} // namespace rooftop::report
