// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the shape rules (shape_rules*.cpp) and integer value folding; not a public interface.
#pragma once

#include "core/onnx/shape_rules.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop::shapes {

/// Tensor dimensions, outermost first.
using Dims = std::vector<int64_t>;

/// Input i of the node, nullptr when absent or omitted.
const Tensor* input(const Graph& graph, const Node& node, size_t i);

/// Input i when present and of known shape, else nullptr.
const Tensor* knownInput(const Graph& graph, const Node& node, size_t i);

/// True when input i exists (not omitted) in the node.
bool hasInput(const Node& node, size_t i);

/// Folded integer values of input i whose count matches its shape (when known), or nullopt.
std::optional<Dims> inputValues(const Graph& graph, const Node& node, size_t i);

/// Integer list from input i when the node has it, else from attribute key (empty when neither);
/// nullopt when the input exists but its values are not known.
std::optional<Dims> listFromInputOrAttribute(const Graph& graph, const Node& node, size_t i,
                                             const std::string& key);

/// Element count of dims; throws CountOverflow when it does not fit in 64 bits.
int64_t elementCount(const Dims& dims);

/// Multidirectional (numpy) broadcast of two shapes; false when they do not broadcast.
bool broadcast(const Dims& a, const Dims& b, Dims& out);

/// Axis in [-rank, rank) mapped to [0, rank); false when out of range.
bool normalizeAxis(int64_t axis, int64_t rank, int64_t& out);

/// Sorted, distinct axes in [0, rank) from possibly negative ones; false when out of range or repeated.
bool normalizeAxes(const Dims& axes, int64_t rank, Dims& out);

/// Stores output i (ignored when the node has fewer outputs); false when dims are invalid.
bool setOutput(std::vector<InferredOutput>& outputs, size_t i, DataType type, Dims dims);

/// Target dims of Reshape (0 copies the input dim unless allowZero, one -1 is inferred); false if invalid.
bool reshapeDims(const Dims& in, const Dims& shape, bool allowZero, Dims& out);

/// Start, step and element count of one sliced axis, after clamping like the ONNX spec.
struct SliceRange {
    int64_t start = 0; ///< first index taken, after clamping
    int64_t step = 1;  ///< index step; negative walks backwards
    int64_t count = 0; ///< elements taken
};

/// Per-axis ranges of Slice on dims; false when starts/ends/axes/steps are inconsistent.
bool sliceRanges(const Dims& dims, const Dims& starts, const Dims& ends, const Dims& axes, const Dims& steps,
                 std::vector<SliceRange>& out);

/// Reads starts/ends/axes/steps of a Slice node (inputs from opset 10, attributes before); false if unknown.
bool sliceParameters(const Graph& graph, const Node& node, Dims& starts, Dims& ends, Dims& axes, Dims& steps);

/// Axes of Squeeze/Unsqueeze/Reduce* from input 1 or the `axes` attribute; nullopt while unknown.
std::optional<Dims> axesOf(const Graph& graph, const Node& node);

/// Output dims of Unsqueeze; false when the axes are invalid.
bool unsqueezeDims(const Dims& in, const Dims& axes, Dims& out);

/// Output dims of Squeeze (no axes: every 1 is removed); false when an axis is not 1.
bool squeezeDims(const Dims& in, const Dims& axes, Dims& out);

// Rule families (one function per family), defined in shape_rules_tensor.cpp, shape_rules_math.cpp,
// shape_rules_contrib.cpp and shape_rules_plugins.cpp.
/// Reshape: output dims from the constant shape input (attribute before opset 5), 0 copies and -1 infers.
bool reshapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Flatten: 2-D, the product of the dims before `axis` (default 1) by the product of the rest.
bool flattenRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Expand: the input broadcast with the constant shape input.
bool expandRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Tile: each input dim multiplied by its entry of the constant repeats input.
bool tileRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// ConstantOfShape: dims from the constant shape input, type from the value attribute (default float32).
bool constantOfShapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Range: 1-D, max(0, ceil((limit - start) / delta)) elements from constant scalar inputs (integer or float).
bool rangeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Slice: per-axis counts from constant starts/ends/axes/steps (inputs from opset 10, attributes before).
bool sliceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Squeeze: removes the given axes (input 1 or attribute), or every dim of 1 when there are none.
bool squeezeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Unsqueeze: inserts dims of 1 at the axes from input 1 or the `axes` attribute.
bool unsqueezeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Concat: inputs agree except along `axis`, where the output sums their sizes.
bool concatRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Gather: data dims with the one at `axis` replaced by all of the indices' dims.
bool gatherRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// GatherElements: the indices' dims (same rank as data) with data's type.
bool gatherElementsRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Transpose: input dims permuted by `perm` (reversed when absent).
bool transposeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Split: sizes from the split input/attribute, else num_outputs or the output count in ceil(dim / n) chunks.
bool splitRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Pad: each padded axis grows by its begin and end pads (attribute before opset 11, else inputs 1 and 3).
bool padRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Shape: 1-D int64 of the input's rank, clipped by the start and end attributes.
bool shapeOpRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Size: an int64 scalar, once the input's shape is known.
bool sizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// DepthToSpace / SpaceToDepth: 4-D NCHW, channels traded against H and W by blocksize.
bool depthSpaceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

