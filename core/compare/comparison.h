// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/measured_layers.h"
#include "core/compare/node_mapping.h"
#include "core/cost/workload.h"
#include "core/roofline/prediction.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One measured (fused) layer next to the roofline's prediction for the ONNX nodes it covers.
struct ComparedLayer {
    std::string name;                         ///< the tool's name of the layer
    MappingKind kind = MappingKind::Unmapped; ///< how it maps to the model
    std::vector<std::string> nodes;           ///< the ONNX nodes covered, in topological order
    double measuredMs = 0.0;                  ///< measured, per inference
    std::optional<double> predictedMs;   ///< sum of the covered nodes' predicted times; none without nodes
    std::optional<double> errorPct;      ///< (predicted - measured) / measured x 100; none without both
    std::optional<double> achievedFlops; ///< FLOPs / measured time, FLOP/s; none when either is unknown or 0
    std::optional<double> intensity;     ///< FLOPs / bytes; none when bytes are unknown or 0
    std::optional<double> roofPct; ///< achievedFlops / the mode's roof at the intensity and compute class, %
    bool toolCounts = false;       ///< FLOPs and bytes are the tool's own (ncu), not Rooftop's counts
    std::string bound;             ///< the slowest covered node's predicted bound; "overhead", "unmapped"
};

/// A measured profile against the roofline in one mode.
struct Comparison {
    std::string device;    ///< the board's id
    std::string mode;      ///< the mode predicted in: a stock name or a custom mode's canonical name
    std::string modeLabel; ///< the same as a person reads it (readableModeName)
    std::string source;    ///< "trtexec", "onnxruntime", "ncu"
    std::string file;      ///< the measured file
    Provenance predictedProvenance = Provenance::Estimate; ///< where the predicted numbers come from
    double measuredTotalMs = 0.0;                          ///< every layer's measured time
    double predictedTotalMs = 0.0;    ///< predicted time of the nodes the profile covers, each node once
    double predictedModelMs = 0.0;    ///< the whole model's predicted latency in the mode (with fixed cost)
    double predictedSpread = 0.0;     ///< the whole model's latency spread (ModelPrediction::spread)
    std::string predictedSpreadBasis; ///< what that spread rests on
    double unmappedMs = 0.0;          ///< measured time of layers with no ONNX node (overhead and unmapped)
    int coveredNodes = 0;             ///< ONNX nodes that some measured layer covers
    int modelNodes = 0;               ///< ONNX nodes of the model that launch a kernel (dispatchesKernel)
    int absentNodeLayers = 0;         ///< unmapped layers that name nodes the model lacks (namesAbsentNodes)
    std::string firstAbsentNodeLayer; ///< the first of them
    double absentNodeMs = 0.0;        ///< their measured time
    std::optional<double>
        inferenceMs; ///< measured GPU time per inference (trtexec --exportTimes), when given
    std::vector<ComparedLayer> layers; ///< worst-predicted first (largest |error|), then the rest by time
};

/// The `count` mapped layers whose predicted time is furthest from the measured, in milliseconds (not in
/// percent: the layers that explain most of the gap), largest first.
std::vector<ComparedLayer> largestMisses(const Comparison& comparison, size_t count);

/// Compares a profile's layers, mapped (mapProfile), with a prediction of the same workload. Layers of the
/// same name covering the same nodes are merged (kernels of several passes, weighted by their share). The
/// prediction must be of this workload (std::invalid_argument otherwise).
Comparison compareLayers(const MeasuredLayers& profile, const std::vector<LayerMapping>& mappings,
                         const Workload& workload, const ModelPrediction& prediction);

} // namespace rooftop
