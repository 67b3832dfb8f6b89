// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/shape_test_support.h"

#include "core/onnx/graph_builder.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/shape_rules.h"
#include "core/onnx/value_folding.h"

#include <QStringList>
#include <stdexcept>

namespace rooftop::test {

Graph graphOf(const std::string& text) {
    return graphFromModel(parseModelText(text), {}, "textual model");
}

QString dimsText(const std::vector<int64_t>& dims) {
    if (dims.empty()) return "scalar";
    QStringList parts;
    for (int64_t d : dims)
        parts << QString::number(d);
    return parts.join('x');
}

QString ruleShape(const Graph& graph, const std::string& output, DataType* type) {
    const int t = graph.findTensor(output);
    if (t < 0 || graph.tensors[static_cast<size_t>(t)].producer < 0) return "no producer";
    const Node& node = graph.nodes[static_cast<size_t>(graph.tensors[static_cast<size_t>(t)].producer)];
    std::vector<InferredOutput> outputs;
    if (!applyShapeRule(graph, node, outputs)) return "none";
    for (size_t i = 0; i < node.outputs.size(); ++i) {
        if (node.outputs[i] != t) continue;
        if (type) *type = outputs[i].type;
        return outputs[i].known ? dimsText(outputs[i].dims) : "?";
    }
    return "?";
}

QString shapeOf(const Graph& graph, const std::string& name) {
    const int t = graph.findTensor(name);
    return t < 0 ? "missing" : QString::fromStdString(graph.tensors[static_cast<size_t>(t)].shapeText());
}

const Tensor& tensorNamed(const Graph& graph, const std::string& name) {
    const int index = graph.findTensor(name);
    if (index < 0) throw std::runtime_error("no tensor named " + name);
    return graph.tensors[static_cast<size_t>(index)];
}

std::vector<int64_t> intValuesOf(const Graph& graph, const std::string& name) {
    const Tensor& t = tensorNamed(graph, name);
    return t.intValues ? *t.intValues : std::vector<int64_t>{-999};
}

std::vector<double> realValuesOf(const Graph& graph, const std::string& name) {
    const Tensor& t = tensorNamed(graph, name);
    return t.floatValues ? *t.floatValues : std::vector<double>{-999.0};
}

Graph foldedOnlyGraphOf(const std::string& text) {
    onnx::ModelProto model = parseModelText(text);
    Graph graph = buildGraph(model, {});
    foldIntegerValues(graph);
    return graph;
}

} // namespace rooftop::test
