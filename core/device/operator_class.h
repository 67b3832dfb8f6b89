// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <optional>
#include <string>

namespace rooftop {

/// The operator classes whose kernels reach different fractions of the roofs under one runtime (a depthwise
/// convolution a fraction of what a large GEMM does): the unit a runtime's per-class efficiency is fitted in.
enum class OperatorClass {
    DenseConv = 0, ///< convolutions other than depthwise ones
    DepthwiseConv, ///< convolutions with one input channel per group
    Gemm,          ///< other matrix ops: Gemm, MatMul, recurrent
    Attention,     ///< fused attention operators (Attention, MultiHeadAttention, ...)
    Pointwise,     ///< elementwise and activation ops (also aliases and control nodes)
    Normalization, ///< batch, layer, group and RMS norms, softmax
    Reduction,     ///< Reduce*, pooling, ArgMax, TopK, and the other vector ops
    DataMovement,  ///< copies: concat, transpose, gather, ...
};
/// Number of OperatorClass values (the size of per-class arrays such as ClassFactors).
constexpr int operatorClassCount = 8;

/// The name in runtime files and tables: "dense_conv", "depthwise_conv", "gemm", "attention", "pointwise",
/// "normalization", "reduction", "data_movement".
const char* operatorClassName(OperatorClass operatorClass);

/// The class of a name operatorClassName gives; none for any other text.
std::optional<OperatorClass> parseOperatorClass(const std::string& name);

/// One factor per operator class, each 1 until fitted.
using ClassFactors = std::array<double, operatorClassCount>;

/// Every class at 1: no class differs from the runtime's uniform efficiency.
constexpr ClassFactors unitClassFactors() {
    return {1, 1, 1, 1, 1, 1, 1, 1};
}

} // namespace rooftop
