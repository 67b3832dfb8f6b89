// SPDX-License-Identifier: GPL-3.0-or-later
// The rule table and the helpers every rule family shares.
#include "core/onnx/shape_rules.h"

#include "core/graph/checked_math.h"
#include "core/onnx/shape_rules_common.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace rooftop {
namespace shapes {

// Shapes beyond this rank are treated as malformed: real models stay far below it.
constexpr size_t maxRank = 64;

const Tensor* input(const Graph& graph, const Node& node, size_t i) {
    return i < node.inputs.size() ? graph.tensor(node.inputs[i]) : nullptr;
}

const Tensor* knownInput(const Graph& graph, const Node& node, size_t i) {
    const Tensor* t = input(graph, node, i);
    if (!t || !t->shapeKnown || t->dims.size() > maxRank) return nullptr;
    for (int64_t d : t->dims)
        if (d < 0) return nullptr;
    return t;
}

bool hasInput(const Node& node, size_t i) {
    return i < node.inputs.size() && node.inputs[i] >= 0;
}

std::optional<Dims> inputValues(const Graph& graph, const Node& node, size_t i) {
    const Tensor* t = input(graph, node, i);
    if (!t || !t->intValues) return std::nullopt;
    if (t->shapeKnown) {
        int64_t count = 1;
        for (int64_t d : t->dims) {
            if (d < 0 || __builtin_mul_overflow(count, d, &count)) return std::nullopt;
        }
        if (count != static_cast<int64_t>(t->intValues->size())) return std::nullopt;
    }
    return t->intValues;
}

std::optional<Dims> listFromInputOrAttribute(const Graph& graph, const Node& node, size_t i,
                                             const std::string& key) {
    if (hasInput(node, i)) return inputValues(graph, node, i);
    return node.attributeInts(key);
}

int64_t elementCount(const Dims& dims) {
    int64_t count = 1;
    for (int64_t d : dims)
        count = checkedMul(count, d < 0 ? 0 : d);
    return count;
}

bool broadcast(const Dims& a, const Dims& b, Dims& out) {
    const size_t rank = std::max(a.size(), b.size());
    Dims result(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da == db || db == 1) {
            result[i] = da;
        } else if (da == 1) {
            result[i] = db;
        } else {
            return false;
        }
    }
    out = std::move(result);
    return true;
}

bool normalizeAxis(int64_t axis, int64_t rank, int64_t& out) {
    if (axis < -rank || axis >= rank) return false;
    out = axis < 0 ? axis + rank : axis;
    return true;
}

bool normalizeAxes(const Dims& axes, int64_t rank, Dims& out) {
    Dims result;
    for (int64_t axis : axes) {
        int64_t a = 0;
        if (!normalizeAxis(axis, rank, a)) return false;
        result.push_back(a);
    }
    std::sort(result.begin(), result.end());
    if (std::adjacent_find(result.begin(), result.end()) != result.end()) return false;
    out = std::move(result);
    return true;
}

bool setOutput(std::vector<InferredOutput>& outputs, size_t i, DataType type, Dims dims) {
    if (dims.size() > maxRank) return false;
    for (int64_t d : dims)
        if (d < 0) return false;
    elementCount(dims); // throws CountOverflow for absurd shapes
    if (i < outputs.size()) outputs[i] = {type, std::move(dims), true};
    return true;
}

bool reshapeDims(const Dims& in, const Dims& shape, bool allowZero, Dims& out) {
    if (shape.size() > maxRank) return false;
    Dims result = shape;
    int inferred = -1;
    bool hasZero = false;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) {
            hasZero = true;
            if (!allowZero) {
                if (i >= in.size()) return false;
                result[i] = in[i];
            }
        } else if (shape[i] == -1) {
            if (inferred >= 0) return false;
            inferred = static_cast<int>(i);
        } else if (shape[i] < -1) {
            return false;
        }
    }
    if (inferred >= 0 && allowZero && hasZero) return false;
    const int64_t total = elementCount(in);
    if (inferred >= 0) {
        int64_t known = 1;
        for (size_t i = 0; i < result.size(); ++i)
            if (static_cast<int>(i) != inferred) known = checkedMul(known, result[i]);
        if (known == 0 || total % known != 0) return false;
        result[static_cast<size_t>(inferred)] = total / known;
    } else if (elementCount(result) != total) {
        return false;
    }
    out = std::move(result);
    return true;
}

