// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/shape_inference.h"

#include "core/onnx/shape_rules.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

namespace rooftop {
namespace {

// Hides schemas whose opset-17 semantics differ from the model's opset, so our own rules take over.
class CurrentSemanticsRegistry : public onnx::ISchemaRegistry {
public:
    const onnx::OpSchema* GetSchema(const std::string& key, const int maxInclusiveVersion,
                                    const std::string& domain) const override {
        if (libraryInferenceOutdated(domain, key, maxInclusiveVersion)) return nullptr;
        return onnx::OpSchemaRegistry::Instance()->GetSchema(key, maxInclusiveVersion, domain);
    }
};

void dropIntermediateShapes(onnx::ModelProto& model) {
    auto* graph = model.mutable_graph();
    graph->clear_value_info();
    for (auto& output : *graph->mutable_output())
        if (output.type().has_tensor_type()) output.mutable_type()->mutable_tensor_type()->clear_shape();
}

void recordShape(onnx::GraphProto& graph, const std::string& name, const InferredOutput& out) {
    auto* info = graph.add_value_info();
    info->set_name(name);
    auto* tensorType = info->mutable_type()->mutable_tensor_type();
    tensorType->set_elem_type(static_cast<int>(out.type));
    auto* shape = tensorType->mutable_shape();
    for (int64_t d : out.dims) shape->add_dim()->set_dim_value(d);
}

} // namespace

Graph inferShapes(onnx::ModelProto& model, std::vector<std::string>& notes) {
    dropIntermediateShapes(model);
    CurrentSemanticsRegistry registry;
    const onnx::ShapeInferenceOptions options(false, 0, true);
    constexpr int maxRounds = 16;
    for (int round = 0;; ++round) {
        ShapeDataMap shapeData;
        try {
            onnx::shape_inference::InferShapes(model, &registry, options, &shapeData);
        } catch (const std::exception& error) {
            std::string message = error.what();
            if (auto eol = message.find('\n'); eol != std::string::npos) message.resize(eol);
            notes.push_back("ONNX shape inference stopped early: " + message);
        }
        Graph graph = buildGraph(model, shapeData);
        if (round == maxRounds) return graph;

        int added = 0;
        for (const Node& node : graph.nodes) {
            if (node.repeat != 1 || !node.note.empty()) continue; // subgraph scopes keep ONNX's shapes
            bool missing = false;
            for (int out : node.outputs)
                if (out >= 0 && !graph.tensors[static_cast<size_t>(out)].shapeKnown) missing = true;
            if (!missing) continue;
            ShapeRule rule = findShapeRule(node.domain, node.opType, node.opsetVersion);
            if (!rule) continue;
            std::vector<InferredOutput> outputs(node.outputs.size());
            if (!rule(graph, node, outputs)) continue;
            for (size_t i = 0; i < node.outputs.size(); ++i) {
                if (node.outputs[i] < 0 || !outputs[i].known) continue;
                const Tensor& tensor = graph.tensors[static_cast<size_t>(node.outputs[i])];
                if (tensor.shapeKnown) continue;
                recordShape(*model.mutable_graph(), tensor.name, outputs[i]);
                ++added;
            }
        }
        if (added == 0) return graph;
    }
}

} // namespace rooftop
