// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/shape_inference.h"

#include "core/onnx/graph_structure.h"
#include "core/onnx/inference_guard.h"
#include "core/onnx/shape_rules.h"
#include "core/onnx/value_folding.h"

#include <algorithm>
#include <cstdlib>
#include <map>
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

/// True for a control-flow node of the default domain without the graph attribute(s) ONNX 1.12's inference
/// dereferences unchecked (Scan and Loop "body", If "then_branch" and "else_branch").
bool lacksItsBody(const onnx::NodeProto& node) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
    const auto hasGraph = [&node](const char* name) {
        for (const auto& attr : node.attribute())
            if (attr.name() == name && attr.has_g()) return true;
        return false;
    };
    if (node.op_type() == "Scan" || node.op_type() == "Loop") return !hasGraph("body");
    if (node.op_type() == "If") return !hasGraph("then_branch") || !hasGraph("else_branch");
    return false;
}

// The rank a graph states for a value (input, value_info or initializer); -1 when it states none.
int statedRank(const onnx::GraphProto& graph, const std::string& name) {
    for (const auto& tensor : graph.initializer())
        if (tensor.name() == name) return tensor.dims_size();
    for (const auto* list : {&graph.input(), &graph.value_info()})
        for (const auto& value : *list)
            if (value.name() == name && value.type().has_tensor_type() &&
                value.type().tensor_type().has_shape())
                return value.type().tensor_type().shape().dim_size();
    return -1;
}