bool sliceRanges(const Dims& dims, const Dims& starts, const Dims& ends, const Dims& axes, const Dims& steps,
                 std::vector<SliceRange>& out) {
    const int64_t rank = static_cast<int64_t>(dims.size());
    if (starts.size() != ends.size() || (!axes.empty() && axes.size() != starts.size()) ||
        (!steps.empty() && steps.size() != starts.size()))
        return false;
    std::vector<SliceRange> ranges(dims.size());
    for (size_t i = 0; i < dims.size(); ++i)
        ranges[i] = {0, 1, dims[i]};
    std::vector<char> seen(dims.size(), 0);
    for (size_t i = 0; i < starts.size(); ++i) {
        int64_t axis = axes.empty() ? static_cast<int64_t>(i) : axes[i];
        if (!normalizeAxis(axis, rank, axis) || seen[static_cast<size_t>(axis)]) return false;
        seen[static_cast<size_t>(axis)] = 1;
        const int64_t d = dims[static_cast<size_t>(axis)];
        if (d < 0) return false;
        const int64_t step = steps.empty() ? 1 : steps[i];
        if (step == 0 || step == INT64_MIN) return false;
        int64_t start = starts[i] < 0 ? std::max<int64_t>(starts[i], -d) + d : starts[i];
        int64_t end = ends[i] < 0 ? std::max<int64_t>(ends[i], -d - 1) + d : ends[i];
        int64_t count = 0;
        if (step > 0) {
            start = std::clamp<int64_t>(start, 0, d);
            end = std::clamp<int64_t>(end, 0, d);
            count = end > start ? 1 + (end - start - 1) / step : 0;
        } else {
            start = std::min<int64_t>(std::max<int64_t>(start, 0), d - 1); // d may be 0: no clamp()
            end = std::min<int64_t>(std::max<int64_t>(end, -1), d - 1);
            count = start > end ? 1 + (start - end - 1) / -step : 0;
        }
        ranges[static_cast<size_t>(axis)] = {start, step, count};
    }
    out = std::move(ranges);
    return true;
}

bool sliceParameters(const Graph& graph, const Node& node, Dims& starts, Dims& ends, Dims& axes,
                     Dims& steps) {
    if (node.opsetVersion > 0 && node.opsetVersion < 10) {
        starts = node.attributeInts("starts");
        ends = node.attributeInts("ends");
        axes = node.attributeInts("axes");
        steps.clear();
        return true;
    }
    auto s = inputValues(graph, node, 1);
    auto e = inputValues(graph, node, 2);
    if (!s || !e) return false;
    starts = *s;
    ends = *e;
    axes.clear();
    steps.clear();
    if (hasInput(node, 3)) {
        auto a = inputValues(graph, node, 3);
        if (!a) return false;
        axes = *a;
    }
    if (hasInput(node, 4)) {
        auto st = inputValues(graph, node, 4);
        if (!st) return false;
        steps = *st;
    }
    return true;
}

std::optional<Dims> axesOf(const Graph& graph, const Node& node) {
    return listFromInputOrAttribute(graph, node, 1, "axes");
}

bool unsqueezeDims(const Dims& in, const Dims& axes, Dims& out) {
    const int64_t rank = static_cast<int64_t>(in.size() + axes.size());
    Dims sorted;
    if (axes.empty() || !normalizeAxes(axes, rank, sorted)) return false;
    Dims result;
    size_t next = 0;
    size_t a = 0;
    for (int64_t i = 0; i < rank; ++i) {
        if (a < sorted.size() && sorted[a] == i) {
            result.push_back(1);
            ++a;
        } else {
            result.push_back(in[next++]);
        }
    }
    out = std::move(result);
    return true;
}

bool squeezeDims(const Dims& in, const Dims& axes, Dims& out) {
    Dims sorted;
    if (!normalizeAxes(axes, static_cast<int64_t>(in.size()), sorted)) return false;
    Dims result;
    for (size_t i = 0; i < in.size(); ++i) {
        const bool listed = std::binary_search(sorted.begin(), sorted.end(), static_cast<int64_t>(i));
        if (listed && in[i] != 1) return false;
        if (listed || (axes.empty() && in[i] == 1)) continue;
        result.push_back(in[i]);
    }
    out = std::move(result);
    return true;
}

} // namespace shapes

