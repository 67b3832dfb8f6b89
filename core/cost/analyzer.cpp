// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/errors.h"
#include "core/cost/cost_registry.h"
#include "core/cost/pagoda_convention.h"
#include "core/cost/traffic.h"
#include "core/cost/training_step.h"
#include "core/cost/workload.h"
#include "core/graph/checked_math.h"
#include "core/onnx/model_graph.h"

#include <algorithm>
#include <map>
#include <set>

namespace rooftop {
namespace {

bool isConstantNode(const Node& node) {
    return node.isDefaultDomain() && node.opType == "Constant";
}

OpCost costOf(const Graph& graph, const Node& node, Convention convention) {
    const CostContext context(graph, node);
    CostRule rule = findCostRule(node.domain, node.opType);
    OpCost cost;
    if (!rule) {
        cost.supported = false;
        return cost;
    }
    cost = rule(context);
    if (convention == Convention::Pagoda && cost.supported) {
        if (auto flops = pagodaFlops(context, cost)) {
            // Keep MACs and SFU ops; the remainder of the Pagoda total goes to vector ops.
            const int64_t rest = *flops - 2 * cost.macs - cost.sfuOps;
            cost.vectorOps = rest;
        }
    }
    return cost;
}

std::vector<std::string> shapesOf(const Graph& graph, const std::vector<int>& indices) {
    std::vector<std::string> shapes;
    for (int index : indices)
        shapes.push_back(index < 0 ? "" : graph.tensors[static_cast<size_t>(index)].shapeText());
    return shapes;
}

// The first floating-point or integer activation input's type; weights decide only when nothing else does.
DataType computeTypeOf(const Graph& graph, const Node& node, Precision precision) {
    DataType fallback = DataType::Undefined;
    for (int index : node.inputs) {
        if (index < 0) continue;
        const Tensor& tensor = graph.tensors[static_cast<size_t>(index)];
        if (isMetadataTensor(tensor) || tensor.type == DataType::Undefined) continue;
        if (!tensor.isWeight()) return applyPrecision(tensor.type, precision);
        if (fallback == DataType::Undefined) fallback = tensor.type;
    }
    if (fallback == DataType::Undefined)
        for (int index : node.outputs)
            if (index >= 0) return applyPrecision(graph.tensors[static_cast<size_t>(index)].type, precision);
    return applyPrecision(fallback, precision);
}

/// True for a matrix product whose weight bytes pack several low-bit values: MatMulNBits (com.microsoft) and
/// TensorRT Edge-LLM's int4 GEMM plugins (the domains and names core/cost/matmul_rules registers).
bool packsWeights(const Node& node) {
    if (node.domain == "com.microsoft") return node.opType == "MatMulNBits";
    return (node.domain == "trt_edgellm" || node.domain == "trt") &&
           (node.opType == "Int4GroupwiseGemmPlugin" || node.opType == "Int4GroupwiseGemmPluginV2");
}

/// The weights a packed low-bit matrix holds, by tensor index: its K x N values however many a byte packs,
/// and none for its scales and zero points (as llama-bench counts a GGUF's) unless another node reads them.
std::map<int, int64_t> packedWeightValues(const Graph& graph) {
    std::set<int> packing;
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (packsWeights(graph.nodes[i])) packing.insert(static_cast<int>(i));
    std::map<int, int64_t> values;
    for (int index : packing) {
        const Node& node = graph.nodes[static_cast<size_t>(index)];
        if (node.inputs.size() < 2 || node.inputs[1] < 0) continue;
        const bool nbits = node.opType == "MatMulNBits";
        const int64_t k = node.attributeInt(nbits ? "K" : "gemm_k", 0);
        const int64_t n = node.attributeInt(nbits ? "N" : "gemm_n", 0);
        if (k > 0 && n > 0) values[node.inputs[1]] = checkedMul(k, n);
        for (size_t input = 2; input < std::min<size_t>(node.inputs.size(), nbits ? 4 : 3); ++input) {
            const int tensor = node.inputs[input];
            if (tensor < 0) continue;
            const std::vector<int>& readers = graph.tensors[static_cast<size_t>(tensor)].consumers;
            if (std::all_of(readers.begin(), readers.end(), [&](int r) { return packing.count(r) != 0; }))
                values[tensor] = 0;
        }
    }
    return values;
}

/// The values the weights hold (WorkloadTotals::params, initializers) and the bytes of every weight tensor
/// (initializers and Constants) at `precision`, each once and whole however little of it a layer reads.
std::pair<int64_t, int64_t> countParams(const Graph& graph, Precision precision) {
    const std::map<int, int64_t> packed = packedWeightValues(graph);
    int64_t params = 0, bytes = 0;
    for (size_t i = 0; i < graph.tensors.size(); ++i) {
        const Tensor& tensor = graph.tensors[i];
        if (!tensor.isWeight() || tensor.consumers.empty() || !tensor.shapeKnown) continue;
        const DataType t = tensor.type;
        if (t == DataType::Int64 || t == DataType::Int32 || t == DataType::Bool || t == DataType::String)
            continue;
        const auto values = packed.find(static_cast<int>(i));
        // a packed low-bit matrix holds what it stores, whatever the precision setting
        bytes = checkedAdd(bytes, precisionBytes(tensor.elementCount(), t,
                                                 values != packed.end() ? Precision::AsModel : precision));
        if (tensor.origin == TensorOrigin::Initializer)
            params = checkedAdd(params, values != packed.end() ? values->second : tensor.elementCount());
    }
    return {params, bytes};
}

std::string shapeList(const Graph& graph, const std::vector<int>& indices) {
    std::string text;
    for (int index : indices) {
        if (index < 0) continue;
        const Tensor& tensor = graph.tensors[static_cast<size_t>(index)];
        text += (text.empty() ? "" : ", ") + tensor.name + " " + tensor.shapeText();
    }
    return text;
}

// The first node (in topological order) with an unknown output shape whose inputs are all known: where
// shapes were lost. Sets node and reason; leaves them empty when every shape is known.
void findShapeLoss(const Graph& graph, std::string& node, std::string& reason) {
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& n = graph.nodes[i];
        bool outputUnknown = false, inputsKnown = true;
        for (int out : n.outputs)
            if (out >= 0 && !graph.tensors[static_cast<size_t>(out)].shapeKnown) outputUnknown = true;
        for (int in : n.inputs)
            if (in >= 0 && !graph.tensors[static_cast<size_t>(in)].shapeKnown) inputsKnown = false;
        if (!outputUnknown || !inputsKnown) continue;
        node = (n.name.empty() ? n.opType + "_" + std::to_string(i) : n.name) + " (" + n.opType + ")";
        reason =
            "its inputs are known (" + shapeList(graph, n.inputs) +
            ") but neither ONNX's inference nor our rules give its output shape; a value it needs may be "
            "data-dependent, in an absent external file, or a symbolic dim to bind with --dim";
        return;
    }
}

} // namespace