// A convolution or pooling whose stated ranks disagree (data against weights, or against the spatial
// attributes): ONNX 1.12's inference indexes the data's dims by the weights' or the attributes' count.
bool windowRanksDisagree(const onnx::GraphProto& graph, const onnx::NodeProto& node) {
    static const std::set<std::string> convolutions = {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv"};
    static const std::set<std::string> pools = {"MaxPool", "AveragePool", "LpPool"};
    if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
    const bool convolution = convolutions.count(node.op_type()) > 0;
    if ((!convolution && !pools.count(node.op_type())) || node.input_size() < 1) return false;
    const int data = statedRank(graph, node.input(0));
    const int weightInput = node.op_type() == "QLinearConv" ? 3 : 1;
    const int weights =
        convolution && node.input_size() > weightInput ? statedRank(graph, node.input(weightInput)) : -1;
    if (data >= 0 && weights >= 0 && data != weights) return true;
    const int rank = data >= 0 ? data : weights;
    if (rank < 0) return false;
    if (rank < 3) return true;
    for (const auto& attr : node.attribute()) {
        const int expected = attr.name() == "pads" ? 2 * (rank - 2) : rank - 2;
        const bool spatial = attr.name() == "kernel_shape" || attr.name() == "dilations" ||
                             attr.name() == "strides" || attr.name() == "pads" ||
                             attr.name() == "output_padding";
        if (spatial && attr.ints_size() != expected) return true;
    }
    return false;
}

// ONNX 1.12's convolution and pooling inference divides by the strides: a stride of 0 is a SIGFPE, and
// indexes the data's dims by the weights' or the attributes' count: a rank that disagrees reads past them;
// its Scan, Loop and If inference reads their bodies without checking that they are there: a null
// dereference.
void collectUnsafeOps(const onnx::GraphProto& graph, std::set<std::pair<std::string, std::string>>& unsafe) {
    for (const auto& node : graph.node()) {
        if (lacksItsBody(node) || windowRanksDisagree(graph, node))
            unsafe.insert({node.domain(), node.op_type()});
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

// Gives the symbolic dims that subgraph bodies state their values the bindings give them, as for the graph
// inputs: ONNX's inference reads a body's value_info, and a dim it cannot infer would stay a symbol.
void bindSubgraphSymbols(onnx::GraphProto& graph, const std::map<std::string, int64_t>& symbols, bool body) {
    auto bind = [&](onnx::ValueInfoProto& value) {
        if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) return;
        for (auto& dim : *value.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
            if (dim.has_dim_param())
                if (auto symbol = symbols.find(dim.dim_param()); symbol != symbols.end())
                    dim.set_dim_value(symbol->second);
    };
    if (body) {
        for (auto& value : *graph.mutable_value_info())
            bind(value);
        for (auto& value : *graph.mutable_output())
            bind(value);
    }
    for (auto& node : *graph.mutable_node())
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) bindSubgraphSymbols(*attr.mutable_g(), symbols, true);
            for (auto& inner : *attr.mutable_graphs())
                bindSubgraphSymbols(inner, symbols, true);
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

// A shape the model file states for a value (value_info or graph output), every dim a number.
struct FileShape {
    DataType type = DataType::Undefined;
    std::vector<int64_t> dims;
};
using FileShapes = std::map<std::string, FileShape>;

FileShapes collectFileShapes(const onnx::GraphProto& graph, const std::map<std::string, int64_t>& symbols) {
    FileShapes shapes;
    auto add = [&](const onnx::ValueInfoProto& value, bool output) {
        if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) return;
        // Textual ONNX writes an output declared without dims ("float y") as rank 0: no fact.
        if (output && value.type().tensor_type().shape().dim_size() == 0) return;
        FileShape shape;
        if (value.type().tensor_type().elem_type() != 0)
            shape.type = dataTypeFromOnnx(value.type().tensor_type().elem_type());
        for (const auto& dim : value.type().tensor_type().shape().dim()) {
            auto symbol = dim.has_dim_param() ? symbols.find(dim.dim_param()) : symbols.end();
            if (symbol != symbols.end())
                shape.dims.push_back(symbol->second);
            else if (dim.has_dim_value() && dim.dim_value() >= 0)
                shape.dims.push_back(dim.dim_value());
            else
                return;
        }
        shapes[value.name()] = std::move(shape);
    };
    // Subgraph bodies state shapes too (ONNX reads them; a symbolic dim only this way takes its bound value).
    std::vector<const onnx::GraphProto*> scopes{&graph};
    for (size_t i = 0; i < scopes.size() && i < 4096; ++i) {
        for (const auto& value : scopes[i]->value_info())
            add(value, false);
        for (const auto& value : scopes[i]->output())
            add(value, true);
        for (const auto& node : scopes[i]->node())
            for (const auto& attr : node.attribute()) {
                if (attr.has_g()) scopes.push_back(&attr.g());
                for (const auto& body : attr.graphs())
                    scopes.push_back(&body);
            }
    }
    return shapes;
}

bool isComputed(const Tensor& tensor) {
    return tensor.origin != TensorOrigin::Initializer && tensor.origin != TensorOrigin::GraphInput;
}

// Gives every computed tensor still unknown the shape the file states for it; returns those it filled.
std::vector<int> applyFileShapes(Graph& graph, const FileShapes& shapes) {
    std::vector<int> found;
    for (const auto& [name, shape] : shapes) {
        const int t = graph.findTensor(name);
        if (t < 0) continue;
        Tensor& tensor = graph.tensors[static_cast<size_t>(t)];
        if (tensor.shapeKnown || !isComputed(tensor)) continue;
        tensor.dims = shape.dims;
        tensor.shapeKnown = true;
        if (tensor.type == DataType::Undefined) tensor.type = shape.type;
        found.push_back(t);
    }
    return found;
}

std::string dimsText(const std::vector<int64_t>& dims) {
    Tensor shown;
    shown.dims = dims;
    shown.shapeKnown = true;
    return shown.shapeText();
}

// One note for the tensors whose inferred shape differs from the file's (the inferred one is kept).
void noteDisagreements(const Graph& graph, const FileShapes& shapes, std::vector<std::string>& notes) {
    std::vector<std::string> differing;
    for (const auto& [name, shape] : shapes) {
        const Tensor* tensor = graph.tensor(graph.findTensor(name));
        if (tensor && tensor->shapeKnown && tensor->dims != shape.dims)
            differing.push_back("'" + name + "' file " + dimsText(shape.dims) + ", inferred " +
                                dimsText(tensor->dims));
    }
    if (differing.empty()) return;
    std::string note = std::to_string(differing.size()) +
                       " shape(s) in the file disagree with inference (inferred kept): " + differing[0];
    for (size_t i = 1; i < differing.size() && i < 3; ++i)
        note += "; " + differing[i];
    if (differing.size() > 3) note += "; ...";
    notes.push_back(note);
}

// Nodes hidden from ONNX's inference are moved to this domain for the call, so ONNX has no schema for them.
const char* const skipDomain = "rooftop.skipped";
constexpr size_t maxSkippedNodes = 64; // each skip repeats a whole-graph inference

void hideNodes(onnx::GraphProto& graph, const std::set<std::string>& names,
               std::vector<std::pair<onnx::NodeProto*, std::string>>& hidden) {
    for (auto& node : *graph.mutable_node()) {
        if (!node.name().empty() && names.count(node.name())) {
            hidden.emplace_back(&node, node.domain());
            node.set_domain(skipDomain);
        }
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) hideNodes(*attr.mutable_g(), names, hidden);
            for (auto& body : *attr.mutable_graphs())
                hideNodes(body, names, hidden);
        }
    }
}

