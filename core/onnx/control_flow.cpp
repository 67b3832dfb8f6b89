// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/control_flow.h"

#include "core/onnx/tensor_values.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace rooftop {
namespace {

std::optional<bool> constantCondition(const onnx::GraphProto& graph, const std::string& name) {
    for (const auto& init : graph.initializer())
        if (init.name() == name) {
            auto values = integerValues(init);
            if (values && values->size() == 1) return (*values)[0] != 0;
            return std::nullopt;
        }
    for (const auto& node : graph.node()) {
        if (node.op_type() != "Constant" || node.output_size() != 1 || node.output(0) != name) continue;
        for (const auto& attr : node.attribute()) {
            if (attr.name() == "value" && attr.has_t()) {
                auto values = integerValues(attr.t());
                if (values && values->size() == 1) return (*values)[0] != 0;
            }
            if (attr.name() == "value_int") return attr.i() != 0;
        }
    }
    return std::nullopt;
}

// Renames, inside a nested body, the reads of names its enclosing branch renamed, unless the body (or one
// between) has its own value of that name.
void renameNestedReads(onnx::GraphProto& body, const std::unordered_map<std::string, std::string>& rename,
                       std::unordered_set<std::string> shadowed) {
    for (const auto& v : body.input()) shadowed.insert(v.name());
    for (const auto& init : body.initializer()) shadowed.insert(init.name());
    for (const auto& node : body.node())
        for (const auto& out : node.output()) shadowed.insert(out);
    for (auto& node : *body.mutable_node()) {
        for (auto& in : *node.mutable_input()) {
            auto it = rename.find(in);
            if (!in.empty() && it != rename.end() && !shadowed.count(in)) in = it->second;
        }
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) renameNestedReads(*attr.mutable_g(), rename, shadowed);
            for (auto& g : *attr.mutable_graphs()) renameNestedReads(g, rename, shadowed);
        }
    }
}

// The branch's nodes with local names prefixed and its outputs renamed to the If node's outputs.
std::vector<onnx::NodeProto> inlineBranch(const onnx::NodeProto& ifNode, const onnx::GraphProto& branch) {
    const std::string prefix = (ifNode.name().empty() ? ifNode.output(0) : ifNode.name()) + "/";
    std::unordered_map<std::string, std::string> rename;
    std::unordered_set<std::string> local;
    for (const auto& init : branch.initializer()) local.insert(init.name());
    for (const auto& node : branch.node())
        for (const auto& out : node.output()) local.insert(out);
    for (const auto& name : local) rename[name] = prefix + name;
    for (int i = 0; i < branch.output_size() && i < ifNode.output_size(); ++i)
        if (local.count(branch.output(i).name())) rename[branch.output(i).name()] = ifNode.output(i);

    std::vector<onnx::NodeProto> nodes;
    for (const auto& init : branch.initializer()) {
        onnx::NodeProto constant;
        constant.set_op_type("Constant");
        constant.set_name(prefix + init.name());
        constant.add_output(rename[init.name()]);
        auto* attr = constant.add_attribute();
        attr->set_name("value");
        attr->set_type(onnx::AttributeProto::TENSOR);
        *attr->mutable_t() = init;
        nodes.push_back(std::move(constant));
    }
    auto renamed = [&](const std::string& name) {
        auto it = rename.find(name);
        return it == rename.end() ? name : it->second;
    };
    for (const auto& source : branch.node()) {
        onnx::NodeProto node = source;
        node.set_name(prefix + source.name());
        for (auto& in : *node.mutable_input())
            if (!in.empty()) in = renamed(in);
        for (auto& out : *node.mutable_output())
            if (!out.empty()) out = renamed(out);
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) renameNestedReads(*attr.mutable_g(), rename, {});
            for (auto& g : *attr.mutable_graphs()) renameNestedReads(g, rename, {});
        }
        nodes.push_back(std::move(node));
    }
    // A branch output that passes an outer value through needs a copy under the If output's name.
    for (int i = 0; i < branch.output_size() && i < ifNode.output_size(); ++i) {
        const std::string& name = branch.output(i).name();
        if (local.count(name)) continue;
        onnx::NodeProto identity;
        identity.set_op_type("Identity");
        identity.set_name(prefix + "passthrough_" + std::to_string(i));
        identity.add_input(name);
        identity.add_output(ifNode.output(i));
        nodes.push_back(std::move(identity));
    }
    return nodes;
}

// The branch an If with a constant condition takes, or null.
const onnx::GraphProto* constantBranch(const onnx::GraphProto& graph, const onnx::NodeProto& node) {
    if (node.op_type() != "If" || !(node.domain().empty() || node.domain() == "ai.onnx") ||
        node.input_size() != 1)
        return nullptr;
    const std::optional<bool> condition = constantCondition(graph, node.input(0));
    if (!condition) return nullptr;
    for (const auto& attr : node.attribute())
        if (attr.name() == (*condition ? "then_branch" : "else_branch") && attr.has_g()) return &attr.g();
    return nullptr;
}

int inlineConstantIfsOnce(onnx::GraphProto& graph) {
    std::vector<std::vector<onnx::NodeProto>> inlinedNodes(static_cast<size_t>(graph.node_size()));
    std::vector<char> isInlined(static_cast<size_t>(graph.node_size()), 0);
    int inlined = 0;
    for (int i = 0; i < graph.node_size(); ++i)
        if (const onnx::GraphProto* branch = constantBranch(graph, graph.node(i))) {
            inlinedNodes[static_cast<size_t>(i)] = inlineBranch(graph.node(i), *branch);
            isInlined[static_cast<size_t>(i)] = 1;
            ++inlined;
        }
    if (inlined == 0) return 0;
    google::protobuf::RepeatedPtrField<onnx::NodeProto> rebuilt;
    for (int i = 0; i < graph.node_size(); ++i) {
        if (isInlined[static_cast<size_t>(i)]) {
            for (auto& inner : inlinedNodes[static_cast<size_t>(i)])
                rebuilt.Add()->Swap(&inner);
            continue;
        }
        rebuilt.Add()->Swap(graph.mutable_node(i));
    }
    graph.mutable_node()->Swap(&rebuilt);
    return inlined;
}

} // namespace

int inlineConstantIfs(onnx::GraphProto& graph) {
    // An inlined branch may hold Ifs of its own whose condition is now a constant of this graph.
    constexpr int maxDepth = 64;
    int total = 0;
    for (int depth = 0; depth < maxDepth; ++depth) {
        const int inlined = inlineConstantIfsOnce(graph);
        if (inlined == 0) break;
        total += inlined;
    }
    return total;
}

} // namespace rooftop
