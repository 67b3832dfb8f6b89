// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/roofline_scene.h"

#include "core/roofline/roofline_curves.h"

#include <QFileInfo>
#include <algorithm>

namespace rooftop::plots {

std::vector<LayerMarker> layerMarkers(const Workload& workload, const ModelPrediction& prediction) {
    std::vector<LayerMarker> markers;
    const size_t count = std::min(workload.layers.size(), prediction.layers.size());
    markers.reserve(count);
    const double layersSeconds = prediction.layersSeconds();
    for (size_t i = 0; i < count; ++i) {
        const LayerCount& layer = workload.layers[i];
        const LayerPrediction& layerPrediction = prediction.layers[i];
        if (layer.flops <= 0 || layer.bytes() <= 0 || layerPrediction.seconds <= 0) continue;
        const LayerPoint point = layerPoint(layer, layerPrediction);
        LayerMarker marker;
        marker.nodeIndex = layer.nodeIndex;
        marker.name = QString::fromStdString(layer.name);
        marker.op = QString::fromStdString(layer.op);
        marker.intensity = point.intensity;
        marker.flopsPerSecond = point.flopsPerSecond;
        marker.flopsPerJoule = point.flopsPerJoule;
        marker.seconds = layerPrediction.seconds;
        marker.joules = layerPrediction.joules;
        marker.shareOfTime = layersSeconds > 0 ? layerPrediction.seconds / layersSeconds : 0;
        marker.bound = QString::fromUtf8(boundName(layerPrediction.bound));
        marker.flops = double(layer.flops);
        marker.nearFree = marker.flops < kNearFreeFlopsShare * double(workload.totals.flops) &&
                          marker.shareOfTime < kNearFreeTimeShare;
        markers.push_back(marker);
    }
    return markers;
}

LayerMarker modelMarker(const Workload& workload, const ModelPrediction& prediction) {
    LayerMarker marker;
    // the file the user opened: exporters name the graph itself "torch_jit" or "main_graph"
    const QString file = QFileInfo(QString::fromStdString(workload.info.path)).fileName();
    marker.name = !file.isEmpty()                    ? file
                  : !workload.info.graphName.empty() ? QString::fromStdString(workload.info.graphName)
                                                     : QStringLiteral("model");
    marker.op = QStringLiteral("model");
    marker.intensity = workload.totals.intensity();
    const double flops = double(workload.totals.flops);
    marker.flopsPerSecond = prediction.latencySeconds > 0 ? flops / prediction.latencySeconds : 0;
    marker.flopsPerJoule = prediction.energyJoules > 0 ? flops / prediction.energyJoules : 0;
    marker.seconds = prediction.latencySeconds;
    marker.joules = prediction.energyJoules;
    marker.shareOfTime = 1.0;
    marker.flops = flops;
    return marker;
}

QStringList opTypesOf(const Workload& workload) {
    QStringList ops;
    for (const LayerCount& layer : workload.layers) {
        const QString op = QString::fromStdString(layer.op);
        if (!ops.contains(op)) ops << op;
    }
    return ops;
}

std::vector<ComputeClass> classesUsed(const Workload& workload) {
    bool used[computeClassCount] = {true}; // the FP32 roof always
    for (const LayerCount& layer : workload.layers)
        if (layer.flops > 0) used[static_cast<int>(computeClassOf(layer))] = true;
    std::vector<ComputeClass> classes;
    for (int c = 0; c < computeClassCount; ++c)
        if (used[c]) classes.push_back(static_cast<ComputeClass>(c));
    return classes;
}

} // namespace rooftop::plots
