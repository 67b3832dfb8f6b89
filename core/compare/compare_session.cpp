// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/compare_session.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/common/text_format.h"
#include "core/compare/ncu_csv.h"
#include "core/compare/ort_profile.h"
#include "core/compare/trtexec_import.h"
#include "core/compare/trtexec_layer_info.h"
#include "core/measure/trtexec_layer_profile.h"
#include "core/measure/trtexec_runner.h"
#include "core/onnx/dim_text.h"
#include "core/roofline/prediction.h"
#include "core/session/analysis_session.h"

#include <QFileInfo>
#include <algorithm>
#include <unordered_map>

namespace rooftop {

namespace {

std::string readText(const std::string& path) {
    return readInputFile(path, "a layer profile");
}

// The median GPU time per inference of a trtexec --exportTimes file.
double readInferenceMs(const std::string& path) {
    const RunResult times = parseTrtexecTimes(readText(path));
    if (!times.ok) throw InputError(path + ": trtexec times: " + times.failure);
    return times.latencyMs;
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
        if (!request.timesPath.empty()) layers.inferenceMs = readInferenceMs(request.timesPath);
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

namespace {

// A comparison with what produced it.
struct ComparisonRun {
    AnalysisResult analysis;
    ModelPrediction prediction;
    Comparison comparison;
};

/// Kernels map by order only in whole passes over the model's kernel-launching nodes: any other count leaves
/// every such kernel unmapped, a comparison with nothing in it. Refused with the counts.
void refuseUnmatchedKernels(const std::vector<LayerMapping>& mappings, const Workload& workload,
                            const CompareRequest& request) {
    const auto unmapped = std::count_if(mappings.begin(), mappings.end(), [](const LayerMapping& m) {
        return m.kind == MappingKind::Unmapped;
    });
    if (unmapped == 0) return;
    const auto launching = std::count_if(workload.layers.begin(), workload.layers.end(),
                                         [](const LayerCount& layer) { return dispatchesKernel(layer); });
    throw InputError(request.profilePath + ": " + std::to_string(unmapped) + " of " +
                     std::to_string(mappings.size()) + " kernels map to no node: by order they are not " +
                     "whole passes (the same names in the same order) over the " + std::to_string(launching) +
                     " kernel-launching nodes of " + request.analysis.modelPath +
                     " (a profile of another model or engine, or a cut one?)");
}

/// "1x64x56x56" for dims, as the analysis writes shapes.
std::string dimsText(const std::vector<int64_t>& dims) {
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i)
        text += (i ? "x" : "") + std::to_string(dims[i]);
    return text;
}

/// A profile of an engine built for other input dims (another batch, sequence, resolution) is not a
/// measurement of this workload: an engine layer of one ONNX node whose output dims (all known) differ from
/// the node's output shape in the analysis is refused, naming both.
void refuseOtherDims(const MeasuredLayers& measured, const Workload& workload,
                     const CompareRequest& request) {
    std::unordered_map<std::string, const LayerCount*> byName;
    for (const LayerCount& layer : workload.layers)
        byName.emplace(layer.name, &layer);
    for (const MeasuredLayer& layer : measured.layers) {
        if (layer.onnxNodes.size() != 1 || layer.outputDims.empty()) continue;
        const std::vector<int64_t>& dims = layer.outputDims.front();
        if (dims.empty() || std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; })) continue;
        const auto node = byName.find(layer.onnxNodes.front());
        if (node == byName.end() || node->second->outputShapes.empty()) continue;
        const std::string& analysed = node->second->outputShapes.front();
        if (analysed == "?" || analysed == dimsText(dims)) continue;
        const std::string bound = describeNamedDims(request.analysis.settings.dims.named);
        throw InputError(request.layerInfoPath + ": engine layer '" + layer.name + "' (ONNX node " +
                         layer.onnxNodes.front() + ") writes " + dimsText(dims) + ", the analysis " +
                         analysed + " at batch " + std::to_string(workload.settings.dims.batch.value_or(1)) +
                         ", " + bound +
                         ": a profile of other dims; compare at the engine's (--batch N, --dim NAME=VALUE)");
    }
}

ComparisonRun compare(const CompareRequest& request) {
    const MeasuredLayers measured = readMeasuredLayers(request); // a bad file fails before any counting
    AnalysisRequest analysis = request.analysis;
    analysis.advise = false;
    analysis.predictStock = false;
    analysis.predictorPath.clear(); // the comparison is per layer: the roofline's own numbers
    analysis.modes = request.mode.empty() ? "stock" : request.mode;
    analysis.predictModes = !request.mode.empty();
    ComparisonRun run;
    run.analysis = runAnalysis(analysis);
    const AnalysisResult& result = run.analysis;
    if (request.mode.empty()) {
        run.prediction = predict(result.workload(), result.baseline);
    } else {
        if (result.predictions.size() != 1)
            throw InputError("--mode must name one mode, '" + request.mode + "' is " +
                             std::to_string(result.predictions.size()));
        run.prediction = result.predictions.front();
    }
    if (measured.layers.empty())
        throw InputError(request.profilePath + ": no layer records (an empty or truncated profile?)");
    const std::vector<LayerMapping> mappings = mapProfile(measured, result.workload());
    // kernels may legitimately map to nothing (no whole pass); named layers that name no node at all are the
    // profile of another model
    if (measured.source != "ncu" && std::none_of(mappings.begin(), mappings.end(), [](const LayerMapping& m) {
            return m.kind != MappingKind::Unmapped;
        }))
        throw InputError(request.profilePath + ": no layer names a node of " + request.analysis.modelPath +
                         " (a profile of another model?)");
    if (measured.source == "ncu") refuseUnmatchedKernels(mappings, result.workload(), request);
    if (measured.source == "trtexec") refuseOtherDims(measured, result.workload(), request);
    run.comparison = compareLayers(measured, mappings, result.workload(), run.prediction);
    // a profile of a related model (resnet50's against resnet18) maps in part: most of its names are absent
    const int mapped =
        static_cast<int>(std::count_if(mappings.begin(), mappings.end(),
                                       [](const LayerMapping& m) { return m.kind == MappingKind::Nodes; }));
    // ... or its absent layers hold a good part of the time, which no comparison could then account for
    const Comparison& c = run.comparison;
    if (c.absentNodeLayers > mapped || c.absentNodeMs > 0.25 * c.measuredTotalMs)
        throw InputError(request.profilePath + ": " + std::to_string(c.absentNodeLayers) + " of " +
                         std::to_string(measured.layers.size()) + " layers (" + general(c.absentNodeMs, 3) +
                         " of " + general(c.measuredTotalMs, 3) + " ms) name nodes " +
                         request.analysis.modelPath + " lacks (e.g. '" + c.firstAbsentNodeLayer +
                         "'): a profile of another model?");
    run.comparison.device = result.device.id;
    return run;
}

std::string fileName(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).fileName().toStdString();
}

} // namespace

