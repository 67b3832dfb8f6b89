// SPDX-License-Identifier: GPL-3.0-or-later
// Backward passes, per operator family. g = the output gradient dY, y = the output, x = the input;
// "n/elem" counts vector ops per element of the tensor named. Where a formula has no source of its own, it
// is the chain rule written out (d/dx of the forward, times g) with PyTorch's autograd formulas
// (tools/autograd/derivatives.yaml) as the reference for what is saved; docs/training.md lists them all.
#include "core/cost/training_rules.h"

#include "core/cost/traffic.h"
#include "core/graph/checked_math.h"

#include <map>
#include <string>

namespace rooftop {
namespace {

enum class Saves { Nothing, Inputs, Outputs, Both };

BackwardWork perElement(int64_t elements, int64_t vectorPerElement, int64_t sfuPerElement, Saves saves) {
    BackwardWork work;
    work.backward.vectorOps = checkedMul(elements, vectorPerElement);
    work.backward.sfuOps = checkedMul(elements, sfuPerElement);
    work.savesInputs = saves == Saves::Inputs || saves == Saves::Both;
    work.savesOutputs = saves == Saves::Outputs || saves == Saves::Both;
    return work;
}

int64_t pooledWindowVolume(const Node& node) {
    int64_t volume = 1;
    for (int64_t k : node.attributeInts("kernel_shape"))
        volume = checkedMul(volume, k);
    return volume;
}

// Rows of a normalization over dims[axis:] of input 0 (LayerNormalization's axis, default -1).
int64_t normalizedRows(const CostContext& c) {
    const Tensor* x = c.input(0);
    if (!x || !x->shapeKnown || x->dims.empty()) return 0;
    const int64_t rank = static_cast<int64_t>(x->dims.size());
    int64_t axis = c.node().attributeInt("axis", -1);
    if (axis < 0) axis += rank;
    int64_t rows = 1;
    for (int64_t i = 0; i < axis && i < rank; ++i)
        rows = checkedMul(rows, x->dims[static_cast<size_t>(i)]);
    return rows;
}

// Matrix ops (Conv, Gemm, MatMul, attention, recurrent): the input gradient dX = g * W^T and the weight
// gradient dW = X^T * g are each a product as large as the forward, so 2x its MACs (dX is always counted,
// also for a first layer whose input needs none). The bias gradient sum(g) over the batch and positions is
// one add per output, the same count as the forward's bias add; alpha/beta scalings of g mirror the
// forward's. Attention's dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q are 2x its QK^T and PV; its
// softmax backward, 4/score (see softmax below), takes the place of the forward's 4 vector ops per score
// (its exp has no counterpart, so SFU ops are dropped). Recurrent cells' gate derivatives are taken as the
// forward's pointwise work.
BackwardWork matrixBackward(const CostContext& c, const OpCost& forward) {
    BackwardWork work;
    work.backward.macs = checkedMul(forward.macs, 2);
    work.backward.vectorOps = forward.vectorOps;
    const std::string& op = c.node().opType;
    const bool attention = op == "Attention" || op == "MultiHeadAttention" || op == "GroupQueryAttention";
    work.backward.sfuOps = attention ? 0 : forward.sfuOps;
    work.savesInputs = true;
    work.readsWeights = true;
    work.savesOutputs = op == "LSTM" || op == "GRU" || op == "RNN" || attention;
    return work;
}

// BatchNormalization in training normalizes with the batch's statistics (Ioffe & Szegedy 2015). Forward:
// mean, sub, square, sum, x rstd, x gamma, + beta = 7/elem (inference's 2 + 5), 1 rsqrt per channel, and the
// running mean and variance r = (1-m) r + m s: 3 ops each, 6 per channel. It saves the batch mean and
// inverse std (2C fp32, PyTorch's save_mean / save_invstd) and writes the running statistics back.
// Backward (PyTorch batch_norm_backward, CUDA Normalization.cuh): sum(g) 1/elem and sum(g (x - mean))
// 3/elem, then dx = (g - mean(g) - (x - mean) invstd^2 mean(g (x - mean))) invstd gamma, 5/elem: 9/elem;
// per channel mean(g), mean(g (x - mean)), dgamma = invstd sum(...), dbeta = sum(g) and the two folded
// scales: 6.
BackwardWork batchNormalizationBackward(const CostContext& c, Precision precision) {
    const Tensor* x = c.input(0);
    const int64_t elements = c.inputElements(0);
    const int64_t channels = x && x->dims.size() >= 2 ? x->dims[1] : 1;
    BackwardWork work = perElement(elements, 9, 0, Saves::Inputs);
    work.backward.vectorOps = checkedAdd(work.backward.vectorOps, checkedMul(channels, 6));
    work.forwardExtra.vectorOps = checkedAdd(checkedMul(elements, 5), checkedMul(channels, 6));
    work.forwardExtra.sfuOps = channels;
    work.readsWeights = true;
    work.savedStateBytes = checkedMul(channels, int64_t(2 * 4));
    for (size_t i : {size_t(3), size_t(4)})
        if (const Tensor* stat = c.input(i); stat && stat->shapeKnown)
            work.forwardStateBytes = checkedAdd(work.forwardStateBytes,
                                                precisionBytes(stat->elementCount(), stat->type, precision));
    return work;
}

// LayerNormalization over rows of D (PyTorch layer_norm_backward): xhat = (x - mean) rstd recomputed 2,
// gx = g gamma 1, sum(gx) 1, sum(gx xhat) 2, dx = rstd (gx - sum(gx)/D - xhat sum(gx xhat)/D) 4 with the
// 1/D folded into 2 per-row scalars, dgamma = sum over rows of g xhat 2, dbeta = sum(g) 1 when there is a
// bias: 12/elem (13 with bias) + 2/row. It saves the row means and rstds (2 fp32 per row).
BackwardWork layerNormalizationBackward(const CostContext& c) {
    const int64_t rows = normalizedRows(c);
    BackwardWork work = perElement(c.inputElements(0), c.input(2) ? 13 : 12, 0, Saves::Inputs);
    work.backward.vectorOps = checkedAdd(work.backward.vectorOps, checkedMul(rows, 2));
    work.readsWeights = true;
    work.savedStateBytes = checkedMul(rows, int64_t(2 * 4));
    return work;
}

// Add / Sub: the gradient of an operand at the output's size is g itself (Sub's second one -g, 1/elem); a
// broadcast operand's is g summed over the broadcast dims (outputs - its elements adds).
BackwardWork addBackward(const CostContext& c, bool subtract) {
    BackwardWork work;
    const int64_t outputs = c.outputElements(0);
    for (size_t i = 0; i < c.inputCount() && i < 2; ++i) {
        if (!c.input(i)) continue;
        const int64_t elements = c.inputElements(i);
        const bool negated = subtract && i == 1;
        if (elements == outputs && !negated) {
            work.passThrough |= 1u << i;
            continue;
        }
        work.backward.vectorOps = checkedAdd(work.backward.vectorOps, outputs - elements);
        if (negated) work.backward.vectorOps = checkedAdd(work.backward.vectorOps, elements);
    }
    return work;
}

// Mul: da = g b, db = g a: 1/output each, + the broadcast reductions (outputs - elements adds).
// Div: da = g / b 1/output, db = -da y 2/output, + the reductions; saves b and y.
BackwardWork productBackward(const CostContext& c, bool divide) {
    BackwardWork work;
    const int64_t outputs = c.outputElements(0);
    work.savesInputs = true;
    work.readsWeights = true; // a weight operand is the other operand's gradient factor
    work.savesOutputs = divide;
    for (size_t i = 0; i < c.inputCount() && i < 2; ++i) {
        if (!c.input(i)) continue;
        const int64_t perOutput = divide && i == 1 ? 2 : 1;
        work.backward.vectorOps =
            checkedAdd(work.backward.vectorOps,
                       checkedAdd(checkedMul(outputs, perOutput), outputs - c.inputElements(i)));
    }
    return work;
}

// Elementwise activations with a closed-form derivative: (vector ops, SFU ops) per element and what is
// saved. Relu: g * (y > 0), 1 compare+select. Sigmoid: g y (1 - y), 3. Tanh: g (1 - y^2), 3. Exp: g y, 1.
// Log: g / x, 1. Sqrt: g 0.5 / y, 2. Reciprocal: -g y^2, 3. Neg: -g, 1. LeakyRelu: select(x > 0, g, alpha
// g), 2. Clip: g where min <= x <= max, 2 compares folded into a select: 2. Erf: g 2/sqrt(pi) exp(-x^2):
// square, neg, 2 mul, 1 exp. HardSigmoid: alpha g inside 0 < alpha x + beta < 1: 2 compares, mul = 3.
// HardSwish: g (2x + 3) / 6 inside -3 < x < 3, g above: 2 compares, mul, add, mul = 5.
struct Closed {
    int vector;
    int sfu;
    Saves saves;
};

const std::map<std::string, Closed>& closedForms() {
    static const std::map<std::string, Closed> forms = {
        {"Relu", {1, 0, Saves::Outputs}},       {"Sigmoid", {3, 0, Saves::Outputs}},
        {"Tanh", {3, 0, Saves::Outputs}},       {"Exp", {1, 0, Saves::Outputs}},
        {"Log", {1, 0, Saves::Inputs}},         {"Sqrt", {2, 0, Saves::Outputs}},
        {"Reciprocal", {3, 0, Saves::Outputs}}, {"Neg", {1, 0, Saves::Nothing}},
        {"LeakyRelu", {2, 0, Saves::Inputs}},   {"Clip", {2, 0, Saves::Inputs}},
        {"Erf", {4, 1, Saves::Inputs}},         {"HardSigmoid", {3, 0, Saves::Inputs}},
        {"HardSwish", {5, 0, Saves::Inputs}}};
    return forms;
}

// The fallback: the forward's arithmetic again (the derivative costs about the function) plus one multiply
// by g per input element; saves the inputs. Marked estimated.
BackwardWork estimatedBackward(const CostContext& c, const OpCost& forward) {
    BackwardWork work;
    work.backward.macs = checkedMul(forward.macs, 2);
    work.backward.vectorOps = checkedAdd(forward.vectorOps, c.inputElements(0));
    work.backward.sfuOps = forward.sfuOps;
    work.savesInputs = true;
    work.readsWeights = true;
    work.estimated = true;
    return work;
}

} // namespace

bool isTrainableInput(const CostContext& c, size_t input) {
    const Tensor* t = c.input(input);
    if (!t || t->origin != TensorOrigin::Initializer || !t->shapeKnown || !isFloatingPoint(t->type))
        return false;
    const Node& node = c.node();
    return !(node.isDefaultDomain() && node.opType == "BatchNormalization" && (input == 3 || input == 4));
}

BackwardWork backwardWork(const CostContext& c, const OpCost& forward, Precision precision) {
    const Node& node = c.node();
    const std::string& op = node.opType;
    const int64_t inputs = c.inputElements(0);
    const int64_t outputs = c.outputElements(0);
    if (forward.kind == OpKind::Control) return {};
    if (node.isDefaultDomain()) {
        if (op == "BatchNormalization") return batchNormalizationBackward(c, precision);
        if (op == "LayerNormalization") return layerNormalizationBackward(c);
        // Softmax: dx = y (g - sum(g y)) per row: g y, sum, sub, x y = 4/elem; saves y.
        if (op == "Softmax") return perElement(inputs, 4, 0, Saves::Outputs);
        // LogSoftmax: dx = g - exp(y) sum(g): sum, exp (SFU), mul, sub = 3/elem + 1 SFU; saves y.
        if (op == "LogSoftmax") return perElement(inputs, 3, 1, Saves::Outputs);
        // MaxPool (PyTorch max_pool2d_with_indices): the forward saves the argmax of every output (int64);
        // the backward adds each output's gradient into dx at its argmax, 1/output.
        if (op == "MaxPool") {
            BackwardWork work = perElement(outputs, 1, 0, Saves::Nothing);
            work.savedStateBytes = checkedMul(outputs, 8);
            return work;
        }
        // AveragePool: each output's g / K (1 mul) spread onto its K inputs (K adds): (K + 1)/output.
        if (op == "AveragePool")
            return perElement(outputs, checkedAdd(pooledWindowVolume(node), 1), 0, Saves::Nothing);
        // GlobalAveragePool: dx = g / (H W) broadcast, 1/input element.
        if (op == "GlobalAveragePool") return perElement(inputs, 1, 0, Saves::Nothing);
        // ReduceSum broadcasts g back (a copy); ReduceMean also scales it, 1/input element.
        if (op == "ReduceSum") return perElement(inputs, 0, 0, Saves::Nothing);
        if (op == "ReduceMean") return perElement(inputs, 1, 0, Saves::Nothing);
        if (op == "Add" || op == "Sub") return addBackward(c, op == "Sub");
        if (op == "Mul" || op == "Div") return productBackward(c, op == "Div");
        if (auto it = closedForms().find(op); it != closedForms().end())
            return perElement(inputs, it->second.vector, it->second.sfu, it->second.saves);
        // Gather: dx = scatter-add of g into the gathered rows, 1/output; reads the indices.
        if (op == "Gather" || op == "GatherElements" || op == "GatherND") {
            BackwardWork work = perElement(outputs, 1, 0, Saves::Nothing);
            work.savesInputs = true;
            return work;
        }
        // Cast: g converted back, a copy. Where: dA = select(c, g, 0), dB = select(!c, g, 0), 2/output.
        if (op == "Cast") return perElement(inputs, 0, 0, Saves::Nothing);
        if (op == "Where") return perElement(outputs, 2, 0, Saves::Inputs);
        // Expand: dx = g summed over the expanded dims, outputs - inputs adds.
        if (op == "Expand") return perElement(outputs - inputs, 1, 0, Saves::Nothing);
    }
    switch (forward.kind) {
    case OpKind::Matrix:
        return matrixBackward(c, forward);
    // Copies, layouts and views: the gradient is g moved back (transposed, sliced, concatenated, padded):
    // no arithmetic, dY read and dX written as the forward moved them.
    case OpKind::DataMovement:
    case OpKind::Alias:
    case OpKind::Control:
        return {};
    case OpKind::Pointwise:
    case OpKind::Vector:
        return estimatedBackward(c, forward);
    }
    return {};
}

} // namespace rooftop
