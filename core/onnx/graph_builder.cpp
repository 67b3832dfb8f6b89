// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/graph_builder.h"

#include "core/graph/checked_math.h"
#include "core/onnx/tensor_values.h"

namespace rooftop {
namespace {

// Exporters write a while loop as a Loop with trip count INT64_MAX; from this count on, M is no bound.
constexpr int64_t unboundedTripCount = int64_t(1) << 31;

AttributeValue convertAttribute(const onnx::AttributeProto& attr) {
    AttributeValue value;
    value.i = attr.i();
    value.f = attr.f();
    value.s = attr.s();
    value.ints.assign(attr.ints().begin(), attr.ints().end());
    value.floats.assign(attr.floats().begin(), attr.floats().end());
    if (attr.has_t()) {
        value.tensorType = attr.t().data_type();
        if (auto ints = integerValues(attr.t())) value.ints = *ints;
        if (auto floats = floatValues(attr.t())) value.floats = *floats;
    }
    return value;
}

void applyType(Tensor& tensor, const onnx::TypeProto& type) {
    if (!type.has_tensor_type()) return;
    const auto& tensorType = type.tensor_type();
    if (tensorType.elem_type() != 0) tensor.type = dataTypeFromOnnx(tensorType.elem_type());
    if (!tensorType.has_shape()) return;
    std::vector<int64_t> dims;
    for (const auto& dim : tensorType.shape().dim()) {
        if (!dim.has_dim_value() || dim.dim_value() < 0) return;
        dims.push_back(dim.dim_value());
    }
    tensor.dims = std::move(dims);
    tensor.shapeKnown = true;
}

void applyTensorProto(Tensor& tensor, const onnx::TensorProto& proto, TensorOrigin origin) {
    tensor.origin = origin;
    tensor.type = dataTypeFromOnnx(proto.data_type());
    tensor.dims.assign(proto.dims().begin(), proto.dims().end());
    tensor.shapeKnown = true;
    for (int64_t d : tensor.dims)
        if (d < 0) tensor.shapeKnown = false;
    tensor.externalData = proto.data_location() == onnx::TensorProto::EXTERNAL;
    tensor.intValues = integerValues(proto);
    tensor.floatValues = floatValues(proto);
}

// Constant node attributes other than `value` hold scalars or lists.
void applyConstantNode(Tensor& tensor, const onnx::NodeProto& node) {
    for (const auto& attr : node.attribute()) {
        if (attr.name() == "value" && attr.has_t()) {
            applyTensorProto(tensor, attr.t(), TensorOrigin::Constant);
            return;
        }
        tensor.origin = TensorOrigin::Constant;
        tensor.shapeKnown = true;
        if (attr.name() == "value_int") {
            tensor.type = DataType::Int64;
            tensor.dims = {};
            tensor.intValues = std::vector<int64_t>{attr.i()};
        } else if (attr.name() == "value_ints") {
            tensor.type = DataType::Int64;
            tensor.dims = {attr.ints_size()};
            tensor.intValues = std::vector<int64_t>(attr.ints().begin(), attr.ints().end());
        } else if (attr.name() == "value_float") {
            tensor.type = DataType::Float32;
            tensor.dims = {};
            tensor.floatValues = std::vector<double>{attr.f()};
        } else if (attr.name() == "value_floats") {
            tensor.type = DataType::Float32;
            tensor.dims = {attr.floats_size()};
            tensor.floatValues = std::vector<double>(attr.floats().begin(), attr.floats().end());
        } else {
            tensor.shapeKnown = false;
        }
    }
}

class Builder {
public:
    Builder(Graph& graph, const ShapeDataMap& shapeData) : graph_(graph), shapeData_(shapeData) {}

    void addScope(const onnx::GraphProto& proto, int64_t repeat, const std::string& note, bool topLevel) {
        for (const auto& init : proto.initializer())
            applyTensorProto(tensorFor(init.name()), init, TensorOrigin::Initializer);
        for (const auto& input : proto.input()) {
            Tensor& tensor = tensorFor(input.name());
            if (tensor.origin == TensorOrigin::Initializer) continue;
            tensor.origin = TensorOrigin::GraphInput;
            applyType(tensor, input.type());
            if (topLevel) graph_.inputs.push_back(graph_.findTensor(input.name()));
        }
        for (const auto& info : proto.value_info()) applyType(tensorFor(info.name()), info.type());
        for (const auto& output : proto.output()) {
            Tensor& tensor = tensorFor(output.name());
            if (!tensor.shapeKnown) applyType(tensor, output.type());
            if (topLevel) graph_.outputs.push_back(graph_.findTensor(output.name()));
        }
        for (const auto& nodeProto : proto.node()) addNode(nodeProto, repeat, note);
    }

private:
    Tensor& tensorFor(const std::string& name) {
        return graph_.tensors[static_cast<size_t>(graph_.addTensor(name))];
    }

