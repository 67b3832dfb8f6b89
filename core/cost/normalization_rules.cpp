// SPDX-License-Identifier: GPL-3.0-or-later
// Normalizations and softmax. X = input elements; a "row" is one normalized group (one mean / norm / max),
// which pays one special-function op (rsqrt, sqrt or log). Kind Vector, except BatchNormalization
// (Pointwise: a scale and shift that fuses into the producer's epilogue).
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

#include <vector>

namespace rooftop {
namespace {

// perElement x X vector ops and sfuPerElement x X + rows special-function ops.
OpCost normCost(int64_t elements, int64_t perElement, int64_t sfuPerElement, int64_t rows) {
    OpCost cost;
    cost.kind = OpKind::Vector;
    cost.vectorOps = checkedMul(elements, perElement);
    cost.sfuOps = checkedAdd(checkedMul(elements, sfuPerElement), rows);
    return cost;
}

// `axis` in [-rank, rank) made non-negative, or -1 when out of range.
int64_t normalizedAxis(int64_t axis, size_t rank) {
    const int64_t r = static_cast<int64_t>(rank);
    if (axis < 0) axis += r;
    return axis >= 0 && axis < r ? axis : -1;
}

// Product of dims[0, axis): the number of rows when everything from `axis` on is normalized together.
int64_t leadingProduct(const std::vector<int64_t>& dims, int64_t axis) {
    int64_t product = 1;
    for (int64_t i = 0; i < axis; ++i)
        product = checkedMul(product, dims[static_cast<size_t>(i)]);
    return product;
}

// Rows of a normalization over dims[axis:] of input 0 (attribute `axis`, default -1); -1 when unknown.
int64_t rowsFromAxis(const CostContext& c, int64_t defaultAxis) {
    const Tensor* x = c.input(0);
    if (!x || !x->shapeKnown || x->dims.empty()) return -1;
    const int64_t axis = normalizedAxis(c.node().attributeInt("axis", defaultAxis), x->dims.size());
    return axis < 0 ? -1 : leadingProduct(x->dims, axis);
}

// Rows of a reduction along the single dimension `axis` (default -1): X / dims[axis]; -1 when unknown.
int64_t rowsAlongAxis(const CostContext& c) {
    const Tensor* x = c.input(0);
    if (!x || !x->shapeKnown || x->dims.empty()) return -1;
    const int64_t axis = normalizedAxis(c.node().attributeInt("axis", -1), x->dims.size());
    if (axis < 0) return -1;
    const int64_t length = x->dims[static_cast<size_t>(axis)];
    return length > 0 ? c.inputElements(0) / length : 0;
}

// BatchNormalization (inference): 2/elem, a scale and a shift once mean and variance are folded.
OpCost batchNormalization(const CostContext& c) {
    if (!c.inputKnown(0)) return unsupportedCost(OpKind::Pointwise);
    OpCost cost;
    cost.kind = OpKind::Pointwise;
    cost.vectorOps = checkedMul(c.inputElements(0), 2);
    return cost;
}

// LayerNormalization: 6/elem (mean, sub, square, sum, x rstd, x scale) + 1/elem bias if given + 1 rsqrt/row.
OpCost layerNormalization(const CostContext& c) {
    const int64_t rows = rowsFromAxis(c, -1);
    if (rows < 0) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), c.input(2) ? 7 : 6, 0, rows);
}

// RMSNormalization / SimplifiedLayerNormalization: 4/elem (square, sum, x rstd, x scale) + 1 rsqrt/row.
OpCost rmsNormalization(const CostContext& c) {
    const int64_t rows = rowsFromAxis(c, -1);
    if (rows < 0) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), 4, 0, rows);
}

// SkipLayerNormalization (input, skip, gamma, beta?, bias?): LayerNorm over the last dim + 1/elem skip add
// + 1/elem bias add when given.
OpCost skipLayerNormalization(const CostContext& c) {
    const int64_t rows = rowsFromAxis(c, -1);
    if (rows < 0) return unsupportedCost(OpKind::Vector);
    const int64_t perElement = 6 + (c.input(3) ? 1 : 0) + 1 + (c.input(4) ? 1 : 0);
    return normCost(c.inputElements(0), perElement, 0, rows);
}

// SkipSimplifiedLayerNormalization (input, skip, gamma, bias?): 4/elem RMS + 1 skip (+ 1 bias) + 1 rsqrt/row.
OpCost skipSimplifiedLayerNormalization(const CostContext& c) {
    const int64_t rows = rowsFromAxis(c, -1);
    if (rows < 0) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), 4 + 1 + (c.input(3) ? 1 : 0), 0, rows);
}

// GroupNormalization (N, C, ...): 7/elem (6 + bias) + 1 rsqrt per (sample, group).
OpCost groupNormalization(const CostContext& c) {
    const Tensor* x = c.input(0);
    const int64_t groups = c.node().attributeInt("num_groups", 0);
    if (!x || !x->shapeKnown || x->dims.empty() || groups <= 0) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), 7, 0, checkedMul(x->dims[0], groups));
}

