// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/inference_guard.h"

#include <map>
#include <unordered_set>
#include <utility>

namespace rooftop {
namespace {

// Operators whose outputs may be sequences or optionals, which a tensor placeholder would contradict.
bool mayYieldNonTensor(const onnx::NodeProto& node) {
    const std::string& op = node.op_type();
    return op.rfind("Sequence", 0) == 0 || op == "SplitToSequence" || op.rfind("Optional", 0) == 0 || op == "Loop" ||
           op == "If" || op == "Scan";
}

} // namespace

void addPlaceholderTypes(onnx::GraphProto& graph, const onnx::ISchemaRegistry& registry,
                         const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opsets) {
    std::unordered_set<std::string> typed;
    for (const auto& v : graph.initializer()) typed.insert(v.name());
    for (auto& v : *graph.mutable_input()) {
        // A graph input without a type (and no initializer giving it one) crashes Shape's inference too.
        if (v.type().value_case() == onnx::TypeProto::VALUE_NOT_SET && !typed.count(v.name()))
            v.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::UNDEFINED);
        typed.insert(v.name());
    }
    for (const auto& v : graph.value_info())
        if (v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) typed.insert(v.name());
    std::unordered_set<std::string> outputs;
    for (const auto& v : graph.output())
        if (v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) outputs.insert(v.name());

    std::map<std::pair<std::string, std::string>, bool> schemaKnown; // by (domain, op type)
    auto hasSchema = [&](const onnx::NodeProto& node) {
        const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
        auto [entry, added] = schemaKnown.try_emplace({domain, node.op_type()}, false);
        if (!added) return entry->second;
        int version = -1;
        for (const auto& opset : opsets)
            if ((opset.domain() == "ai.onnx" ? std::string() : opset.domain()) == domain)
                version = static_cast<int>(opset.version());
        entry->second = version >= 0 && registry.GetSchema(node.op_type(), version, domain);
        return entry->second;
    };
    for (const auto& node : graph.node()) {
        const bool known = hasSchema(node);
        if (known && mayYieldNonTensor(node)) continue;
        for (const auto& out : node.output()) {
            if (out.empty() || typed.count(out) || outputs.count(out)) continue;
            auto* info = graph.add_value_info();
            info->set_name(out);
            // A known operator's inference fills in (or, where it fails, leaves) an unknown element type.
            info->mutable_type()->mutable_tensor_type()->set_elem_type(known ? onnx::TensorProto::UNDEFINED
                                                                             : onnx::TensorProto::FLOAT);
            typed.insert(out);
        }
    }
}

} // namespace rooftop
