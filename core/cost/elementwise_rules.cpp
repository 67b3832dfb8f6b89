// SPDX-License-Identifier: GPL-3.0-or-later
// Elementwise arithmetic and activations: a fixed number of ops per output element (after broadcast).
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

namespace rooftop {
namespace {

// Ops per output element; SFU ops (exp, log, tanh, erf, sqrt, reciprocal, trig) are counted apart.
template <int VectorOps, int SfuOps> OpCost perOutput(const CostContext& c) {
    OpCost cost;
    cost.kind = OpKind::Pointwise;
    if (!c.outputKnown(0)) {
        cost.supported = false;
        return cost;
    }
    const int64_t outputs = c.outputElements(0);
    cost.vectorOps = checkedMul(outputs, VectorOps);
    cost.sfuOps = checkedMul(outputs, SfuOps);
    return cost;
}

// Variadic Sum/Max/Min/Mean: n - 1 ops per output, plus one divide for Mean.
template <int Extra> OpCost variadic(const CostContext& c) {
    OpCost cost;
    cost.kind = OpKind::Pointwise;
    if (!c.outputKnown(0)) {
        cost.supported = false;
        return cost;
    }
    int64_t operands = 0;
    for (size_t i = 0; i < c.inputCount(); ++i)
        if (c.input(i)) ++operands;
    cost.vectorOps = checkedMul(c.outputElements(0), std::max<int64_t>(0, operands - 1) + Extra);
    return cost;
}

// Gelu: erf form 4 ops + 1 SFU; tanh approximation 8 ops + 1 SFU.
OpCost gelu(const CostContext& c) {
    return c.node().attributeString("approximate", "none") == "tanh" ? perOutput<8, 1>(c)
                                                                     : perOutput<4, 1>(c);
}

} // namespace

void registerElementwiseRules(CostRuleTable& table) {
    for (const char* op :
         {"Add",   "Sub",         "Mul",        "Div",       "Neg",        "Abs",        "Relu",
          "Floor", "Ceil",        "Round",      "Sign",      "Equal",      "Greater",    "GreaterOrEqual",
          "Less",  "LessOrEqual", "And",        "Or",        "Xor",        "Not",        "Where",
          "Mod",   "BitShift",    "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "ThresholdedRelu",
          "IsNaN", "IsInf"})
        table[{"", op}] = perOutput<1, 0>;
    for (const char* op : {"Exp", "Log", "Sqrt", "Tanh", "Erf", "Reciprocal", "Pow", "Sin", "Cos", "Tan",
                           "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh"})
        table[{"", op}] = perOutput<0, 1>;
    table[{"", "LeakyRelu"}] = perOutput<2, 0>;
    table[{"", "PRelu"}] = perOutput<2, 0>;
    table[{"", "Clip"}] = perOutput<2, 0>;
    table[{"", "Shrink"}] = perOutput<2, 0>;
    table[{"", "Sigmoid"}] = perOutput<3, 1>;
    table[{"", "HardSigmoid"}] = perOutput<4, 0>;
    table[{"", "HardSwish"}] = perOutput<5, 0>;
    table[{"", "Elu"}] = perOutput<2, 1>;
    table[{"", "Selu"}] = perOutput<3, 1>;
    table[{"", "Celu"}] = perOutput<3, 1>;
    table[{"", "Softplus"}] = perOutput<1, 2>;
    table[{"", "Softsign"}] = perOutput<3, 0>;
    table[{"", "Mish"}] = perOutput<2, 3>;
    table[{"", "Swish"}] = perOutput<4, 1>;
    table[{"", "Gelu"}] = gelu;
    table[{"", "Sum"}] = variadic<0>;
    table[{"", "Max"}] = variadic<0>;
    table[{"", "Min"}] = variadic<0>;
    table[{"", "Mean"}] = variadic<1>;
    table[{"com.microsoft", "Gelu"}] = perOutput<4, 1>;
    table[{"com.microsoft", "BiasGelu"}] = perOutput<5, 1>;
    table[{"com.microsoft", "FastGelu"}] = perOutput<9, 1>;
    table[{"com.microsoft", "QuickGelu"}] = perOutput<5, 1>;
    table[{"com.microsoft", "BiasAdd"}] = perOutput<2, 0>;
}

} // namespace rooftop
