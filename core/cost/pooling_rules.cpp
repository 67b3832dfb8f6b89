// SPDX-License-Identifier: GPL-3.0-or-later
// Pooling, resampling and region-of-interest ops (Vector kind): a fixed number of ops per output element,
// from the window volume K (product of ALL kernel dims, so 3-D kernels are counted in full) or from the
// interpolation taps. X / Y = input / output element counts.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <string>

namespace rooftop {
namespace {

OpCost vectorCost() {
    OpCost cost;
    cost.kind = OpKind::Vector;
    return cost;
}

// K = product of every kernel_shape dim; 0 when the attribute is missing.
int64_t kernelVolume(const Node& node) {
    const std::vector<int64_t> kernel = node.attributeInts("kernel_shape");
    if (kernel.empty()) return 0;
    int64_t volume = 1;
    for (int64_t k : kernel)
        volume = checkedMul(volume, std::max<int64_t>(0, k));
    return volume;
}

// MaxPool: Y x (K - 1) compares.
OpCost maxPool(const CostContext& c) {
    const int64_t k = kernelVolume(c.node());
    if (k == 0 || !c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost = vectorCost();
    cost.vectorOps = checkedMul(c.outputElements(0), k - 1);
    return cost;
}

// AveragePool: Y x K adds + Y divides.
OpCost averagePool(const CostContext& c) {
    const int64_t k = kernelVolume(c.node());
    if (k == 0 || !c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost = vectorCost();
    cost.vectorOps = checkedMul(c.outputElements(0), checkedAdd(k, 1));
    return cost;
}

// LpPool: Y x K x 2 (|x|^p and accumulate) + Y SFU (the p-th root).
OpCost lpPool(const CostContext& c) {
    const int64_t k = kernelVolume(c.node());
    if (k == 0 || !c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost = vectorCost();
    const int64_t outputs = c.outputElements(0);
    cost.vectorOps = checkedMul(checkedMul(outputs, k), 2);
    cost.sfuOps = outputs;
    return cost;
}

// GlobalAveragePool: X adds + Y divides.
OpCost globalAveragePool(const CostContext& c) {
    if (!c.inputKnown(0) || !c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost = vectorCost();
    cost.vectorOps = checkedAdd(c.inputElements(0), c.outputElements(0));
    return cost;
}

// GlobalMaxPool: X compares.
OpCost globalMaxPool(const CostContext& c) {
    if (!c.inputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost = vectorCost();
    cost.vectorOps = c.inputElements(0);
    return cost;
}

// GlobalLpPool: 2X (|x|^p and accumulate) + Y SFU (the p-th root).
OpCost globalLpPool(const CostContext& c) {
    if (!c.inputKnown(0) || !c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost = vectorCost();
    cost.vectorOps = checkedMul(c.inputElements(0), 2);
    cost.sfuOps = c.outputElements(0);
    return cost;
}

// MaxRoiPool: the RoI extent is data, so each RoI is taken to cover the whole feature map (an upper bound):
// Y x (ceil(H / ph) x ceil(W / pw) - 1) compares.
OpCost maxRoiPool(const CostContext& c) {
    const Tensor* x = c.input(0);
    const std::vector<int64_t> pooled = c.node().attributeInts("pooled_shape");
    if (!x || !x->shapeKnown || x->dims.size() != 4 || pooled.size() != 2 || pooled[0] <= 0 ||
        pooled[1] <= 0 || !c.outputKnown(0))
        return unsupportedCost(OpKind::Vector);
    const int64_t binH = (x->dims[2] + pooled[0] - 1) / pooled[0];
    const int64_t binW = (x->dims[3] + pooled[1] - 1) / pooled[1];
    OpCost cost = vectorCost();
    cost.vectorOps = checkedMul(c.outputElements(0), std::max<int64_t>(0, checkedMul(binH, binW) - 1));
    return cost;
}

// RoiAlign: S = sampling_ratio^2 samples per bin (adaptive sampling_ratio 0 taken as 2 x 2), each a bilinear
// interpolation of 7 ops (4 mul + 3 add); avg adds S - 1 and divides once, max compares S - 1:
// Y x 8S (avg) or Y x (8S - 1) (max).
OpCost roiAlign(const CostContext& c) {
    if (!c.outputKnown(0)) return unsupportedCost(OpKind::Vector);
    int64_t ratio = c.node().attributeInt("sampling_ratio", 0);
    if (ratio <= 0) ratio = 2;
    const int64_t samples = checkedMul(ratio, ratio);
    int64_t perOutput = checkedMul(samples, 8);
    if (c.node().attributeString("mode", "avg") == "max") perOutput -= 1;
    OpCost cost = vectorCost();
    cost.vectorOps = checkedMul(c.outputElements(0), perOutput);
    return cost;
}

// Ops per output of an n-axis interpolation: linear 2^n mul + (2^n - 1) add, cubic 4^n mul + (4^n - 1) add,
// nearest 0; 0 as well when no axis is resized (a copy).
int64_t interpolationOps(const std::string& mode, size_t axes) {
    int64_t tapsPerAxis = 0;
    if (mode == "linear" || mode == "bilinear" || mode == "trilinear")
        tapsPerAxis = 2;
    else if (mode == "cubic" || mode == "bicubic")
        tapsPerAxis = 4;
    if (tapsPerAxis == 0 || axes == 0) return 0;
    int64_t taps = 1;
    for (size_t i = 0; i < axes; ++i)
        taps = checkedMul(taps, tapsPerAxis);
    return checkedAdd(taps, taps - 1);
}

// Resize / Upsample: Y x interpolationOps(mode, n), n = number of axes whose size changes.
OpCost resize(const CostContext& c) {
    const Tensor* x = c.input(0);
    const Tensor* y = c.output(0);
    if (!x || !y || !x->shapeKnown || !y->shapeKnown || x->dims.size() != y->dims.size())
        return unsupportedCost(OpKind::Vector);
    size_t resized = 0;
    for (size_t i = 0; i < x->dims.size(); ++i)
        if (x->dims[i] != y->dims[i]) ++resized;
    OpCost cost = vectorCost();
    const std::string mode = c.node().attributeString("mode", "nearest");
    cost.vectorOps = checkedMul(y->elementCount(), interpolationOps(mode, resized));
    return cost;
}

// GridSample: every output samples all rank - 2 spatial axes: Y x interpolationOps(mode, rank - 2)
// (bilinear 2-D: 7 per output).
OpCost gridSample(const CostContext& c) {
    const Tensor* y = c.output(0);
    if (!y || !y->shapeKnown || y->dims.size() < 3) return unsupportedCost(OpKind::Vector);
    OpCost cost = vectorCost();
    const std::string mode = c.node().attributeString("mode", "bilinear");
    cost.vectorOps = checkedMul(y->elementCount(), interpolationOps(mode, y->dims.size() - 2));
    return cost;
}

} // namespace

void registerPoolingRules(CostRuleTable& table) {
    table[{"", "MaxPool"}] = maxPool;
    table[{"", "AveragePool"}] = averagePool;
    table[{"", "LpPool"}] = lpPool;
    table[{"", "GlobalAveragePool"}] = globalAveragePool;
    table[{"", "GlobalMaxPool"}] = globalMaxPool;
    table[{"", "GlobalLpPool"}] = globalLpPool;
    table[{"", "MaxRoiPool"}] = maxRoiPool;
    table[{"", "RoiAlign"}] = roiAlign;
    table[{"", "Resize"}] = resize;
    table[{"", "Upsample"}] = resize;
    table[{"", "GridSample"}] = gridSample;
    table[{"com.microsoft", "NhwcMaxPool"}] = maxPool;
}

} // namespace rooftop
