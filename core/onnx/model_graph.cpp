// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/model_graph.h"

#include "core/common/errors.h"
#include "core/onnx/control_flow.h"
#include "core/onnx/graph_structure.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/parameter_inputs.h"
#include "core/onnx/shape_inference.h"

#include <algorithm>
#include <google/protobuf/arena.h>
#include <set>

namespace rooftop {
namespace {

void checkDomains(const onnx::GraphProto& graph, const std::set<std::string>& imported) {
    for (const auto& node : graph.node()) {
        const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
        if (!imported.count(domain))
            throw InputError("node '" + (node.name().empty() ? node.op_type() : node.name()) +
                             "' uses domain '" + (domain.empty() ? std::string("ai.onnx") : domain) +
                             "', which the model does not import (opset_import)");
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) checkDomains(attr.g(), imported);
            for (const auto& g : attr.graphs())
                checkDomains(g, imported);
        }
    }
}

void checkDomains(const onnx::ModelProto& model) {
    std::set<std::string> imported;
    for (const auto& opset : model.opset_import())
        imported.insert(opset.domain() == "ai.onnx" ? std::string() : opset.domain());
    if (model.opset_import_size() == 0) imported.insert(std::string()); // IR < 3 models imply ai.onnx
    checkDomains(model.graph(), imported);
}

} // namespace

Graph graphFromModel(onnx::ModelProto model, const DimBindings& bindings, const std::string& sourceName) {
    return graphFromModelInPlace(model, bindings, sourceName);
}

Graph graphFromModelInPlace(onnx::ModelProto& model, const DimBindings& bindings,
                            const std::string& sourceName) {
    try {
        checkDomains(model);
        validateAndSortGraph(*model.mutable_graph());
    } catch (const InputError& error) {
        throw InputError(sourceName + ": " + error.what());
    }
    std::vector<std::string> notes;
    if (int inlined = inlineConstantIfs(*model.mutable_graph()); inlined > 0)
        notes.push_back(std::to_string(inlined) + " If node(s) with a constant condition inlined");
    if (int parameters = declareParameterInputs(*model.mutable_graph()); parameters > 0)
        notes.push_back(
            std::to_string(parameters) +
            " graph input(s) feed only weight operands (weights exported as inputs): counted as weights, "
            "--batch leaves them");
    InputBinding bound;
    const auto fileInputs = model.graph().input();
    try {
        bound = bindInputDims(model, bindings);
    } catch (const InputError& error) {
        throw InputError(sourceName + ": " + error.what());
    }
    const bool external = usesExternalData(model);
    const bool present = external && externalDataPresent(model, sourceName);
    const auto symbols = boundSymbols(fileInputs, model.graph());
    if (!symbols)
        notes.push_back("the file's intermediate shapes are not used: the bindings change a fixed input dim");
    Graph graph = inferShapes(model, symbols, notes);
    graph.info.path = sourceName;
    graph.info.hasExternalData = external;
    graph.info.externalDataPresent = present;
    for (const auto& input : fileInputs) {
        if (!input.type().has_tensor_type() || input.type().tensor_type().shape().dim_size() == 0) continue;
        const auto& first = input.type().tensor_type().shape().dim(0);
        if (first.has_dim_value() || first.dim_param().empty()) continue;
        const std::string entry = first.dim_param() + "=1";
        if (std::find(bound.assumed.begin(), bound.assumed.end(), entry) != bound.assumed.end() &&
            std::find(graph.info.assumedBatchDims.begin(), graph.info.assumedBatchDims.end(), entry) ==
                graph.info.assumedBatchDims.end())
            graph.info.assumedBatchDims.push_back(entry);
    }
    graph.info.batchFromDims = bound.batchFromDims;
    graph.info.batchSymbolsFromDims = std::move(bound.batchSymbols);
    graph.info.assumedDims = std::move(bound.assumed);
    graph.info.notes = std::move(notes);
    return graph;
}

Graph loadGraph(const std::string& path, const DimBindings& bindings) {
    // The arena makes the model's many small allocations cheap and frees them at once.
    google::protobuf::Arena arena;
    auto* model = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
    readModelFile(path, *model);
    return graphFromModelInPlace(*model, bindings, path);
}

} // namespace rooftop