Workload analyzeGraph(const Graph& graph, const AnalysisSettings& settings) {
    Workload workload;
    workload.info = graph.info;
    workload.settings = settings;
    if (settings.phase == Phase::Training && settings.samples > 0 && !settings.dims.batch &&
        !graph.info.batchFromDims)
        throw InputError("an epoch of samples needs the minibatch size: --batch N (no --dim bound the "
                         "model's batch dimension, dim 0 of its inputs)");
    // the batch a --dim bound is the batch (the minibatch of an epoch), as the analysis pipeline reads it
    if (!settings.dims.batch && graph.info.batchFromDims)
        workload.settings.dims.batch = graph.info.batchFromDims;

    std::vector<OpCost> costs;
    costs.reserve(graph.nodes.size());
    for (const Node& node : graph.nodes) {
        OpCost cost = isConstantNode(node) ? OpCost{} : costOf(graph, node, settings.convention);
        if (isConstantNode(node)) cost.kind = OpKind::Control;
        costs.push_back(cost);
    }
    const std::vector<NodeTraffic> traffic = computeTraffic(graph, costs, settings);

    std::set<std::string> unsupported;
    std::set<std::string> shapeUnknown;
    WorkloadTotals& totals = workload.totals;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& node = graph.nodes[i];
        if (isConstantNode(node)) continue;
        const OpCost& cost = costs[i];
        LayerCount layer;
        layer.nodeIndex = static_cast<int>(i);
        layer.name = node.name.empty() ? node.opType + "_" + std::to_string(i) : node.name;
        layer.op = node.opType;
        layer.domain = node.displayDomain();
        layer.inputShapes = shapesOf(graph, node.inputs);
        layer.outputShapes = shapesOf(graph, node.outputs);
        layer.kind = cost.kind;
        layer.computeType = computeTypeOf(graph, node, settings.precision);
        layer.supported = cost.supported;
        layer.repeat = node.repeat;
        layer.note = node.note;
        layer.fused = traffic[i].fused;
        const int64_t r = node.repeat;
        const bool folded = traffic[i].foldedWeights || traffic[i].buildsWeights;
        if (traffic[i].buildsWeights) layer.kind = OpKind::Alias; // no kernel of its own
        if (traffic[i].onHost) layer.kind = OpKind::Control;
        layer.macs = folded ? 0 : checkedMul(cost.macs, r);
        layer.sfuOps = folded ? 0 : checkedMul(cost.sfuOps, r);
        layer.flops =
            folded ? 0
                   : checkedMul(checkedAdd(checkedAdd(checkedMul(cost.macs, 2), cost.vectorOps), cost.sfuOps),
                                r);
        layer.weightBytes = checkedMul(traffic[i].weightBytes, r);
        layer.inputBytes = checkedMul(traffic[i].inputBytes, r);
        layer.outputBytes = checkedMul(traffic[i].outputBytes, r);
        if (traffic[i].foldedWeights) layer.note = "folded into the preceding convolution";
        if (traffic[i].buildsWeights)
            layer.note = "computed from weights alone: folded into the product that reads them";
        if (traffic[i].onHost && layer.note.empty())
            layer.note = "arithmetic on shapes: worked out on the host, no kernel";
        if (!layer.supported) {
            const std::string op = node.isDefaultDomain() ? node.opType : node.domain + "." + node.opType;
            layer.shapeUnknown = findCostRule(node.domain, node.opType) != nullptr;
            (layer.shapeUnknown ? shapeUnknown : unsupported).insert(op);
            if (layer.note.empty())
                layer.note =
                    layer.shapeUnknown ? "shapes unknown: not counted" : "no cost rule for this operator";
        }

        totals.macs = checkedAdd(totals.macs, layer.macs);
        totals.flops = checkedAdd(totals.flops, layer.flops);
        totals.sfuOps = checkedAdd(totals.sfuOps, layer.sfuOps);
        totals.weightBytes = checkedAdd(totals.weightBytes, layer.weightBytes);
        totals.inputBytes = checkedAdd(totals.inputBytes, layer.inputBytes);
        totals.outputBytes = checkedAdd(totals.outputBytes, layer.outputBytes);
        if (layer.kind == OpKind::Matrix && node.opType != "LSTM" && node.opType != "GRU" &&
            node.opType != "RNN")
            totals.torchvisionMacs = checkedAdd(totals.torchvisionMacs, layer.macs);
        workload.layers.push_back(std::move(layer));
    }
    totals.layers = static_cast<int64_t>(workload.layers.size());
    std::tie(totals.params, totals.weightHeldBytes) = countParams(graph, settings.precision);
    totals.unsupported.assign(unsupported.begin(), unsupported.end());
    totals.shapeUnknown.assign(shapeUnknown.begin(), shapeUnknown.end());
    if (!shapeUnknown.empty()) findShapeLoss(graph, totals.shapeLossNode, totals.shapeLossReason);
    if (settings.phase == Phase::Training) countTrainingStep(graph, costs, settings, workload);
    return workload;
}

void sumLayersIntoTotals(Workload& workload) {
    WorkloadTotals& t = workload.totals;
    t.macs = t.flops = t.sfuOps = t.weightBytes = t.inputBytes = t.outputBytes = 0;
    for (const LayerCount& layer : workload.layers) {
        t.macs = checkedAdd(t.macs, layer.macs);
        t.flops = checkedAdd(t.flops, layer.flops);
        t.sfuOps = checkedAdd(t.sfuOps, layer.sfuOps);
        t.weightBytes = checkedAdd(t.weightBytes, layer.weightBytes);
        t.inputBytes = checkedAdd(t.inputBytes, layer.inputBytes);
        t.outputBytes = checkedAdd(t.outputBytes, layer.outputBytes);
    }
}

Workload analyzeModelFile(const std::string& path, const AnalysisSettings& settings) {
    try {
        return analyzeGraph(loadGraph(path, settings.dims), settings);
    } catch (const CountOverflow&) {
        throw InputError(path + ": counts overflow 64 bits (absurd dimensions in the model or options)");
    }
}

} // namespace rooftop
