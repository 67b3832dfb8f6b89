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
    int64_t macs = 0;   ///< multiply-accumulates
    int64_t flops = 0;  ///< FLOPs: 2 x MACs + other arithmetic + SFU ops
    int64_t sfuOps = 0; ///< special-function ops (exp, tanh, sqrt, ...)
    int64_t bytes = 0;  ///< DRAM bytes read and written
};

/// The counted work and traffic of one node (all repeats included).
struct LayerCount {
    int nodeIndex = -1;                    ///< index of the node in Graph::nodes
    std::string name;                      ///< node name (opType_index when the node has none)
    std::string op;                        ///< ONNX op type (Conv, MatMul, ...)
    std::string domain;                    ///< op domain as shown to users ("ai.onnx" for the default)
    std::vector<std::string> inputShapes;  ///< Tensor::shapeText of each input ("" for an omitted one)
    std::vector<std::string> outputShapes; ///< Tensor::shapeText of each output ("" for an omitted one)
    int64_t macs = 0;                      ///< multiply-accumulates (0 when folded into another node)
    int64_t flops = 0;            ///< 2 x MACs + other arithmetic + SFU ops (0 when folded into another node)
    int64_t sfuOps = 0;           ///< special-function ops (exp, tanh, sqrt, ...)
    int64_t weightBytes = 0;      ///< weight bytes read from DRAM (only the rows read of a lookup table)
    int64_t inputBytes = 0;       ///< non-weight input bytes read from DRAM (0 for inputs kept on chip)
    int64_t outputBytes = 0;      ///< output bytes written to DRAM (0 for outputs kept on chip)
    OpKind kind = OpKind::Vector; ///< work class (Alias: it only builds weights; Control: runs on the host)
    DataType computeType =
        DataType::Undefined;   ///< element type the node computes in (forced precision applied)
    bool supported = true;     ///< a cost rule counted it (false: no rule, or shapes unknown)
    bool shapeUnknown = false; ///< not supported because shapes are missing, though the op has a cost rule
    bool fused = false;        ///< part of a fused group whose intermediates stay on chip
    int64_t repeat = 1;        ///< times the node runs (unrolled Loop bodies); the counts include them
    std::string note;          ///< why the count is approximate, folded or missing ("" when none)
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
    int64_t macs = 0;            ///< sum of the layers' MACs
    int64_t flops = 0;           ///< sum of the layers' FLOPs
    int64_t sfuOps = 0;          ///< sum of the layers' SFU ops
    int64_t weightBytes = 0;     ///< sum of the layers' weight bytes
    int64_t inputBytes = 0;      ///< sum of the layers' input bytes
    int64_t outputBytes = 0;     ///< sum of the layers' output bytes
    int64_t params = 0;          ///< elements of floating-point and quantised initializers, each counted once
    int64_t torchvisionMacs = 0; ///< MACs of conv, gemm and matmul-class ops only (torchvision's "GFLOPS")
    int64_t layers = 0;          ///< counted nodes (Constant nodes are not layers)
    std::vector<std::string> unsupported;  ///< op types without a cost rule, sorted
    std::vector<std::string> shapeUnknown; ///< op types with a rule but unknown shapes (not counted), sorted
    std::string shapeLossNode;             ///< the first node whose output shapes were lost ("" when none)
    std::string shapeLossReason;           ///< why shapes were lost there
    // Training only (zero for an inference): the per-phase sums of the layers.
    PhaseCount forward;          ///< sum of the layers' training forwards
    PhaseCount backward;         ///< sum of the layers' backwards
    PhaseCount update;           ///< sum of the layers' optimizer updates
    int64_t stateBytes = 0;      ///< sum of the layers' state bytes (training)
    int64_t savedBytes = 0;      ///< sum of the layers' saved bytes (training)
    int64_t trainableParams = 0; ///< floating-point initializer elements the optimizer updates
    int64_t weightHeldBytes = 0; ///< every weight tensor whole and once, at the settings' precision

    /// weight + input + output bytes (plus, for training, the state, backward and update bytes).
    int64_t bytes() const {
        return weightBytes + inputBytes + outputBytes + stateBytes + backward.bytes + update.bytes;
    }
    /// FLOPs per byte; 0 when no bytes move.
    double intensity() const {
        return bytes() > 0 ? static_cast<double>(flops) / static_cast<double>(bytes()) : 0.0;
    }
};

/// A model's counted work: per-layer rows and totals, with the settings that produced them.
struct Workload {
    ModelInfo info;                 ///< facts about the model file
    AnalysisSettings settings;      ///< the settings counted with (a batch a --dim bound filled in)
    std::vector<LayerCount> layers; ///< one per counted node, in graph order (Constant nodes skipped)
    WorkloadTotals totals;          ///< sums over the layers
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
