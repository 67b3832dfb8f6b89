// SPDX-License-Identifier: GPL-3.0-or-later
// Convolutions. MACs = output positions x output channels x (Cin / groups) x kernel volume; transposed
// convolutions from the *input* positions (the output-based formula other counters use over-counts).
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

namespace rooftop {
namespace {

int64_t kernelVolume(const Tensor& weights) {
    int64_t volume = 1;
    for (size_t i = 2; i < weights.dims.size(); ++i)
        volume = checkedMul(volume, weights.dims[i]);
    return volume;
}

// MACs of a direct convolution whose weights are [Cout, Cin/G, k...].
OpCost directConv(const CostContext& c, size_t weightInput, int biasInput) {
    OpCost cost;
    cost.kind = OpKind::Matrix;
    const Tensor* w = c.input(weightInput);
    if (!w || !w->shapeKnown || w->dims.size() < 2 || !c.outputKnown(0)) {
        cost.supported = false;
        return cost;
    }
    const int64_t outputs = c.outputElements(0); // N x Cout x O
    cost.macs = checkedMul(checkedMul(outputs, w->dims[1]), kernelVolume(*w));
    if (biasInput >= 0 && c.input(static_cast<size_t>(biasInput))) cost.vectorOps = outputs;
    return cost;
}

OpCost conv(const CostContext& c) {
    return directConv(c, 1, 2);
}

OpCost convInteger(const CostContext& c) {
    return directConv(c, 1, -1);
}

// QLinearConv: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B; one requantisation per output.
OpCost qlinearConv(const CostContext& c) {
    OpCost cost = directConv(c, 3, 8);
    cost.vectorOps = checkedAdd(cost.vectorOps, c.outputElements(0));
    return cost;
}

// com.microsoft FusedConv: Conv + bias + optional sum input Z + activation, one op per output each.
OpCost fusedConv(const CostContext& c) {
    OpCost cost = directConv(c, 1, 2);
    const int64_t outputs = c.outputElements(0);
    if (c.input(3)) cost.vectorOps = checkedAdd(cost.vectorOps, outputs);
    if (!c.node().attributeString("activation", "").empty())
        cost.vectorOps = checkedAdd(cost.vectorOps, outputs);
    return cost;
}

// ConvTranspose: weights [Cin, Cout/G, k...]; every input position scatters into Cout/G x K outputs.
OpCost convTranspose(const CostContext& c) {
    OpCost cost;
    cost.kind = OpKind::Matrix;
    const Tensor* w = c.input(1);
    if (!w || !w->shapeKnown || w->dims.size() < 2 || !c.inputKnown(0)) {
        cost.supported = false;
        return cost;
    }
    cost.macs = checkedMul(checkedMul(c.inputElements(0), w->dims[1]), kernelVolume(*w));
    if (c.input(2)) cost.vectorOps = c.outputElements(0);
    return cost;
}

// DeformConv: a convolution plus bilinear sampling of every tap (4 MACs + 3 adds per sampled value).
OpCost deformConv(const CostContext& c) {
    OpCost cost = directConv(c, 1, 3);
    const Tensor* w = c.input(1);
    if (cost.supported && w) {
        const int64_t taps = checkedMul(checkedMul(c.outputElements(0) / std::max<int64_t>(1, w->dims[0]),
                                                   w->dims[1] * c.node().attributeInt("group", 1)),
                                        kernelVolume(*w));
        cost.macs = checkedAdd(cost.macs, checkedMul(taps, 4));
        cost.vectorOps = checkedAdd(cost.vectorOps, checkedMul(taps, 3));
    }
    return cost;
}

} // namespace

void registerConvRules(CostRuleTable& table) {
    table[{"", "Conv"}] = conv;
    table[{"", "ConvInteger"}] = convInteger;
    table[{"", "QLinearConv"}] = qlinearConv;
    table[{"", "ConvTranspose"}] = convTranspose;
    table[{"", "DeformConv"}] = deformConv;
    table[{"com.microsoft", "FusedConv"}] = fusedConv;
    table[{"com.microsoft", "NhwcConv"}] = conv;
    table[{"com.microsoft", "QLinearConv"}] = qlinearConv;
}

} // namespace rooftop