namespace {

using namespace shapes;
using RuleKey = std::pair<std::string, std::string>; // domain ("" = ai.onnx), op type

void addAll(std::map<RuleKey, ShapeRule>& table, const std::string& domain,
            std::initializer_list<const char*> ops, ShapeRule rule) {
    for (const char* op : ops)
        table[{domain, op}] = rule;
}

// clang-format off
std::map<RuleKey, ShapeRule> defaultDomainRules() {
    std::map<RuleKey, ShapeRule> t;
    addAll(t, "", {"Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "BatchNormalization", "BitwiseNot",
                   "Celu", "Ceil", "Clip", "Cos", "Cosh", "CumSum", "Elu", "Erf", "Exp", "Floor", "Gelu",
                   "GroupNormalization", "HardSigmoid", "HardSwish", "Hardmax", "Identity", "InstanceNormalization",
                   "LRN", "LeakyRelu", "Log", "LogSoftmax", "LpNormalization", "MeanVarianceNormalization", "Mish",
                   "Neg", "Not", "RMSNormalization", "Reciprocal", "Relu", "ReverseSequence", "Round",
                   "RotaryEmbedding", "ScatterElements", "ScatterND", "Scatter", "Selu", "Shrink", "Sigmoid",
                   "Sign", "Sin", "Sinh", "Softmax", "Softplus", "Softsign", "Sqrt", "Swish", "Tan", "Tanh",
                   "ThresholdedRelu", "Trilu"}, sameAsFirstInput);
    addAll(t, "", {"Add", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Div", "Max", "Mean", "Min", "Mod",
                   "Mul", "PRelu", "Pow", "Sub", "Sum"}, broadcastRule);
    addAll(t, "", {"And", "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "Or", "Xor"}, compareRule);
    addAll(t, "", {"IsInf", "IsNaN"}, boolSameShape);
    addAll(t, "", {"Cast", "CastLike"}, castRule);
    addAll(t, "", {"Dropout"}, dropoutRule);
    addAll(t, "", {"Where"}, whereRule);
    addAll(t, "", {"MatMul", "MatMulInteger"}, matMulRule);
    addAll(t, "", {"Gemm"}, gemmRule);
    addAll(t, "", {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
                   "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"}, reduceRule);
    addAll(t, "", {"ArgMax", "ArgMin"}, argReduceRule);
    addAll(t, "", {"TopK"}, topKRule);
    addAll(t, "", {"Conv", "ConvInteger"}, convRule);
    addAll(t, "", {"ConvTranspose"}, convTransposeRule);
    addAll(t, "", {"AveragePool", "LpPool", "MaxPool"}, poolRule);
    addAll(t, "", {"GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool"}, globalPoolRule);
    addAll(t, "", {"Resize"}, resizeRule);
    addAll(t, "", {"GRU", "LSTM", "RNN"}, recurrentRule);
    // onnxruntime-genai's builder writes SimplifiedLayerNormalization in the default domain (onnxruntime runs it).
    addAll(t, "", {"LayerNormalization", "SimplifiedLayerNormalization"}, layerNormRule);
    addAll(t, "", {"Attention"}, attentionRule);
    addAll(t, "", {"Reshape"}, reshapeRule);
    addAll(t, "", {"Flatten"}, flattenRule);
    addAll(t, "", {"Expand"}, expandRule);
    addAll(t, "", {"Tile"}, tileRule);
    addAll(t, "", {"ConstantOfShape"}, constantOfShapeRule);
    addAll(t, "", {"Range"}, rangeRule);
    addAll(t, "", {"Slice"}, sliceRule);
    addAll(t, "", {"Squeeze"}, squeezeRule);
    addAll(t, "", {"Unsqueeze"}, unsqueezeRule);
    addAll(t, "", {"Concat"}, concatRule);
    addAll(t, "", {"Gather"}, gatherRule);
    addAll(t, "", {"GatherElements"}, gatherElementsRule);
    addAll(t, "", {"Transpose"}, transposeRule);
    addAll(t, "", {"Split"}, splitRule);
    addAll(t, "", {"Pad"}, padRule);
    addAll(t, "", {"Shape"}, shapeOpRule);
    addAll(t, "", {"Size"}, sizeRule);
    addAll(t, "", {"DepthToSpace", "SpaceToDepth"}, depthSpaceRule);
    addAll(t, "", {"QuantizeLinear"}, quantizeRule);
    addAll(t, "", {"DequantizeLinear"}, dequantizeRule);
    addAll(t, "", {"QLinearConv"}, qLinearConvRule);
    addAll(t, "", {"QLinearMatMul"}, qLinearMatMulRule);
    return t;
}

void addContribRules(std::map<RuleKey, ShapeRule>& t) {
    const std::string ms = "com.microsoft";
    addAll(t, ms, {"BiasDropout", "BiasGelu", "BiasSoftmax", "FastGelu", "Gelu", "QuickGelu", "RotaryEmbedding",
                   "QLinearLeakyRelu", "QLinearSigmoid", "QLinearSoftmax"}, sameAsFirstInput);
    addAll(t, ms, {"BiasAdd"}, broadcastRule);
    addAll(t, ms, {"Attention"}, msAttentionRule);
    addAll(t, ms, {"MultiHeadAttention"}, multiHeadAttentionRule);
    addAll(t, ms, {"GroupQueryAttention"}, groupQueryAttentionRule);
    addAll(t, ms, {"SkipLayerNormalization", "SkipSimplifiedLayerNormalization"}, skipLayerNormRule);
    addAll(t, ms, {"LayerNormalization", "SimplifiedLayerNormalization"}, layerNormRule);
    addAll(t, ms, {"EmbedLayerNormalization"}, embedLayerNormRule);
    addAll(t, ms, {"FusedConv"}, fusedConvRule);
    addAll(t, ms, {"NhwcConv"}, nhwcConvRule);
    addAll(t, ms, {"QLinearConv"}, qLinearConvRule);
    addAll(t, ms, {"QLinearMatMul"}, qLinearMatMulRule);
    addAll(t, ms, {"MatMulNBits"}, matMulNBitsRule);
    addAll(t, ms, {"FusedMatMul"}, fusedMatMulRule);
    addAll(t, ms, {"MatMulIntegerToFloat"}, matMulIntegerToFloatRule);
    addAll(t, ms, {"FusedGemm"}, gemmRule);
    addAll(t, ms, {"QLinearAdd", "QLinearMul"}, qLinearBinaryRule);
    addAll(t, ms, {"QuantizeLinear"}, quantizeRule);
    addAll(t, ms, {"DequantizeLinear"}, dequantizeRule);
    addAll(t, ms, {"QLinearGlobalAveragePool"}, qLinearGlobalAveragePoolRule);
    for (const std::string domain : {"trt_edgellm", "trt"}) {
        addAll(t, domain, {"AttentionPlugin"}, attentionPluginRule);
        addAll(t, domain, {"Int4GroupwiseGemmPlugin", "Int4GroupwiseGemmPluginV2"}, int4GroupwiseGemmRule);
    }
}
// clang-format on

const std::map<RuleKey, ShapeRule>& ruleTable() {
    static const std::map<RuleKey, ShapeRule> table = [] {
        auto t = defaultDomainRules();
        addContribRules(t);
        return t;
    }();
    return table;
}

} // namespace

bool libraryInferenceOutdated(const std::string& domain, const std::string& opType, int opsetVersion) {
    if (!(domain.empty() || domain == "ai.onnx") || opsetVersion < 18) return false;
    static const std::set<std::string> changedAfter17 = {
        "ReduceL1",   "ReduceL2",  "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
        "ReduceMean", "ReduceMin", "ReduceProd",   "ReduceSumSquare", "Split",
        "Pad",        "Resize",    "AveragePool",  "LpPool"};
    return changedAfter17.count(opType) != 0;
}

ShapeRule findShapeRule(const std::string& domain, const std::string& opType, int opsetVersion) {
    (void)opsetVersion; // rules read node.opsetVersion where semantics differ
    const std::string key = domain == "ai.onnx" ? std::string() : domain;
    auto it = ruleTable().find({key, opType});
    return it == ruleTable().end() ? nullptr : it->second;
}

bool applyShapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const ShapeRule rule = findShapeRule(node.domain, node.opType, node.opsetVersion);
    if (!rule) return false;
    outputs.assign(node.outputs.size(), InferredOutput{});
    try {
        if (rule(graph, node, outputs)) return true;
    } catch (const std::exception&) {
        // CountOverflow or a malformed attribute: the outputs stay unknown.
    }
    outputs.assign(node.outputs.size(), InferredOutput{});
    return false;
}

} // namespace rooftop
