// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/shape_rules.h"

#include <map>
#include <set>
#include <utility>

namespace rooftop {
namespace {

const Tensor* inputTensor(const Graph& graph, const Node& node, size_t i) {
    return i < node.inputs.size() ? graph.tensor(node.inputs[i]) : nullptr;
}

bool sameAsFirstInput(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = inputTensor(graph, node, 0);
    if (!x || !x->shapeKnown || outputs.empty()) return false;
    outputs[0] = {x->type, x->dims, true};
    return true;
}

using RuleKey = std::pair<std::string, std::string>; // domain ("" = ai.onnx), op type

const std::map<RuleKey, ShapeRule>& ruleTable() {
    static const std::map<RuleKey, ShapeRule> table = {
        {{"", "Gelu"}, sameAsFirstInput},
        {{"", "Mish"}, sameAsFirstInput},
        {{"", "Swish"}, sameAsFirstInput},
        {{"", "GroupNormalization"}, sameAsFirstInput},
        {{"", "RMSNormalization"}, sameAsFirstInput},
        {{"", "RotaryEmbedding"}, sameAsFirstInput},
        {{"com.microsoft", "BiasGelu"}, sameAsFirstInput},
        {{"com.microsoft", "FastGelu"}, sameAsFirstInput},
        {{"com.microsoft", "Gelu"}, sameAsFirstInput},
        {{"com.microsoft", "QuickGelu"}, sameAsFirstInput},
        {{"com.microsoft", "SkipLayerNormalization"}, sameAsFirstInput},
        {{"com.microsoft", "SkipSimplifiedLayerNormalization"}, sameAsFirstInput},
        {{"com.microsoft", "SimplifiedLayerNormalization"}, sameAsFirstInput},
        {{"com.microsoft", "RotaryEmbedding"}, sameAsFirstInput},
    };
    return table;
}

} // namespace

bool libraryInferenceOutdated(const std::string& domain, const std::string& opType, int opsetVersion) {
    if (!(domain.empty() || domain == "ai.onnx") || opsetVersion < 18) return false;
    static const std::set<std::string> changedAfter17 = {
        "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin",
        "ReduceProd", "ReduceSumSquare", "Split", "Pad", "Resize", "AveragePool", "LpPool"};
    return changedAfter17.count(opType) != 0;
}

ShapeRule findShapeRule(const std::string& domain, const std::string& opType, int opsetVersion) {
    (void)opsetVersion;
    const std::string key = domain == "ai.onnx" ? std::string() : domain;
    auto it = ruleTable().find({key, opType});
    return it == ruleTable().end() ? nullptr : it->second;
}

} // namespace rooftop
