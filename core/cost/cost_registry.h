// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/op_cost.h"

#include <map>
#include <string>
#include <utility>

namespace rooftop {

/// Cost rules keyed by (domain, op type); the default domain is "".
using CostRuleTable = std::map<std::pair<std::string, std::string>, CostRule>;

/// The rule for this operator, or nullptr when it has none (the node is then reported unsupported).
CostRule findCostRule(const std::string& domain, const std::string& opType);

/// Every (domain, op type) with a rule, for listings and tests.
const CostRuleTable& costRules();

// One registration function per operator family (cost/*_rules.cpp).
/// Conv, ConvInteger, QLinearConv, ConvTranspose, DeformConv; com.microsoft FusedConv, NhwcConv, QLinearConv.
void registerConvRules(CostRuleTable& table);
/// MatMul, MatMulInteger, QLinearMatMul, Gemm, com.microsoft MatMulNBits/FusedMatMul/MatMulIntegerToFloat,
/// and TensorRT Edge-LLM's Int4GroupwiseGemmPlugin (V1 and V2).
void registerMatmulRules(CostRuleTable& table);
/// Attention (ai.onnx and com.microsoft), com.microsoft MultiHeadAttention and GroupQueryAttention,
/// TensorRT Edge-LLM AttentionPlugin, and RotaryEmbedding.
void registerAttentionRules(CostRuleTable& table);
/// Elementwise arithmetic, comparisons, logic and activations, with com.microsoft Gelu variants and BiasAdd.
void registerElementwiseRules(CostRuleTable& table);
/// Batch/Layer/RMS/Group/Instance/Lp normalizations, Softmax, LogSoftmax, Hardmax and the com.microsoft ones.
void registerNormalizationRules(CostRuleTable& table);
/// Local and global pooling, MaxRoiPool, RoiAlign, Resize, Upsample, GridSample, com.microsoft NhwcMaxPool.
void registerPoolingRules(CostRuleTable& table);
/// Reduce*, ArgMax, ArgMin, TopK and CumSum.
void registerReduceRules(CostRuleTable& table);
/// Copies (Concat, Slice, Gather, Pad, Scatter*, ...), metadata aliases (Reshape, Squeeze, ...), Shape, Size.
void registerDataMovementRules(CostRuleTable& table);
/// LSTM, GRU and RNN, counted over the whole sequence and all directions.
void registerRecurrentRules(CostRuleTable& table);
/// Cast, CastLike, (Dynamic)QuantizeLinear, DequantizeLinear and the com.microsoft QLinear* operators.
void registerQuantizationRules(CostRuleTable& table);
/// Control flow (Loop, If, Scan), Constant, sequences and optionals: no cost of their own.
void registerControlRules(CostRuleTable& table);
/// Einsum, contracted pairwise along a greedy path.
void registerEinsumRules(CostRuleTable& table);

} // namespace rooftop