const onnx::NodeProto* findNode(const onnx::GraphProto& graph, const std::string& name) {
    for (const auto& node : graph.node()) {
        if (node.name() == name) return &node;
        for (const auto& attr : node.attribute()) {
            if (attr.has_g())
                if (const auto* found = findNode(attr.g(), name)) return found;
            for (const auto& body : attr.graphs())
                if (const auto* found = findNode(body, name)) return found;
        }
    }
    return nullptr;
}

// Unnamed nodes get a temporary name for the call, one ONNX's errors can point to (the same on every call).
const char* const unnamedPrefix = "rooftop.unnamed.";

void nameUnnamedNodes(onnx::GraphProto& graph, int& counter, std::vector<onnx::NodeProto*>& named) {
    for (auto& node : *graph.mutable_node()) {
        if (node.name().empty()) {
            node.set_name(unnamedPrefix + std::to_string(counter));
            named.push_back(&node);
        }
        ++counter;
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) nameUnnamedNodes(*attr.mutable_g(), counter, named);
            for (auto& body : *attr.mutable_graphs())
                nameUnnamedNodes(body, counter, named);
        }
    }
}

std::string nodeLabel(const onnx::NodeProto& node) {
    if (node.name().rfind(unnamedPrefix, 0) == 0) return "an unnamed " + node.op_type() + " node";
    return "node '" + node.name() + "' (" + node.op_type() + ")";
}

// The innermost node ONNX names in an error ("(op_type:X, node name: N): ...") that the graph has and that
// is not hidden yet; empty when there is none.
std::string failingNode(const std::string& message, const onnx::GraphProto& graph,
                        const std::set<std::string>& skipped) {
    const std::string marker = "node name: ";
    std::vector<std::string> names;
    for (size_t at = message.find(marker); at != std::string::npos; at = message.find(marker, at + 1)) {
        const size_t begin = at + marker.size();
        const size_t end = message.find("): ", begin);
        if (end == std::string::npos) break;
        names.push_back(message.substr(begin, end - begin));
    }
    for (auto it = names.rbegin(); it != names.rend(); ++it)
        if (!it->empty() && !skipped.count(*it) && findNode(graph, *it)) return *it;
    return {};
}

std::string firstLine(std::string message) {
    if (auto eol = message.find('\n'); eol != std::string::npos) message.resize(eol);
    return message;
}

void addNote(std::vector<std::string>& notes, const std::string& note) {
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
}

