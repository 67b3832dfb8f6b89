// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/cost/op_cost.h"
#include "core/graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// The counted work and traffic of one node (all repeats included).
struct LayerCount {
    int nodeIndex = -1;
    std::string name;
    std::string op;
    std::string domain;
    std::vector<std::string> inputShapes;
    std::vector<std::string> outputShapes;
    int64_t macs = 0;
    int64_t flops = 0;
    int64_t sfuOps = 0;
    int64_t weightBytes = 0;
    int64_t inputBytes = 0;
    int64_t outputBytes = 0;
    OpKind kind = OpKind::Vector;
    DataType computeType = DataType::Undefined; ///< element type the node computes in (forced precision applied)
    bool supported = true;
    bool shapeUnknown = false; ///< not supported because shapes are missing, though the op has a cost rule
    bool fused = false;        ///< part of a fused group whose intermediates stay on chip
    int64_t repeat = 1;
    std::string note;

    /// "counted", "shape unknown" (a rule, but shapes missing) or "unsupported" (no rule).
    std::string status() const { return supported ? "counted" : (shapeUnknown ? "shape unknown" : "unsupported"); }
    /// weight + input + output bytes.
    int64_t bytes() const { return weightBytes + inputBytes + outputBytes; }
    /// FLOPs per byte; 0 when no bytes move.
    double intensity() const { return bytes() > 0 ? static_cast<double>(flops) / static_cast<double>(bytes()) : 0.0; }
};

/// Sums over all layers, plus the conventions other tools publish.
struct WorkloadTotals {
    int64_t macs = 0;
    int64_t flops = 0;
    int64_t sfuOps = 0;
    int64_t weightBytes = 0;
    int64_t inputBytes = 0;
    int64_t outputBytes = 0;
    int64_t params = 0;           ///< elements of floating-point and quantised initializers, each counted once
    int64_t torchvisionMacs = 0;  ///< MACs of conv, gemm and matmul-class ops only (torchvision's "GFLOPS")
    int64_t layers = 0;
    std::vector<std::string> unsupported;  ///< op types without a cost rule, sorted
    std::vector<std::string> shapeUnknown; ///< op types with a rule but unknown shapes (not counted), sorted
    std::string shapeLossNode;             ///< the first node whose output shapes were lost ("" when none)
    std::string shapeLossReason;           ///< why shapes were lost there

    int64_t bytes() const { return weightBytes + inputBytes + outputBytes; }
    double intensity() const { return bytes() > 0 ? static_cast<double>(flops) / static_cast<double>(bytes()) : 0.0; }
};

/// A model's counted work: per-layer rows and totals, with the settings that produced them.
struct Workload {
    ModelInfo info;
    AnalysisSettings settings;
    std::vector<LayerCount> layers;
    WorkloadTotals totals;
};

/// Counts every node of the graph; throws CountOverflow when a count does not fit in 64 bits.
Workload analyzeGraph(const Graph& graph, const AnalysisSettings& settings);

/// Loads, binds, infers and counts a model file in one call; throws InputError.
Workload analyzeModelFile(const std::string& path, const AnalysisSettings& settings);

} // namespace rooftop
