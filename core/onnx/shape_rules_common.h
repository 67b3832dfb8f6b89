// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the shape rules (shape_rules*.cpp) and integer value folding; not a public interface.
#pragma once

#include "core/onnx/shape_rules.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop::shapes {

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
    int64_t start = 0;
    int64_t step = 1;
    int64_t count = 0;
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
bool reshapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool flattenRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool expandRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool tileRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool constantOfShapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool rangeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool sliceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool squeezeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool unsqueezeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool concatRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool gatherRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool gatherElementsRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool transposeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool splitRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool padRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool shapeOpRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool sizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool depthSpaceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

bool sameAsFirstInput(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool castRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool boolSameShape(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool dropoutRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool broadcastRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool compareRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool whereRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool matMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool gemmRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool reduceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool argReduceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool topKRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool convRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool convTransposeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool poolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool globalPoolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool resizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool recurrentRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool layerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

bool attentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool msAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool multiHeadAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool groupQueryAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool skipLayerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool embedLayerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool fusedConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool nhwcConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool qLinearConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool qLinearMatMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool matMulNBitsRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
/// A weight-only product A (..., K) x packed weights: (..., the width attribute's value).
bool productWidthRule(const Graph& graph, const Node& node, const char* widthAttribute,
                      std::vector<InferredOutput>& outputs);
bool fusedMatMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool matMulIntegerToFloatRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool qLinearBinaryRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool quantizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool dequantizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool qLinearGlobalAveragePoolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool attentionPluginRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);
bool int4GroupwiseGemmRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

/// Output dims of a convolution or pooling window over spatial dims (NCHW layout from dim 2); false if
/// the attributes do not fit. kernel is the window (from kernel_shape or the weights).
bool windowedDims(const Node& node, const Dims& in, const Dims& kernel, int64_t channels, bool ceilMode,
                  Dims& out);

/// Output dims of a matrix product under numpy rules (1-D operands promoted and dropped).
bool matMulDims(const Dims& a, const Dims& b, Dims& out);

} // namespace rooftop::shapes
