// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/measured_overlay.h"

#include "core/compare/compare_writers.h"
#include "core/device/provenance.h"

#include <QFileInfo>
#include <unordered_map>

namespace rooftop::plots {

MeasuredOverlay measuredOverlay(const Comparison& comparison, const Workload& workload) {
    MeasuredOverlay overlay;
    const QString file = QFileInfo(QString::fromStdString(comparison.file)).fileName();
    // short, so that a narrow plot's legend keeps two entries a row; the file is in the points' hover text
    // and on the comparison card
    overlay.label = QStringLiteral("measured layers");
    overlay.provenance = QStringLiteral("measured, %1 %2")
                             .arg(QString::fromStdString(sourceDescription(comparison.source)), file);
    overlay.predictedProvenance =
        QStringLiteral("%1, the roofline in mode %2 on %3")
            .arg(QString::fromUtf8(provenanceName(comparison.predictedProvenance)),
                 QString::fromStdString(comparison.mode), QString::fromStdString(comparison.device));
    std::unordered_map<std::string, const LayerCount*> byName;
    for (const LayerCount& layer : workload.layers)
        byName.emplace(layer.name, &layer);
    for (const ComparedLayer& layer : comparison.layers) {
        double flops = 0.0, bytes = 0.0;
        int firstNode = -1;
        QStringList nodes;
        for (const std::string& name : layer.nodes) {
            nodes << QString::fromStdString(name);
            const auto found = byName.find(name);
            if (found == byName.end()) continue;
            if (firstNode < 0) firstNode = found->second->nodeIndex;
            flops += double(found->second->flops);
            bytes += double(found->second->bytes());
        }
        const bool drawable = layer.intensity && layer.achievedFlops && layer.predictedMs &&
                              *layer.intensity > 0 && *layer.achievedFlops > 0 && *layer.predictedMs > 0 &&
                              flops > 0 && bytes > 0;
        if (!drawable) {
            ++overlay.skipped;
            continue;
        }
        MeasuredLayerMarker marker;
        marker.name = QString::fromStdString(layer.name);
        marker.nodes = nodes;
        marker.firstNodeIndex = firstNode;
        marker.intensity = *layer.intensity;
        marker.achievedFlopsPerSecond = *layer.achievedFlops;
        marker.predictedIntensity = flops / bytes;
        marker.predictedFlopsPerSecond = flops / (*layer.predictedMs / 1e3);
        marker.measuredMs = layer.measuredMs;
        marker.predictedMs = *layer.predictedMs;
        marker.errorPct = layer.errorPct.value_or(0.0);
        marker.toolCounts = layer.toolCounts;
        marker.bound = QString::fromStdString(layer.bound);
        overlay.layers.push_back(marker);
    }
    return overlay;
}

} // namespace rooftop::plots
