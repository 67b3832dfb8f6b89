// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/comparison.h"

#include "core/roofline/roofline_curves.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace rooftop {

namespace {

struct Row {
    ComparedLayer layer;
    std::vector<int> nodes;
    double toolFlops = 0.0;
    double toolBytes = 0.0;
    bool haveToolFlops = false;
    bool haveToolBytes = false;
};

} // namespace

Comparison compareLayers(const MeasuredLayers& profile, const std::vector<LayerMapping>& mappings,
                         const Workload& workload, const ModelPrediction& prediction) {
    if (prediction.layers.size() != workload.layers.size())
        throw std::invalid_argument("compareLayers: the prediction is of another workload");
    Comparison result;
    result.source = profile.source;
    result.file = profile.file;
    result.mode = prediction.profile.mode.name;
    result.modeLabel = readableModeName(prediction.profile.mode);
    result.predictedProvenance = prediction.provenance;
    result.predictedModelMs = prediction.latencySeconds * 1e3;
    result.predictedSpread = prediction.spread.latency;
    result.predictedSpreadBasis = coverageSpreadBasis(prediction.profile.ceilings.classEfficiency);
    result.inferenceMs = profile.inferenceMs;
    result.modelNodes =
        static_cast<int>(std::count_if(workload.layers.begin(), workload.layers.end(),
                                       [](const LayerCount& l) { return dispatchesKernel(l); }));

    std::vector<Row> rows;
    std::map<std::pair<std::string, std::vector<int>>, size_t> rowOf;
    for (size_t i = 0; i < profile.layers.size() && i < mappings.size(); ++i) {
        const MeasuredLayer& measured = profile.layers[i];
        const LayerMapping& mapping = mappings[i];
        const double ms = measured.ms * mapping.share;
        if (namesAbsentNodes(measured, mapping)) {
            if (result.absentNodeLayers++ == 0) result.firstAbsentNodeLayer = measured.name;
            result.absentNodeMs += ms;
        }
        result.measuredTotalMs += ms;
        const auto key = std::make_pair(measured.name, mapping.nodes);
        auto [found, inserted] = rowOf.try_emplace(key, rows.size());
        if (inserted) {
            Row row;
            row.layer.name = measured.name;
            row.layer.kind = mapping.kind;
            row.nodes = mapping.nodes;
            rows.push_back(std::move(row));
        }
        Row& row = rows[found->second];
        row.layer.measuredMs += ms;
        if (measured.flops >= 0) {
            row.toolFlops += measured.flops * mapping.share;
            row.haveToolFlops = true;
        }
        if (measured.dramBytes >= 0) {
            row.toolBytes += measured.dramBytes * mapping.share;
            row.haveToolBytes = true;
        }
    }

    std::vector<bool> covered(workload.layers.size(), false);
    for (Row& row : rows) {
        ComparedLayer& layer = row.layer;
        if (layer.kind != MappingKind::Nodes) {
            result.unmappedMs += layer.measuredMs;
            layer.bound = layer.kind == MappingKind::Overhead ? "overhead" : "unmapped";
            continue;
        }
        double seconds = 0.0;
        double slowest = -1.0;
        ComputeClass slowestClass = ComputeClass::Fp32CudaCore;
        int64_t flops = 0, bytes = 0;
        for (const int node : row.nodes) {
            const LayerCount& count = workload.layers[static_cast<size_t>(node)];
            const LayerPrediction& predicted = prediction.layers[static_cast<size_t>(node)];
            layer.nodes.push_back(count.name);
            seconds += predicted.seconds;
            flops += count.flops;
            bytes += count.bytes();
            if (predicted.seconds > slowest) {
                slowest = predicted.seconds;
                slowestClass = predicted.computeClass;
                layer.bound = boundName(predicted.bound);
            }
            if (!covered[static_cast<size_t>(node)]) {
                covered[static_cast<size_t>(node)] = true;
                result.predictedTotalMs += predicted.seconds * 1e3;
                if (dispatchesKernel(count)) ++result.coveredNodes; // counted as modelNodes counts them
            }
        }
        layer.predictedMs = seconds * 1e3;
        if (layer.measuredMs > 0)
            layer.errorPct = (*layer.predictedMs - layer.measuredMs) / layer.measuredMs * 100.0;
        layer.toolCounts = row.haveToolFlops;
        const double w = row.haveToolFlops ? row.toolFlops : static_cast<double>(flops);
        const double q =
            row.haveToolFlops ? (row.haveToolBytes ? row.toolBytes : 0.0) : static_cast<double>(bytes);
        if (w > 0 && layer.measuredMs > 0) layer.achievedFlops = w / (layer.measuredMs / 1e3);
        if (w > 0 && q > 0) layer.intensity = w / q;
        if (layer.achievedFlops && layer.intensity) {
            const double roof = attainableFlops(prediction.profile.ceilings, slowestClass, *layer.intensity);
            if (roof > 0) layer.roofPct = *layer.achievedFlops / roof * 100.0;
        }
    }

    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        const bool aHas = a.layer.errorPct.has_value(), bHas = b.layer.errorPct.has_value();
        if (aHas != bHas) return aHas;
        if (aHas && std::fabs(*a.layer.errorPct) != std::fabs(*b.layer.errorPct))
            return std::fabs(*a.layer.errorPct) > std::fabs(*b.layer.errorPct);
        return a.layer.measuredMs > b.layer.measuredMs;
    });
    result.layers.reserve(rows.size());
    for (Row& row : rows)
        result.layers.push_back(std::move(row.layer));
    return result;
}

std::vector<ComparedLayer> largestMisses(const Comparison& comparison, size_t count) {
    std::vector<ComparedLayer> misses;
    for (const ComparedLayer& layer : comparison.layers)
        if (layer.predictedMs) misses.push_back(layer);
    auto gap = [](const ComparedLayer& layer) { return std::fabs(*layer.predictedMs - layer.measuredMs); };
    std::stable_sort(misses.begin(), misses.end(),
                     [&](const ComparedLayer& a, const ComparedLayer& b) { return gap(a) > gap(b); });
    if (misses.size() > count) misses.resize(count);
    return misses;
}

} // namespace rooftop