Comparison runComparison(const CompareRequest& request) {
    return compare(request).comparison;
}

ClassCalibration runClassCalibration(const CompareRequest& request) {
    const ComparisonRun run = compare(request);
    const PowerMode& mode = run.prediction.profile.mode;
    const std::vector<int64_t>& ladder = run.analysis.device.cpuLadderKhz;
    ClassCalibrationInput input;
    input.comparison = &run.comparison;
    input.workload = &run.analysis.workload();
    input.prediction = &run.prediction;
    input.runtime = run.analysis.runtime;
    input.cpuKhz = static_cast<double>(mode.cpuKhz);
    input.maxCpuKhz = ladder.empty() ? input.cpuKhz : static_cast<double>(ladder.back());
    input.inferenceMs = run.comparison.inferenceMs;
    const AnalysisSettings& settings = run.analysis.workload().settings;
    input.basis = run.comparison.source + " profile " + fileName(request.profilePath) + " of " +
                  fileName(request.analysis.modelPath) + " in mode " + mode.name + " on " +
                  run.analysis.device.id + ", batch " + std::to_string(settings.dims.batch.value_or(1)) +
                  ", precision " + precisionName(settings.precision) + ", " +
                  describeNamedDims(settings.dims.named);
    ClassCalibration fit = calibrateClasses(input);
    fit.runtime.calibratedDevice = run.analysis.device.id;
    return fit;
}

} // namespace rooftop
