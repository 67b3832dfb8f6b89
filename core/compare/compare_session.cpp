// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/compare_session.h"

#include "core/common/errors.h"
#include "core/compare/ncu_csv.h"
#include "core/compare/ort_profile.h"
#include "core/compare/trtexec_import.h"
#include "core/compare/trtexec_layer_info.h"
#include "core/measure/trtexec_layer_profile.h"
#include "core/session/analysis_session.h"

#include <QFile>
#include <algorithm>

namespace rooftop {

namespace {

std::string readText(const std::string& path) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        throw InputError(path + ": cannot read (" + file.errorString().toStdString() + ")");
    return file.readAll().toStdString();
}

} // namespace

MeasuredLayers readMeasuredLayers(const CompareRequest& request) {
    if (request.profilePath.empty()) throw InputError("compare needs a measured profile");
    MeasuredLayers layers;
    switch (request.source) {
    case ProfileSource::Trtexec: {
        const std::vector<LayerTime> times =
            parseTrtexecLayerProfile(readText(request.profilePath), request.profilePath);
        std::vector<EngineLayerInfo> info;
        if (!request.layerInfoPath.empty())
            info = parseTrtexecLayerInfo(readText(request.layerInfoPath), request.layerInfoPath);
        layers = joinTrtexecLayers(times, info, request.profilePath);
        break;
    }
    case ProfileSource::OnnxRuntime:
        layers = parseOrtProfile(readText(request.profilePath), request.profilePath);
        break;
    case ProfileSource::NsightCompute:
        layers = parseNcuCsv(readText(request.profilePath), request.profilePath);
        break;
    }
    layers.file = request.profilePath;
    return layers;
}

Comparison runComparison(const CompareRequest& request) {
    const MeasuredLayers measured = readMeasuredLayers(request); // a bad file fails before any counting
    AnalysisRequest analysis = request.analysis;
    analysis.advise = false;
    analysis.predictStock = false;
    analysis.predictorPath.clear(); // the comparison is per layer: the roofline's own numbers
    analysis.modes = request.mode.empty() ? "stock" : request.mode;
    analysis.predictModes = !request.mode.empty();
    const AnalysisResult result = runAnalysis(analysis);
    ModelPrediction prediction;
    if (request.mode.empty()) {
        prediction = predict(result.workload(), result.baseline);
    } else {
        if (result.predictions.size() != 1)
            throw InputError("--mode must name one mode, '" + request.mode + "' is " +
                             std::to_string(result.predictions.size()));
        prediction = result.predictions.front();
    }
    if (measured.layers.empty())
        throw InputError(request.profilePath + ": no layer records (an empty or truncated profile?)");
    const std::vector<LayerMapping> mappings = mapProfile(measured, result.workload());
    // kernels may legitimately map to nothing (no whole pass); named layers that name no node at all are the
    // profile of another model
    if (measured.source != "ncu" && !measured.layers.empty() &&
        std::none_of(mappings.begin(), mappings.end(),
                     [](const LayerMapping& m) { return m.kind != MappingKind::Unmapped; }))
        throw InputError(request.profilePath + ": no layer names a node of " + request.analysis.modelPath +
                         " (a profile of another model?)");
    Comparison comparison = compareLayers(measured, mappings, result.workload(), prediction);
    comparison.device = result.device.id;
    return comparison;
}

} // namespace rooftop
