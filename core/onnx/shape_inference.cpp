// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/shape_inference.h"

#include "core/onnx/inference_guard.h"
#include "core/onnx/shape_rules.h"
#include "core/onnx/value_folding.h"

#include <algorithm>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <set>
#include <utility>

namespace rooftop {
namespace {

// Hides schemas whose opset-17 semantics differ from the model's opset, so our own rules take over, and
// those of ops the model uses in a way that crashes the library.
class CurrentSemanticsRegistry : public onnx::ISchemaRegistry {
public:
    explicit CurrentSemanticsRegistry(std::set<std::pair<std::string, std::string>> unsafe)
        : unsafe_(std::move(unsafe)) {}

    const onnx::OpSchema* GetSchema(const std::string& key, const int maxInclusiveVersion,
                                    const std::string& domain) const override {
        if (libraryInferenceOutdated(domain, key, maxInclusiveVersion) || unsafe_.count({domain, key}))
            return nullptr;
        return onnx::OpSchemaRegistry::Instance()->GetSchema(key, maxInclusiveVersion, domain);
    }

private:
    std::set<std::pair<std::string, std::string>> unsafe_;
};

// ONNX 1.12's convolution and pooling inference divides by the strides: a stride of 0 is a SIGFPE.
void collectUnsafeOps(const onnx::GraphProto& graph, std::set<std::pair<std::string, std::string>>& unsafe) {
    for (const auto& node : graph.node()) {
        for (const auto& attr : node.attribute()) {
            if (attr.name() == "strides")
                for (int64_t stride : attr.ints())
                    if (stride <= 0) unsafe.insert({node.domain(), node.op_type()});
            if (attr.has_g()) collectUnsafeOps(attr.g(), unsafe);
            for (const auto& body : attr.graphs())
                collectUnsafeOps(body, unsafe);
        }
    }
}

void dropIntermediateShapes(onnx::ModelProto& model) {
    auto* graph = model.mutable_graph();
    graph->clear_value_info();
    for (auto& output : *graph->mutable_output())
        if (output.type().has_tensor_type()) output.mutable_type()->mutable_tensor_type()->clear_shape();
}

// Writes a shape we found into the model so the next ONNX round builds on it: into the graph output's
// type for outputs, else as value_info.
void recordShape(onnx::GraphProto& graph, const Tensor& tensor) {
    onnx::TypeProto* type = nullptr;
    for (auto& output : *graph.mutable_output())
        if (output.name() == tensor.name) type = output.mutable_type();
    for (auto& info : *graph.mutable_value_info())
        if (!type && info.name() == tensor.name) type = info.mutable_type(); // a placeholder from the guard
    if (!type) {
        auto* info = graph.add_value_info();
        info->set_name(tensor.name);
        type = info->mutable_type();
    }
    auto* tensorType = type->mutable_tensor_type();
    if (tensor.type != DataType::Undefined) tensorType->set_elem_type(static_cast<int>(tensor.type));
    auto* shape = tensorType->mutable_shape();
    shape->clear_dim();
    for (int64_t d : tensor.dims)
        shape->add_dim()->set_dim_value(d);
}

bool outputsMissing(const Graph& graph, const Node& node) {
    for (int out : node.outputs)
        if (out >= 0 && !graph.tensors[static_cast<size_t>(out)].shapeKnown) return true;
    return false;
}

// One pass in topological order: our rule for each node ONNX left unknown, then value folding, so a
// chain of such nodes resolves within one round. Returns the tensors whose shapes became known.
std::vector<int> applyOwnRules(Graph& graph) {
    std::vector<char> knownBefore(graph.tensors.size());
    for (size_t t = 0; t < graph.tensors.size(); ++t)
        knownBefore[t] = graph.tensors[t].shapeKnown;
    std::vector<InferredOutput> outputs;
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const Node& node = graph.nodes[n];
        if (node.repeat != 1 || !node.note.empty()) continue; // subgraph scopes keep ONNX's shapes
        if (outputsMissing(graph, node) && applyShapeRule(graph, node, outputs)) {
            for (size_t i = 0; i < node.outputs.size(); ++i) {
                if (node.outputs[i] < 0 || !outputs[i].known) continue;
                Tensor& tensor = graph.tensors[static_cast<size_t>(node.outputs[i])];
                if (tensor.shapeKnown) continue;
                tensor.dims = outputs[i].dims;
                tensor.shapeKnown = true;
                if (tensor.type == DataType::Undefined) tensor.type = outputs[i].type;
            }
        }
        foldNodeValues(graph, n);
    }
    std::vector<int> found;
    for (size_t t = 0; t < graph.tensors.size(); ++t)
        if (graph.tensors[t].shapeKnown && !knownBefore[t]) found.push_back(static_cast<int>(t));
    return found;
}

} // namespace

Graph inferShapes(onnx::ModelProto& model, std::vector<std::string>& notes) {
    dropIntermediateShapes(model);
    std::set<std::pair<std::string, std::string>> unsafe;
    collectUnsafeOps(model.graph(), unsafe);
    CurrentSemanticsRegistry registry(std::move(unsafe));
    const onnx::ShapeInferenceOptions options(false, 0, true);
    constexpr int maxRounds = 16;
    for (int round = 0;; ++round) {
        ShapeDataMap shapeData;
        try {
            addPlaceholderTypes(*model.mutable_graph(), registry, model.opset_import());
            onnx::shape_inference::InferShapes(model, &registry, options, &shapeData);
        } catch (const std::exception& error) {
            std::string message = error.what();
            if (auto eol = message.find('\n'); eol != std::string::npos) message.resize(eol);
            message = "ONNX shape inference stopped early: " + message;
            if (std::find(notes.begin(), notes.end(), message) == notes.end()) notes.push_back(message);
        }
        Graph graph = buildGraph(model, shapeData);
        const std::vector<int> found = applyOwnRules(graph);
        if (found.empty() || round == maxRounds) return graph;
        for (int t : found)
            recordShape(*model.mutable_graph(), graph.tensors[static_cast<size_t>(t)]);
    }
}

} // namespace rooftop
