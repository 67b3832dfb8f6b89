// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/graph.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace rooftop {

/// What kind of hardware work an operator is: decides its compute class and how it fuses.
enum class OpKind {
    Matrix,       ///< conv, gemm, matmul, attention, recurrent: tensor cores at fp16/int8
    Pointwise,    ///< elementwise and activation: fuses into a producer's epilogue
    Vector,       ///< other arithmetic on CUDA cores (norms, softmax, pooling, reductions)
    DataMovement, ///< copies (concat, transpose, gather, ...): bytes, no arithmetic
    Alias,        ///< metadata only (reshape, squeeze, identity): moves no bytes once fused
    Control,      ///< Constant, Loop, If, Scan: no work of their own
};

/// Lower-case name of a kind ("matrix", "pointwise", ...).
const char* opKindName(OpKind kind);

/// Arithmetic one node performs once, as a cost rule computes it. FLOPs = 2 * macs + vectorOps + sfuOps.
struct OpCost {
    int64_t macs = 0;      ///< multiply-accumulates
    int64_t vectorOps = 0; ///< other adds, multiplies, compares (not MACs, not SFU)
    int64_t sfuOps = 0;    ///< special-function ops: exp, log, tanh, erf, sqrt, rsqrt, reciprocal, sin ...
    OpKind kind = OpKind::Vector; ///< hardware work class: decides the compute class and fusion
    bool supported = true;        ///< false when the rule could not count the node (see unsupportedCost)
    std::optional<int64_t> weightElementsRead; ///< weights actually read when less than all (embedding rows)
    /// Inputs read in part (the rows of a position table), by input index: the elements read.
    std::vector<std::pair<size_t, int64_t>> inputElementsRead;
};

/// What a cost rule sees: the node and its tensors.
class CostContext {
public:
    /// The context of `node` in `graph` (both must outlive it).
    CostContext(const Graph& graph, const Node& node) : graph_(graph), node_(node) {}

    /// The graph the node belongs to.
    const Graph& graph() const { return graph_; }
    /// The node being counted.
    const Node& node() const { return node_; }
    /// Inputs the node lists, omitted optional ones (-1) included.
    size_t inputCount() const { return node_.inputs.size(); }
    /// Outputs the node lists, omitted optional ones (-1) included.
    size_t outputCount() const { return node_.outputs.size(); }
    /// The i-th input tensor, nullptr when absent or omitted.
    const Tensor* input(size_t i) const;
    /// The i-th output tensor, nullptr when absent or omitted.
    const Tensor* output(size_t i) const;
    /// Element count of the i-th input, 0 when absent or of unknown shape.
    int64_t inputElements(size_t i) const;
    /// Element count of the i-th output, 0 when absent or of unknown shape.
    int64_t outputElements(size_t i) const;
    /// True when input i exists and its shape is known.
    bool inputKnown(size_t i) const;
    /// True when output i exists and its shape is known.
    bool outputKnown(size_t i) const;

private:
    const Graph& graph_;
    const Node& node_;
};

/// The cost of a node the rule cannot count (shapes unknown, attributes missing): no work, supported = false.
OpCost unsupportedCost(OpKind kind);

/// A cost rule: the arithmetic of one operator. Must not throw except CountOverflow.
using CostRule = OpCost (*)(const CostContext& context);

} // namespace rooftop
