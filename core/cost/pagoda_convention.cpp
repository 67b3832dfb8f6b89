// SPDX-License-Identifier: GPL-3.0-or-later
// The per-op FLOP constants of the Pagoda study's analytical model (shared/reference/papers.md section 1.3).
#include "core/cost/pagoda_convention.h"

#include "core/graph/checked_math.h"

#include <map>
#include <string>

namespace rooftop {
namespace {

int64_t poolKernelVolume(const Node& node) {
    int64_t volume = 1;
    for (int64_t k : node.attributeInts("kernel_shape"))
        volume = checkedMul(volume, k);
    return volume;
}

} // namespace

std::optional<int64_t> pagodaFlops(const CostContext& c, const OpCost& ours) {
    const Node& node = c.node();
    if (!node.isDefaultDomain()) return std::nullopt;
    const std::string& op = node.opType;
    static const std::map<std::string, int64_t> perElement = {
        {"Relu", 1},  {"Sigmoid", 4}, {"Tanh", 5}, {"HardSigmoid", 4},        {"HardSwish", 5},
        {"Swish", 5}, {"Softmax", 7}, {"Erf", 8},  {"BatchNormalization", 2}, {"Add", 1},
        {"Sub", 1},   {"Mul", 1},     {"Div", 1}};
    if (auto it = perElement.find(op); it != perElement.end())
        return checkedMul(c.outputElements(0), it->second);
    if (op == "Conv") return 2 * ours.macs + (c.input(2) ? c.outputElements(0) : 0);
    if (op == "Gemm" || op == "MatMul") return checkedMul(ours.macs, 2);
    if (op == "MaxPool") return checkedMul(c.outputElements(0), poolKernelVolume(node) - 1);
    if (op == "AveragePool") return checkedMul(c.outputElements(0), poolKernelVolume(node));
    if (op == "GlobalAveragePool") return c.inputElements(0);
    if (op == "Transpose" || op == "Concat" || op == "Flatten" || op == "Identity" || op == "ConstantOfShape")
        return 0;
    if (op == "LSTM") {
        // 4(I.H + H.H).B.S + 4H.B.S + (3.4 + 5)H.B.S + 3H.B.S per direction, no x2 per MAC.
        const Tensor* x = c.input(0);
        const Tensor* w = c.input(1);
        const int64_t hidden = node.attributeInt("hidden_size", 0);
        if (!x || !w || !x->shapeKnown || !w->shapeKnown || x->dims.size() != 3 || w->dims.size() != 3)
            return std::nullopt;
        const int64_t steps = x->dims[0] * x->dims[1]; // S x B (layout 0) or B x S (layout 1)
        const int64_t input = x->dims[2];
        const int64_t directions = w->dims[0];
        const int64_t perStep =
            4 * (input * hidden + hidden * hidden) + 4 * hidden + 17 * hidden + 3 * hidden;
        return checkedMul(checkedMul(perStep, steps), directions);
    }
    return std::nullopt;
}

} // namespace rooftop
