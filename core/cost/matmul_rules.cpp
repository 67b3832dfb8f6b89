// SPDX-License-Identifier: GPL-3.0-or-later
// Matrix products. MACs = output elements (after batch broadcast) x the contracted length K.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

namespace rooftop {
namespace {

// Y elements x K, K being the last dim of A (its only dim when A is 1-D).
OpCost batchedProduct(const CostContext& c, size_t aInput) {
    const Tensor* a = c.input(aInput);
    if (!a || !a->shapeKnown || a->dims.empty() || !c.outputKnown(0)) return unsupportedCost(OpKind::Matrix);
    OpCost cost;
    cost.kind = OpKind::Matrix;
    cost.macs = checkedMul(c.outputElements(0), a->dims.back());
    return cost;
}

OpCost matMul(const CostContext& c) {
    return batchedProduct(c, 0);
}

// QLinearMatMul: a, a_scale, a_zp, b, ...; one requantisation per output.
OpCost qlinearMatMul(const CostContext& c) {
    OpCost cost = batchedProduct(c, 0);
    cost.vectorOps = c.outputElements(0);
    return cost;
}

// MatMulIntegerToFloat: integer product, then one scale (and one bias add) per output.
OpCost matMulIntegerToFloat(const CostContext& c) {
    OpCost cost = batchedProduct(c, 0);
    const int64_t outputs = c.outputElements(0);
    cost.vectorOps = c.input(6) ? checkedMul(outputs, 2) : outputs;
    return cost;
}

// FusedMatMul (com.microsoft): optional transposes of A; alpha scaling per output when != 1.
OpCost fusedMatMul(const CostContext& c) {
    const Tensor* a = c.input(0);
    if (!a || !a->shapeKnown || a->dims.size() < 2 || !c.outputKnown(0)) return batchedProduct(c, 0);
    OpCost cost;
    cost.kind = OpKind::Matrix;
    const bool transA = c.node().attributeInt("transA", 0) != 0;
    const int64_t k = transA ? a->dims[a->dims.size() - 2] : a->dims.back();
    cost.macs = checkedMul(c.outputElements(0), k);
    if (c.node().attributeFloat("alpha", 1.0) != 1.0) cost.vectorOps = c.outputElements(0);
    return cost;
}

// Gemm: Y = alpha * A' B' + beta * C.
OpCost gemm(const CostContext& c) {
    const Tensor* a = c.input(0);
    if (!a || !a->shapeKnown || a->dims.size() != 2 || !c.outputKnown(0))
        return unsupportedCost(OpKind::Matrix);
    OpCost cost;
    cost.kind = OpKind::Matrix;
    const int64_t k = c.node().attributeInt("transA", 0) ? a->dims[0] : a->dims[1];
    const int64_t outputs = c.outputElements(0);
    cost.macs = checkedMul(outputs, k);
    if (c.node().attributeFloat("alpha", 1.0) != 1.0) cost.vectorOps = checkedAdd(cost.vectorOps, outputs);
    if (c.input(2)) {
        cost.vectorOps = checkedAdd(cost.vectorOps, outputs);
        if (c.node().attributeFloat("beta", 1.0) != 1.0) cost.vectorOps = checkedAdd(cost.vectorOps, outputs);
    }
    return cost;
}

// A weight-only quantized product: A [..., K] x dequantised B [N, K]; each weight is dequantised once.
OpCost weightOnlyProduct(const CostContext& c, int64_t k, int64_t n) {
    const Tensor* a = c.input(0);
    if (!a || !a->shapeKnown || a->dims.empty() || k <= 0 || n <= 0 || !c.outputKnown(0))
        return unsupportedCost(OpKind::Matrix);
    OpCost cost;
    cost.kind = OpKind::Matrix;
    cost.macs = checkedMul(c.outputElements(0), k);
    cost.vectorOps = checkedMul(n, k);
    return cost;
}

// MatMulNBits (com.microsoft): attributes K and N; + 1 bias add per output.
OpCost matMulNBits(const CostContext& c) {
    OpCost cost = weightOnlyProduct(c, c.node().attributeInt("K", 0), c.node().attributeInt("N", 0));
    if (cost.supported && c.input(5)) cost.vectorOps = checkedAdd(cost.vectorOps, c.outputElements(0));
    return cost;
}

// Int4GroupwiseGemmPlugin (TensorRT Edge-LLM, V1 and V2): attributes gemm_k and gemm_n.
OpCost int4GroupwiseGemm(const CostContext& c) {
    return weightOnlyProduct(c, c.node().attributeInt("gemm_k", 0), c.node().attributeInt("gemm_n", 0));
}

} // namespace

void registerMatmulRules(CostRuleTable& table) {
    table[{"", "MatMul"}] = matMul;
    table[{"", "MatMulInteger"}] = matMul;
    table[{"", "QLinearMatMul"}] = qlinearMatMul;
    table[{"", "Gemm"}] = gemm;
    table[{"com.microsoft", "MatMulNBits"}] = matMulNBits;
    table[{"com.microsoft", "FusedMatMul"}] = fusedMatMul;
    table[{"com.microsoft", "MatMulIntegerToFloat"}] = matMulIntegerToFloat;
    table[{"com.microsoft", "QLinearMatMul"}] = qlinearMatMul;
    for (const char* domain : {"trt_edgellm", "trt"})
        for (const char* op : {"Int4GroupwiseGemmPlugin", "Int4GroupwiseGemmPluginV2"})
            table[{domain, op}] = int4GroupwiseGemm;
}

} // namespace rooftop
