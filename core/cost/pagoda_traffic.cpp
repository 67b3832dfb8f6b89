// SPDX-License-Identifier: GPL-3.0-or-later
// The byte side of the Pagoda study's analytical model (shared/reference/papers.md section 1.3). Each tensor
// is charged at its element size under the forced precision; counts the study derives (MatMul's K x N, BN's
// 2C, the LSTM's gate weights and states) take the element size of the tensor they stand for.
#include "core/cost/pagoda_traffic.h"

#include "core/graph/checked_math.h"

#include <set>
#include <string>

namespace rooftop {
namespace {

int64_t bytesLike(int64_t elements, const Tensor* like, Precision precision) {
    if (!like || elements <= 0) return 0;
    return precisionBytes(elements, like->type, precision);
}

int64_t bytesOf(const Tensor* tensor, Precision precision) {
    return tensor ? tensorBytes(*tensor, precision) : 0;
}

int64_t lastDim(const Tensor* tensor) {
    return tensor && tensor->shapeKnown && !tensor->dims.empty() ? tensor->dims.back() : 0;
}

// Weights 4(I.H + H.H) per direction (no biases); input S.B.I; output S.B.H and the final hidden and cell
// states 2.B.H, per direction.
NodeTraffic lstmTraffic(const CostContext& c, Precision precision) {
    NodeTraffic t;
    const Tensor* x = c.input(0);
    const Tensor* w = c.input(1);
    if (!x || !w || !x->shapeKnown || !w->shapeKnown || x->dims.size() != 3 || w->dims.size() != 3) return t;
    const int64_t hidden = c.node().attributeInt("hidden_size", 0);
    const int64_t steps = checkedMul(x->dims[0], x->dims[1]); // S x B in either layout
    const int64_t batch = c.node().attributeInt("layout", 0) == 0 ? x->dims[1] : x->dims[0];
    const int64_t directions = w->dims[0];
    const int64_t gates =
        checkedMul(4, checkedAdd(checkedMul(x->dims[2], hidden), checkedMul(hidden, hidden)));
    t.weightBytes = bytesLike(checkedMul(gates, directions), w, precision);
    t.inputBytes = tensorBytes(*x, precision);
    const int64_t out = checkedMul(
        checkedAdd(checkedMul(steps, hidden), checkedMul(2, checkedMul(batch, hidden))), directions);
    t.outputBytes = bytesLike(out, x, precision);
    return t;
}

} // namespace

NodeTraffic pagodaTraffic(const CostContext& c, Precision precision) {
    NodeTraffic t;
    const Node& node = c.node();
    if (!node.isDefaultDomain()) return t;
    const std::string& op = node.opType;
    const Tensor* x = c.input(0);
    const Tensor* y = c.output(0);
    static const std::set<std::string> activations = {"Relu",      "Sigmoid", "Tanh",    "HardSigmoid",
                                                      "HardSwish", "Swish",   "Softmax", "Erf"};
    if (op == "Conv" || op == "Gemm") {
        // The weight, never the bias.
        t.weightBytes = bytesOf(c.input(1), precision);
        t.inputBytes = bytesOf(x, precision);
        t.outputBytes = bytesOf(y, precision);
    } else if (op == "MatMul") {
        // B is charged as a K x N weight, K the reduced dim, N the output's columns, whatever B's batch dims.
        const Tensor* b = c.input(1);
        const int64_t columns = b && b->shapeKnown && b->dims.size() == 1 ? 1 : lastDim(y);
        t.weightBytes = bytesLike(checkedMul(lastDim(x), columns), b, precision);
        t.inputBytes = bytesOf(x, precision);
        t.outputBytes = bytesOf(y, precision);
    } else if (activations.count(op)) {
        t.inputBytes = bytesOf(y, precision);
        t.outputBytes = bytesOf(y, precision);
    } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
        // Both operands at the output's size: a broadcast operand counts as if expanded.
        t.inputBytes = checkedMul(bytesOf(y, precision), 2);
        t.outputBytes = bytesOf(y, precision);
    } else if (op == "BatchNormalization") {
        // Scale and bias, 2C: the running mean and variance are not charged.
        const int64_t channels = y && y->shapeKnown && y->dims.size() >= 2 ? y->dims[1] : 0;
        t.weightBytes = bytesLike(checkedMul(channels, 2), c.input(1), precision);
        t.inputBytes = bytesOf(x, precision);
        t.outputBytes = bytesOf(y, precision);
    } else if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "Transpose" ||
               op == "Flatten" || op == "Identity") {
        // One input and the first output (MaxPool's indices are not charged).
        t.inputBytes = bytesOf(x, precision);
        t.outputBytes = bytesOf(y, precision);
    } else if (op == "Concat") {
        for (size_t i = 0; i < c.inputCount(); ++i)
            t.inputBytes = checkedAdd(t.inputBytes, bytesOf(c.input(i), precision));
        t.outputBytes = bytesOf(y, precision);
    } else if (op == "ConstantOfShape") {
        t.outputBytes = bytesOf(y, precision);
    } else if (op == "LSTM") {
        return lstmTraffic(c, precision);
    }
    return t;
}

} // namespace rooftop
