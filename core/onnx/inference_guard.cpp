// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/inference_guard.h"

#include <unordered_set>

namespace rooftop {

void addPlaceholderTypes(onnx::GraphProto& graph, const onnx::ISchemaRegistry& registry,
                         const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opsets) {
    std::unordered_set<std::string> typed;
    for (const auto& v : graph.input()) typed.insert(v.name());
    for (const auto& v : graph.initializer()) typed.insert(v.name());
    for (const auto& v : graph.value_info())
        if (v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) typed.insert(v.name());
    std::unordered_set<std::string> outputs;
    for (const auto& v : graph.output())
        if (v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) outputs.insert(v.name());

    for (const auto& node : graph.node()) {
        const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
        int version = -1;
        for (const auto& opset : opsets)
            if ((opset.domain() == "ai.onnx" ? std::string() : opset.domain()) == domain)
                version = static_cast<int>(opset.version());
        if (version >= 0 && registry.GetSchema(node.op_type(), version, domain)) continue;
        for (const auto& out : node.output()) {
            if (out.empty() || typed.count(out) || outputs.count(out)) continue;
            auto* info = graph.add_value_info();
            info->set_name(out);
            info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
            typed.insert(out);
        }
    }
}

} // namespace rooftop