// com.microsoft GroupNorm (NHWC, `groups`): as GroupNormalization, + SiLU (4/elem + 1 exp) when activation=1.
OpCost contribGroupNorm(const CostContext& c) {
    const Tensor* x = c.input(0);
    const int64_t groups = c.node().attributeInt("groups", 0);
    if (!x || !x->shapeKnown || x->dims.empty() || groups <= 0) return unsupportedCost(OpKind::Vector);
    const bool silu = c.node().attributeInt("activation", 0) != 0;
    return normCost(c.inputElements(0), silu ? 11 : 7, silu ? 1 : 0, checkedMul(x->dims[0], groups));
}

// InstanceNormalization (N, C, ...): 7/elem + 1 rsqrt per (N, C).
OpCost instanceNormalization(const CostContext& c) {
    const Tensor* x = c.input(0);
    if (!x || !x->shapeKnown || x->dims.size() < 2) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), 7, 0, checkedMul(x->dims[0], x->dims[1]));
}

// LpNormalization along `axis`: p=2: square, sum, divide 3/elem + 1 sqrt/row; p=1: abs, sum, divide 3/elem.
OpCost lpNormalization(const CostContext& c) {
    const int64_t rows = rowsAlongAxis(c);
    if (rows < 0) return unsupportedCost(OpKind::Vector);
    const bool l2 = c.node().attributeInt("p", 2) == 2;
    return normCost(c.inputElements(0), 3, 0, l2 ? rows : 0);
}

// MeanVarianceNormalization over `axes` (default [0, 2, 3]): 6/elem + 1 sqrt per group.
OpCost meanVarianceNormalization(const CostContext& c) {
    const Tensor* x = c.input(0);
    if (!x || !x->shapeKnown) return unsupportedCost(OpKind::Vector);
    std::vector<int64_t> axes = c.node().attributeInts("axes");
    if (!c.node().hasAttribute("axes")) axes = {0, 2, 3};
    int64_t reduced = 1;
    for (int64_t axis : axes) {
        const int64_t a = normalizedAxis(axis, x->dims.size());
        if (a < 0) return unsupportedCost(OpKind::Vector);
        reduced = checkedMul(reduced, x->dims[static_cast<size_t>(a)]);
    }
    const int64_t elements = c.inputElements(0);
    return normCost(elements, 6, 0, reduced > 0 ? elements / reduced : 0);
}

// Softmax: 5/elem = max, sub, sum, div (4 vector) + exp (1 SFU).
OpCost softmax(const CostContext& c) {
    if (!c.inputKnown(0)) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), 4, 1, 0);
}

// Rows of LogSoftmax: along `axis` from opset 13; before, everything from `axis` (default 1) on is one row.
int64_t logSoftmaxRows(const CostContext& c) {
    const int opset = c.node().opsetVersion;
    if (opset == 0 || opset >= 13) return rowsAlongAxis(c);
    return rowsFromAxis(c, 1);
}

// LogSoftmax: max, sub, sum, sub (4 vector) + exp (1 SFU) per elem, + 1 log (SFU) per row.
OpCost logSoftmax(const CostContext& c) {
    const int64_t rows = logSoftmaxRows(c);
    if (rows < 0) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), 4, 1, rows);
}

// Hardmax: 2/elem (compare for the arg-max, write the one-hot value).
OpCost hardmax(const CostContext& c) {
    if (!c.inputKnown(0)) return unsupportedCost(OpKind::Vector);
    return normCost(c.inputElements(0), 2, 0, 0);
}

} // namespace

void registerNormalizationRules(CostRuleTable& table) {
    table[{"", "BatchNormalization"}] = batchNormalization;
    table[{"", "LayerNormalization"}] = layerNormalization;
    table[{"", "RMSNormalization"}] = rmsNormalization;
    table[{"", "GroupNormalization"}] = groupNormalization;
    table[{"", "InstanceNormalization"}] = instanceNormalization;
    table[{"", "LpNormalization"}] = lpNormalization;
    table[{"", "MeanVarianceNormalization"}] = meanVarianceNormalization;
    table[{"", "Softmax"}] = softmax;
    table[{"", "LogSoftmax"}] = logSoftmax;
    table[{"", "Hardmax"}] = hardmax;
    // onnxruntime registers SimplifiedLayerNormalization in the default domain as well.
    table[{"", "SimplifiedLayerNormalization"}] = rmsNormalization;
    table[{"com.microsoft", "SimplifiedLayerNormalization"}] = rmsNormalization;
    table[{"com.microsoft", "SkipLayerNormalization"}] = skipLayerNormalization;
    table[{"com.microsoft", "SkipSimplifiedLayerNormalization"}] = skipSimplifiedLayerNormalization;
    table[{"com.microsoft", "GroupNorm"}] = contribGroupNorm;
}

} // namespace rooftop
