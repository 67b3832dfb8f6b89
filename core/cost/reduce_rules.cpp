// SPDX-License-Identifier: GPL-3.0-or-later
// Reductions, arg-reductions, TopK and CumSum (Vector kind). X / Y = input / output element counts; every
// input element is touched once per listed op, every output element once per finishing op.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

#include <algorithm>

namespace rooftop {
namespace {

// XOps x X + YOps x Y vector ops, XSfu x X + YSfu x Y special-function ops.
template <int XOps, int YOps, int XSfu, int YSfu> OpCost reduction(const CostContext& c) {
    constexpr bool needsOutput = YOps != 0 || YSfu != 0;
    if (!c.inputKnown(0) || (needsOutput && !c.outputKnown(0))) return unsupportedCost(OpKind::Vector);
    const int64_t x = c.inputElements(0);
    const int64_t y = c.outputElements(0);
    OpCost cost;
    cost.kind = OpKind::Vector;
    cost.vectorOps = checkedAdd(checkedMul(x, XOps), checkedMul(y, YOps));
    cost.sfuOps = checkedAdd(checkedMul(x, XSfu), checkedMul(y, YSfu));
    return cost;
}

// K of TopK: the output's size along `axis`, else the folded value of input 1; 0 when neither is known.
int64_t topKCount(const CostContext& c) {
    const Tensor* values = c.output(0);
    if (values && values->shapeKnown && !values->dims.empty()) {
        const int64_t rank = static_cast<int64_t>(values->dims.size());
        int64_t axis = c.node().attributeInt("axis", -1);
        if (axis < 0) axis += rank;
        if (axis >= 0 && axis < rank) return values->dims[static_cast<size_t>(axis)];
    }
    const Tensor* k = c.input(1);
    if (k && k->intValues && k->intValues->size() == 1) return (*k->intValues)[0];
    return 0;
}

// ceil(log2(k)) for k >= 1.
int64_t ceilLog2(int64_t k) {
    int64_t bits = 0;
    while ((int64_t(1) << bits) < k && bits < 62)
        ++bits;
    return bits;
}

// TopK: a K-entry heap over the axis: X x max(1, ceil(log2 K)) compares.
OpCost topK(const CostContext& c) {
    const int64_t k = topKCount(c);
    if (!c.inputKnown(0) || k <= 0) return unsupportedCost(OpKind::Vector);
    OpCost cost;
    cost.kind = OpKind::Vector;
    cost.vectorOps = checkedMul(c.inputElements(0), std::max<int64_t>(1, ceilLog2(k)));
    return cost;
}

} // namespace

void registerReduceRules(CostRuleTable& table) {
    for (const char* op : {"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ArgMax", "ArgMin", "CumSum"})
        table[{"", op}] = reduction<1, 0, 0, 0>;            // X
    table[{"", "ReduceMean"}] = reduction<1, 1, 0, 0>;      // X adds + Y divides
    table[{"", "ReduceL1"}] = reduction<2, 0, 0, 0>;        // X abs + X adds
    table[{"", "ReduceSumSquare"}] = reduction<2, 0, 0, 0>; // X squares + X adds
    table[{"", "ReduceL2"}] = reduction<2, 0, 0, 1>;        // 2X + Y sqrt (SFU)
    table[{"", "ReduceLogSum"}] = reduction<1, 0, 0, 1>;    // X adds + Y log (SFU)
    table[{"", "ReduceLogSumExp"}] = reduction<2, 0, 1, 1>; // 3X incl. X exp (SFU) + Y log (SFU)
    table[{"", "TopK"}] = topK;
}

} // namespace rooftop
