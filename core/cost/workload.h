// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/cost/op_cost.h"
#include "core/graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// Work and traffic of one phase of a training step (forward, backward or optimizer update).
struct PhaseCount {
    int64_t macs = 0;
    int64_t flops = 0;
    int64_t sfuOps = 0;
    int64_t bytes = 0;
};

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
    DataType computeType =
        DataType::Undefined; ///< element type the node computes in (forced precision applied)
    bool supported = true;
    bool shapeUnknown = false; ///< not supported because shapes are missing, though the op has a cost rule
    bool fused = false;        ///< part of a fused group whose intermediates stay on chip
    int64_t repeat = 1;
    std::string note;
    // Training only (all zero for an inference): macs, flops and sfuOps above are the step's sums.
    PhaseCount forward;     ///< the training forward (inference's, plus batch statistics and saved state)
    PhaseCount backward;    ///< input and weight gradients, gradient accumulation
    PhaseCount update;      ///< the optimizer's update of the parameters this node is the first to use
    int64_t stateBytes = 0; ///< written by the training forward only (saved statistics, pooling indices)
    int64_t savedBytes = 0; ///< forward tensors the backward reads back (saved activations and state)
    int64_t trainableParams = 0; ///< parameter elements this node's update covers

    /// "counted", "shape unknown" (a rule, but shapes missing) or "unsupported" (no rule).
    std::string status() const {
        return supported ? "counted" : (shapeUnknown ? "shape unknown" : "unsupported");
    }
    /// weight + input + output bytes (plus, for training, the state, backward and update bytes).
    int64_t bytes() const {
        return weightBytes + inputBytes + outputBytes + stateBytes + backward.bytes + update.bytes;
    }
    /// FLOPs per byte; 0 when no bytes move.
    double intensity() const {
        return bytes() > 0 ? static_cast<double>(flops) / static_cast<double>(bytes()) : 0.0;
    }
};

/// Sums over all layers, plus the conventions other tools publish.
struct WorkloadTotals {
    int64_t macs = 0;
    int64_t flops = 0;
    int64_t sfuOps = 0;
    int64_t weightBytes = 0;
    int64_t inputBytes = 0;
    int64_t outputBytes = 0;
    int64_t params = 0;          ///< elements of floating-point and quantised initializers, each counted once
    int64_t torchvisionMacs = 0; ///< MACs of conv, gemm and matmul-class ops only (torchvision's "GFLOPS")
    int64_t layers = 0;
    std::vector<std::string> unsupported;  ///< op types without a cost rule, sorted
    std::vector<std::string> shapeUnknown; ///< op types with a rule but unknown shapes (not counted), sorted
    std::string shapeLossNode;             ///< the first node whose output shapes were lost ("" when none)
    std::string shapeLossReason;           ///< why shapes were lost there
    // Training only (zero for an inference): the per-phase sums of the layers.
    PhaseCount forward;
    PhaseCount backward;
    PhaseCount update;
    int64_t stateBytes = 0;
    int64_t savedBytes = 0;
    int64_t trainableParams = 0; ///< floating-point initializer elements the optimizer updates
    int64_t weightHeldBytes = 0; ///< every weight tensor whole and once, at the settings' precision

    int64_t bytes() const {
        return weightBytes + inputBytes + outputBytes + stateBytes + backward.bytes + update.bytes;
    }
    double intensity() const {
        return bytes() > 0 ? static_cast<double>(flops) / static_cast<double>(bytes()) : 0.0;
    }
};

/// A model's counted work: per-layer rows and totals, with the settings that produced them.
struct Workload {
    ModelInfo info;
    AnalysisSettings settings;
    std::vector<LayerCount> layers;
    WorkloadTotals totals;
};

/// Sets the totals' MACs, FLOPs, SFU ops and weight, input and output bytes to the sums of the layers' (after
/// a view rewrites some layers, as rooftop llm's KV-cache traffic does).
void sumLayersIntoTotals(Workload& workload);

/// Counts every node of the graph (a training step when settings.phase says so); throws CountOverflow when a
/// count does not fit in 64 bits, InputError for a training step of a model without trainable parameters.
Workload analyzeGraph(const Graph& graph, const AnalysisSettings& settings);

/// Loads, binds, infers and counts a model file in one call; throws InputError.
Workload analyzeModelFile(const std::string& path, const AnalysisSettings& settings);

} // namespace rooftop
