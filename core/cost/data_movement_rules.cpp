// SPDX-License-Identifier: GPL-3.0-or-later
// Copies and metadata. Data movement (concat, slice, gather, transpose, pad, ...) does no arithmetic: 0
// FLOPs, its bytes (inputs read + outputs written) come from traffic.cpp. Aliases (reshape, squeeze,
// identity, ...) only rewrite metadata: 0 FLOPs and, in the fused view, 0 bytes.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

namespace rooftop {
namespace {

bool allOutputsKnown(const CostContext& c) {
    bool any = false;
    for (size_t i = 0; i < c.outputCount(); ++i) {
        if (!c.output(i)) continue;
        if (!c.outputKnown(i)) return false;
        any = true;
    }
    return any;
}

OpCost movement(bool supported) {
    OpCost cost;
    cost.kind = OpKind::DataMovement;
    cost.supported = supported;
    return cost;
}

// A copy kernel: 0 FLOPs; needs its output shapes for the bytes.
OpCost copy(const CostContext& c) {
    return movement(allOutputsKnown(c));
}

// A copy whose output size is data-dependent or a sequence (NonZero, Unique, ...): needs the input shape.
OpCost dataDependentCopy(const CostContext& c) {
    return movement(c.inputKnown(0));
}

// Gather family and Slice on a weight read only the elements they return: weights read = Y.
OpCost partialRead(const CostContext& c) {
    OpCost cost = copy(c);
    const Tensor* data = c.input(0);
    if (cost.supported && data && data->isWeight()) cost.weightElementsRead = c.outputElements(0);
    return cost;
}

// ScatterND / ScatterElements: 0 FLOPs, or 1 op per update with reduction add / mul / max / min.
OpCost scatter(const CostContext& c) {
    OpCost cost = copy(c);
    if (c.node().attributeString("reduction", "none") != "none") cost.vectorOps = c.inputElements(2);
    return cost;
}

// Col2Im: overlapping patches are summed into the image: X adds.
OpCost col2Im(const CostContext& c) {
    OpCost cost = copy(c);
    cost.vectorOps = c.inputElements(0);
    return cost;
}

// Reshape-like: metadata only, 0 FLOPs; bytes only in the per-node view.
OpCost alias(const CostContext&) {
    OpCost cost;
    cost.kind = OpKind::Alias;
    return cost;
}

} // namespace

namespace {

OpCost shapeQuery(const CostContext&) {
    OpCost cost;
    cost.kind = OpKind::Control;
    return cost;
}

} // namespace

void registerDataMovementRules(CostRuleTable& table) {
    for (const char* op : {"Concat", "Split", "Transpose", "Expand", "Tile", "Pad", "DepthToSpace",
                           "SpaceToDepth", "ConstantOfShape", "Range", "Trilu", "OneHot", "ReverseSequence",
                           "EyeLike", "MaxUnpool", "CenterCropPad", "ConcatFromSequence"})
        table[{"", op}] = copy;
    for (const char* op : {"NonZero", "Unique", "Compress", "SplitToSequence"})
        table[{"", op}] = dataDependentCopy;
    for (const char* op : {"Gather", "GatherElements", "GatherND", "Slice"})
        table[{"", op}] = partialRead;
    for (const char* op : {"Scatter", "ScatterND", "ScatterElements"})
        table[{"", op}] = scatter;
    table[{"", "Col2Im"}] = col2Im;
    for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout"})
        table[{"", op}] = alias;
    // Shape and Size read only a tensor's metadata, on the host: no kernel, no bytes.
    table[{"", "Shape"}] = shapeQuery;
    table[{"", "Size"}] = shapeQuery;
}

} // namespace rooftop