/// Output like input 0 (dims and type): unary math, activations, most normalizations, Softmax, Scatter*, ...
bool sameAsFirstInput(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Cast / CastLike: the input's dims with the `to` attribute's type or input 1's type.
bool castRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// IsInf / IsNaN: a bool tensor of the input's dims.
bool boolSameShape(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Dropout: output like the input, plus a bool mask of the same dims.
bool dropoutRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Add, Mul, Max, Sum and the other broadcasting arithmetic (and BiasAdd): broadcast of all inputs.
bool broadcastRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Comparisons and And/Or/Xor: a bool tensor of the inputs' broadcast dims.
bool compareRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Where: broadcast of condition, X and Y, with X's type.
bool whereRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// MatMul / MatMulInteger: numpy matrix-product dims; MatMulInteger outputs int32.
bool matMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Gemm (and com.microsoft FusedGemm): 2-D (M, N) from A and B after transA/transB.
bool gemmRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Reduce*: reduced axes dropped (1 with keepdims); empty axes reduce all unless noop_with_empty_axes.
bool reduceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// ArgMax / ArgMin: int64, the dim at `axis` set to 1 (keepdims, the default) or removed.
bool argReduceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// TopK: values and int64 indices, the dim at `axis` set to k (input 1 or attribute).
bool topKRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Conv / ConvInteger: (N, M from the weights, windowed spatial dims); ConvInteger outputs int32.
bool convRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// ConvTranspose: W[1] x group channels; spatial dims from output_shape, in x stride (SAME auto_pad)
/// or stride x (in - 1) + output_padding + dilated kernel - pads.
bool convTransposeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// AveragePool / LpPool / MaxPool: windowed spatial dims (ceil_mode honoured), plus int64 indices.
bool poolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Global*Pool: the input dims with every spatial dim (from dim 2) set to 1.
bool globalPoolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Resize: sizes, else floor(dim x scale), on all axes or `axes`; honours keep_aspect_ratio_policy.
bool resizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// RNN / GRU / LSTM: Y (seq, dirs, batch, hidden), states (dirs, batch, hidden); layout=1 puts batch first.
bool recurrentRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// (Simplified)LayerNormalization: Y like X; float statistics keep the dims before `axis`, 1 from it on.
bool layerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

/// ai.onnx Attention (opset 23): Y in Q's layout with V's head size; present_* append K/V to past_*.
bool attentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft Attention: output (B, S, v_hidden); present (2, B, num_heads, past + S, head_size).
bool msAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft MultiHeadAttention: output (B, S, v_hidden) for plain or packed Q/K/V; present K/V.
bool multiHeadAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft GroupQueryAttention (query maybe packed with K/V): output (B, S, heads x H), present K/V.
bool groupQueryAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// Skip(Simplified)LayerNormalization: output and skip sum like input 0; float statistics with last dim 1.
bool skipLayerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// EmbedLayerNormalization: (B, S, H) from input_ids and word_embedding; int32 mask_index (B).
bool embedLayerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft FusedConv: the same dims as Conv.
bool fusedConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft NhwcConv: Conv's dims with channels last in input and output.
bool nhwcConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// QLinearConv: Conv dims of x (input 0) and w (input 3); the type follows y_zero_point.
bool qLinearConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// QLinearMatMul: MatMul dims of a (input 0) and b (input 3); the type follows y_zero_point.
bool qLinearMatMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft MatMulNBits: A (..., K) x packed B gives (..., N), N from the attribute.
bool matMulNBitsRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// A weight-only product A (..., K) x packed weights: (..., the width attribute's value).
bool productWidthRule(const Graph& graph, const Node& node, const char* widthAttribute,
                      std::vector<InferredOutput>& outputs);
/// com.microsoft FusedMatMul: MatMul dims after transA/transB; transBatchA/B are not supported.
bool fusedMatMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft MatMulIntegerToFloat: MatMul dims with a_scale's type (float32 when unknown).
bool matMulIntegerToFloatRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft QLinearAdd / QLinearMul: broadcast of A (input 0) and B (input 3); type of C_zero_point.
bool qLinearBinaryRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// QuantizeLinear: the input's dims; type from the zero point, else output_dtype, else uint8.
bool quantizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// DequantizeLinear: the input's dims with the scale's type (float32 when unknown).
bool dequantizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// com.microsoft QLinearGlobalAveragePool: spatial dims 1 (NCHW or channels_last); y_zero_point's type.
bool qLinearGlobalAveragePoolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// TensorRT Edge-LLM AttentionPlugin: output in Q's layout with num_q_heads; present KV cache like the past.
bool attentionPluginRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// TensorRT Edge-LLM Int4GroupwiseGemmPlugin (V1, V2): A (..., K) x int4 weights gives (..., gemm_n).
bool int4GroupwiseGemmRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

/// Output dims of a convolution or pooling window over spatial dims (NCHW layout from dim 2); false if
/// the attributes do not fit. kernel is the window (from kernel_shape or the weights).
bool windowedDims(const Node& node, const Dims& in, const Dims& kernel, int64_t channels, bool ceilMode,
                  Dims& out);

/// Output dims of a matrix product under numpy rules (1-D operands promoted and dropped).
bool matMulDims(const Dims& a, const Dims& b, Dims& out);

} // namespace rooftop::shapes