// ONNX's inference, with the nodes in `skipped` hidden. A node whose failure aborts the whole call is added
// to `skipped` and the call repeated, so one node it cannot handle does not cost the rest of the graph.
ShapeDataMap runOnnxInference(onnx::ModelProto& model, const onnx::ISchemaRegistry& registry,
                              std::set<std::string>& skipped, std::vector<std::string>& notes) {
    const onnx::ShapeInferenceOptions options(false, 0, true);
    for (;;) {
        std::vector<onnx::NodeProto*> named;
        int counter = 0;
        nameUnnamedNodes(*model.mutable_graph(), counter, named);
        std::vector<std::pair<onnx::NodeProto*, std::string>> hidden;
        hideNodes(*model.mutable_graph(), skipped, hidden);
        if (!hidden.empty()) {
            auto* opset = model.add_opset_import();
            opset->set_domain(skipDomain);
            opset->set_version(1);
        }
        auto restore = [&]() {
            for (auto& [node, domain] : hidden)
                node->set_domain(domain);
            if (!hidden.empty()) model.mutable_opset_import()->RemoveLast();
            for (auto* node : named)
                node->clear_name();
        };
        ShapeDataMap shapeData;
        try {
            addPlaceholderTypes(*model.mutable_graph(), registry, model.opset_import());
            onnx::shape_inference::InferShapes(model, &registry, options, &shapeData);
            restore();
            return shapeData;
        } catch (const std::exception& error) {
            const std::string message = error.what();
            const std::string node = failingNode(message, model.graph(), skipped);
            const std::string label =
                node.empty() ? std::string() : nodeLabel(*findNode(model.graph(), node));
            restore();
            if (node.empty() || skipped.size() >= maxSkippedNodes) {
                addNote(notes, "ONNX shape inference stopped early: " + firstLine(message));
                return {};
            }
            if (skipped.empty())
                addNote(notes, "ONNX shape inference skipped " + label +
                                   ", which it could not handle (own rules and the file's shapes used): " +
                                   firstLine(message));
            skipped.insert(node);
        }
    }
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

// Whether another round of ONNX's inference could learn anything: some node still lacking an output reads a
// tensor whose shape became known this round (ONNX saw every other input already).
bool anotherRoundCanHelp(const Graph& graph, const std::vector<int>& found) {
    std::vector<char> isNew(graph.tensors.size(), 0);
    for (int t : found)
        isNew[static_cast<size_t>(t)] = 1;
    for (const Node& node : graph.nodes) {
        if (!outputsMissing(graph, node)) continue;
        for (int in : node.inputs)
            if (in >= 0 && isNew[static_cast<size_t>(in)]) return true;
    }
    return false;
}

// The graph from our own rules alone when they know every operator of a graph without subgraphs and find
// every shape and type; nullopt otherwise. ONNX's inference, and the schema registry it builds (half of a
// headless run), is then not needed.
std::optional<Graph> inferWithOwnRulesOnly(const onnx::ModelProto& model) {
    if (std::getenv("ROOFTOP_ONNX_INFERENCE_ALWAYS") || !ownRulesKnowEveryOperator(model))
        return std::nullopt;
    Graph graph = buildGraph(model, {});
    applyOwnRules(graph);
    for (const Tensor& tensor : graph.tensors)
        if (isComputed(tensor) && tensor.producer >= 0 &&
            (!tensor.shapeKnown || tensor.type == DataType::Undefined))
            return std::nullopt;
    return graph;
}

} // namespace

bool ownRulesKnowEveryOperator(const onnx::ModelProto& model) {
    std::map<std::string, int64_t> opsets;
    for (const auto& opset : model.opset_import())
        opsets[opset.domain() == "ai.onnx" ? std::string() : opset.domain()] = opset.version();
    for (const auto& node : model.graph().node()) {
        const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
        const auto opset = opsets.find(domain);
        const bool constant = domain.empty() && node.op_type() == "Constant"; // the builder reads its value
        if (hasSubgraph(node) || opset == opsets.end() ||
            (!constant && !findShapeRule(domain, node.op_type(), static_cast<int>(opset->second))))
            return false;
    }
    return true;
}

Graph inferShapes(onnx::ModelProto& model, const std::optional<std::map<std::string, int64_t>>& symbols,
                  std::vector<std::string>& notes) {
    const FileShapes fileShapes = symbols ? collectFileShapes(model.graph(), *symbols) : FileShapes{};
    dropIntermediateShapes(model);
    if (symbols) bindSubgraphSymbols(*model.mutable_graph(), *symbols, false);
    if (std::optional<Graph> graph = inferWithOwnRulesOnly(model)) {
        noteDisagreements(*graph, fileShapes, notes);
        return std::move(*graph);
    }
    std::set<std::pair<std::string, std::string>> unsafe;
    collectUnsafeOps(model.graph(), unsafe);
    CurrentSemanticsRegistry registry(std::move(unsafe));
    std::set<std::string> skipped;
    bool fileShapesUsed = false;
    constexpr int maxRounds = 16;
    for (int round = 0;; ++round) {
        const ShapeDataMap shapeData = runOnnxInference(model, registry, skipped, notes);
        Graph graph = buildGraph(model, shapeData);
        std::vector<int> found = applyOwnRules(graph);
        if (!found.empty() && !anotherRoundCanHelp(graph, found)) found.clear();
        // The file's shapes fill what inference and our rules could not, once both have settled.
        const bool last = round == maxRounds;
        if ((found.empty() || last) && !fileShapesUsed) {
            fileShapesUsed = true;
            const std::vector<int> filled = applyFileShapes(graph, fileShapes);
            found.insert(found.end(), filled.begin(), filled.end());
        }
        if (found.empty() || last) {
            if (skipped.size() > 1)
                notes.push_back("ONNX shape inference skipped " + std::to_string(skipped.size()) +
                                " nodes in all");
            noteDisagreements(graph, fileShapes, notes);
            return graph;
        }
        for (int t : found)
            recordShape(*model.mutable_graph(), graph.tensors[static_cast<size_t>(t)]);
    }
}

} // namespace rooftop