    void addNode(const onnx::NodeProto& proto, int64_t repeat, const std::string& note) {
        Node node;
        node.name = proto.name();
        node.opType = proto.op_type();
        node.domain = proto.domain() == "ai.onnx" ? std::string() : proto.domain();
        auto opset = graph_.info.opsets.find(node.displayDomain());
        node.opsetVersion = opset == graph_.info.opsets.end() ? 0 : static_cast<int>(opset->second);
        node.repeat = repeat;
        node.note = note;
        const int index = static_cast<int>(graph_.nodes.size());
        for (const auto& in : proto.input()) {
            if (in.empty()) {
                node.inputs.push_back(-1);
                continue;
            }
            int t = graph_.addTensor(in);
            node.inputs.push_back(t);
            graph_.tensors[static_cast<size_t>(t)].consumers.push_back(index);
        }
        for (const auto& out : proto.output()) {
            if (out.empty()) {
                node.outputs.push_back(-1);
                continue;
            }
            int t = graph_.addTensor(out);
            node.outputs.push_back(t);
            Tensor& tensor = graph_.tensors[static_cast<size_t>(t)];
            tensor.producer = index;
            auto data = shapeData_.find(out);
            if (data != shapeData_.end() && !tensor.intValues) {
                std::vector<int64_t> values;
                for (const auto& dim : data->second.dim()) {
                    if (!dim.has_dim_value()) break;
                    values.push_back(dim.dim_value());
                }
                if (values.size() == static_cast<size_t>(data->second.dim_size())) tensor.intValues = values;
            }
        }
        for (const auto& attr : proto.attribute()) node.attributes[attr.name()] = convertAttribute(attr);
        if (node.isDefaultDomain() && node.opType == "Constant" && !node.outputs.empty() && node.outputs[0] >= 0)
            applyConstantNode(graph_.tensors[static_cast<size_t>(node.outputs[0])], proto);

        const onnx::GraphProto* body = nullptr;
        int64_t bodyRepeat = repeat;
        std::string bodyNote;
        if (node.isDefaultDomain() && (node.opType == "Loop" || node.opType == "Scan" || node.opType == "If")) {
            for (const auto& attr : proto.attribute())
                if (attr.name() == "body" || attr.name() == "then_branch") body = &attr.g();
            if (node.opType == "Loop") {
                const Tensor* trip = graph_.tensor(node.inputs.empty() ? -1 : node.inputs[0]);
                const bool constant = trip && trip->intValues && trip->intValues->size() == 1;
                const int64_t trips = constant ? (*trip->intValues)[0] : -1;
                if (trips >= 0 && trips < unboundedTripCount) {
                    bodyRepeat = checkedMul(repeat, trips);
                    node.note = "Loop unrolled: body counted " + std::to_string(trips) + " times";
                } else if (trips >= unboundedTripCount) {
                    node.note = "Loop trip count unbounded (a while loop): body counted once";
                } else {
                    node.note = "Loop trip count not constant: body counted once";
                }
            } else if (node.opType == "Scan") {
                node.note = "Scan body counted once";
            } else {
                node.note = "If condition not constant: then-branch counted once";
            }
            bodyNote = "inside " + node.opType + " " + (node.name.empty() ? std::string("node") : node.name);
        }
        graph_.nodes.push_back(std::move(node));
        if (body) addScope(*body, bodyRepeat, bodyNote, false);
    }

    Graph& graph_;
    const ShapeDataMap& shapeData_;
};

} // namespace

Graph buildGraph(const onnx::ModelProto& model, const ShapeDataMap& shapeData) {
    Graph graph;
    graph.info.graphName = model.graph().name();
    graph.info.producer = model.producer_name() +
                          (model.producer_version().empty() ? "" : " " + model.producer_version());
    graph.info.irVersion = model.ir_version();
    for (const auto& opset : model.opset_import())
        graph.info.opsets[opset.domain().empty() ? "ai.onnx" : opset.domain()] = opset.version();
    size_t tensors = static_cast<size_t>(model.graph().initializer_size()) +
                     static_cast<size_t>(model.graph().input_size());
    for (const auto& node : model.graph().node())
        tensors += static_cast<size_t>(node.output_size());
    graph.nodes.reserve(static_cast<size_t>(model.graph().node_size()));
    graph.tensors.reserve(tensors);
    graph.tensorIndex.reserve(tensors);
    Builder(graph, shapeData).addScope(model.graph(), 1, std::string(), true);
    return graph;
}

} // namespace rooftop
