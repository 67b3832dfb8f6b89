// SPDX-License-Identifier: GPL-3.0-or-later
// Casts, (de)quantisation and the com.microsoft QLinear* operators. A QLinear op costs its float counterpart
// plus 4 requantisation ops per output (dequantise the operands, requantise the result); bytes use each
// tensor's own dtype (traffic.cpp).
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

#include <algorithm>

namespace rooftop {
namespace {

constexpr int requantOps = 4; // dequantise the operands, requantise the result

// VectorOps + SfuOps per output element.
template <int VectorOps, int SfuOps, OpKind Kind> OpCost perOutput(const CostContext& c) {
    if (!c.outputKnown(0)) return unsupportedCost(Kind);
    OpCost cost;
    cost.kind = Kind;
    cost.vectorOps = checkedMul(c.outputElements(0), VectorOps);
    cost.sfuOps = checkedMul(c.outputElements(0), SfuOps);
    return cost;
}

// DynamicQuantizeLinear: min and max over X (2X) + quantise (3X); the O(1) scale / zero-point math is
// ignored.
OpCost dynamicQuantizeLinear(const CostContext& c) {
    if (!c.inputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost;
    cost.kind = OpKind::Vector;
    cost.vectorOps = checkedMul(c.inputElements(0), 5);
    return cost;
}

// QLinearGlobalAveragePool: X adds + Y divides + 4 requant ops per output.
OpCost qlinearGlobalAveragePool(const CostContext& c) {
    if (!c.inputKnown(0) || !c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost;
    cost.kind = OpKind::Vector;
    cost.vectorOps = checkedAdd(c.inputElements(0), checkedMul(c.outputElements(0), 1 + requantOps));
    return cost;
}

// QLinearAveragePool: Y x K adds + Y divides + 4 requant ops per output (K = all kernel dims).
OpCost qlinearAveragePool(const CostContext& c) {
    const std::vector<int64_t> kernel = c.node().attributeInts("kernel_shape");
    if (kernel.empty() || !c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    int64_t k = 1;
    for (int64_t d : kernel)
        k = checkedMul(k, std::max<int64_t>(0, d));
    OpCost cost;
    cost.kind = OpKind::Vector;
    cost.vectorOps = checkedMul(c.outputElements(0), checkedAdd(k, 1 + requantOps));
    return cost;
}

// QLinearConcat: a copy that requantises every output element to the output scale: 2 ops per output.
OpCost qlinearConcat(const CostContext& c) {
    if (!c.outputKnown(0)) return unsupportedCost(OpKind::DataMovement);
    OpCost cost;
    cost.kind = OpKind::DataMovement;
    cost.vectorOps = checkedMul(c.outputElements(0), 2);
    return cost;
}

} // namespace

void registerQuantizationRules(CostRuleTable& table) {
    constexpr OpKind pw = OpKind::Pointwise;
    for (const char* domain : {"", "com.microsoft"}) {
        table[{domain, "QuantizeLinear"}] = perOutput<3, 0, pw>; // divide by scale, round + saturate, add zp
        table[{domain, "DequantizeLinear"}] = perOutput<2, 0, pw>; // subtract zp, multiply by scale
    }
    table[{"", "Cast"}] = perOutput<1, 0, pw>; // 1 conversion per element
    table[{"", "CastLike"}] = perOutput<1, 0, pw>;
    table[{"", "DynamicQuantizeLinear"}] = dynamicQuantizeLinear;
    const char* ms = "com.microsoft";
    table[{ms, "QLinearAdd"}] = perOutput<1 + requantOps, 0, pw>;       // add + 4 requant
    table[{ms, "QLinearMul"}] = perOutput<1 + requantOps, 0, pw>;       // multiply + 4 requant
    table[{ms, "QLinearLeakyRelu"}] = perOutput<2 + requantOps, 0, pw>; // LeakyRelu (2) + 4 requant
    table[{ms, "QLinearSigmoid"}] = perOutput<3 + requantOps, 1, pw>;   // Sigmoid (3 + 1 SFU) + 4 requant
    table[{ms, "QLinearSoftmax"}] = perOutput<4 + requantOps, 1, OpKind::Vector>; // Softmax (4 + 1 SFU) + 4
    table[{ms, "QLinearGlobalAveragePool"}] = qlinearGlobalAveragePool;
    table[{ms, "QLinearAveragePool"}] = qlinearAveragePool;
    table[{ms, "QLinearConcat"}] = qlinearConcat;
}

} // namespace rooftop
