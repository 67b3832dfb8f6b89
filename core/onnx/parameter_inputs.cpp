// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/parameter_inputs.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace rooftop {
namespace {

// The operand positions of an operator that hold its learned parameters.
bool isParameterSlot(const onnx::NodeProto& node, int position, int rank) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
    const std::string& op = node.op_type();
    if (op == "Conv" || op == "ConvTranspose" || op == "Gemm") return position == 1 || position == 2;
    if (op == "MatMul") return position == 1 && rank == 2;
    if (op == "BatchNormalization") return position >= 1 && position <= 4;
    if (op == "InstanceNormalization" || op == "LayerNormalization" || op == "GroupNormalization")
        return position == 1 || position == 2;
    if (op == "PRelu") return position == 1;
    if (op == "LSTM" || op == "GRU" || op == "RNN") return position >= 1 && position <= 3;
    return false;
}

bool isFloatingPoint(int32_t type) {
    return type == onnx::TensorProto::FLOAT || type == onnx::TensorProto::FLOAT16 ||
           type == onnx::TensorProto::BFLOAT16 || type == onnx::TensorProto::DOUBLE;
}

void markSubgraphReads(const onnx::GraphProto& body, std::map<std::string, bool>& onlyParameterUses) {
    for (const auto& node : body.node()) {
        for (const auto& in : node.input())
            onlyParameterUses[in] = false;
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) markSubgraphReads(attr.g(), onlyParameterUses);
            for (const auto& inner : attr.graphs())
                markSubgraphReads(inner, onlyParameterUses);
        }
    }
}

} // namespace

int declareParameterInputs(onnx::GraphProto& graph) {
    std::set<std::string> initializers;
    for (const auto& init : graph.initializer())
        initializers.insert(init.name());
    std::map<std::string, const onnx::ValueInfoProto*> candidates;
    for (const auto& input : graph.input()) {
        if (initializers.count(input.name()) || !input.type().has_tensor_type()) continue;
        const auto& type = input.type().tensor_type();
        if (!isFloatingPoint(type.elem_type()) || !type.has_shape() || type.shape().dim_size() == 0) continue;
        bool numeric = true;
        for (const auto& dim : type.shape().dim())
            numeric = numeric && dim.has_dim_value() && dim.dim_value() > 0;
        if (numeric) candidates[input.name()] = &input;
    }
    std::map<std::string, bool> onlyParameterUses; // name -> every use so far is a parameter slot
    for (const auto& node : graph.node()) {
        for (int i = 0; i < node.input_size(); ++i) {
            auto candidate = candidates.find(node.input(i));
            if (candidate == candidates.end()) continue;
            const int rank = candidate->second->type().tensor_type().shape().dim_size();
            auto [use, added] = onlyParameterUses.try_emplace(node.input(i), true);
            use->second = use->second && isParameterSlot(node, i, rank);
        }
        for (const auto& attr : node.attribute()) { // a read inside a subgraph is not a slot we know
            if (attr.has_g()) markSubgraphReads(attr.g(), onlyParameterUses);
            for (const auto& body : attr.graphs())
                markSubgraphReads(body, onlyParameterUses);
        }
    }
    std::vector<const onnx::ValueInfoProto*> parameters;
    for (const auto& [name, only] : onlyParameterUses)
        if (only && candidates.count(name)) parameters.push_back(candidates[name]);
    for (const auto* input : parameters) {
        auto* init = graph.add_initializer();
        init->set_name(input->name());
        init->set_data_type(input->type().tensor_type().elem_type());
        for (const auto& dim : input->type().tensor_type().shape().dim())
            init->add_dims(dim.dim_value());
    }
    return static_cast<int>(parameters.size());
}

} // namespace rooftop
