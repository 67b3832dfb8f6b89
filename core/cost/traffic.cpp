// SPDX-License-Identifier: GPL-3.0-or-later
// Per-node view: every node reads its inputs and weights from DRAM and writes its outputs (an upper bound).
// Fused view: as TensorRT fuses, an intermediate produced by a matrix or pointwise op and consumed only by a
// pointwise op stays on chip; BatchNormalization after a convolution is folded into it; aliases move nothing;
// a transform of whole weights alone (DequantizeLinear, Transpose, Cast, reshapes, element-wise scaling) is
// never written: its consumer reads the weights it came from (weight-only quantized GEMMs dequantize in the
// kernel, and engine builders fold the rest). Under the Pagoda convention the per-node view is the
// study's own per-op rule (pagoda_traffic.cpp).
#include "core/cost/traffic.h"

#include "core/common/wide_integer.h"
#include "core/cost/pagoda_traffic.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace rooftop {

int64_t precisionBytes(int64_t elements, DataType type, Precision precision) {
    if (elements <= 0) return 0;
    if (precision == Precision::FP4 && isFloatingPoint(type)) // NVFP4: E2M1 pairs + an E4M3 scale per 16
        return checkedAdd(elements / 2 + elements % 2, elements / 16 + (elements % 16 ? 1 : 0));
    const int64_t bits = elementBits(applyPrecision(type, precision));
    const int64_t totalBits = checkedMul(elements, bits == 0 ? 8 : bits); // strings: 1 B a guess
    return totalBits / 8 + (totalBits % 8 ? 1 : 0);
}

int64_t tensorBytes(const Tensor& tensor, Precision precision) {
    if (!tensor.shapeKnown) return 0;
    return precisionBytes(tensor.elementCount(), tensor.type, precision);
}

bool isMetadataTensor(const Tensor& tensor) {
    if (!tensor.intValues) return false;
    const DataType t = tensor.type;
    return t == DataType::Int64 || t == DataType::Int32 || t == DataType::Bool || t == DataType::Undefined;
}

namespace {

bool keepsOnChip(const Graph& graph, const std::vector<OpCost>& costs, const Tensor& tensor) {
    if (tensor.producer < 0) return false;
    std::set<int> consumers(tensor.consumers.begin(), tensor.consumers.end());
    if (consumers.size() != 1) return false;
    for (int out : graph.outputs)
        if (graph.tensors[static_cast<size_t>(out)].name == tensor.name) return false;
    const int consumer = *consumers.begin();
    const auto& producerNode = graph.nodes[static_cast<size_t>(tensor.producer)];
    const auto& consumerNode = graph.nodes[static_cast<size_t>(consumer)];
    if (producerNode.repeat != consumerNode.repeat) return false;
    const OpKind producerKind = costs[static_cast<size_t>(tensor.producer)].kind;
    const OpKind consumerKind = costs[static_cast<size_t>(consumer)].kind;
    return (producerKind == OpKind::Matrix || producerKind == OpKind::Pointwise) &&
           consumerKind == OpKind::Pointwise;
}

// Source weights of a value computed from weights alone: their bytes and elements.
struct WeightSource {
    int64_t bytes = 0;
    int64_t elements = 0;
};

// Operators that transform whole weights (dequantise, scale, cast, lay out): folded into the product that
// reads their result. A Gather or Slice of a weight reads part of it and keeps its own row count.
bool foldsIntoConsumer(const Node& node) {
    static const std::set<std::string> ops = {
        "DequantizeLinear", "Transpose", "Cast", "Reshape", "Identity", "Flatten",
        "Squeeze",          "Unsqueeze", "Mul",  "Div",     "Add",      "Sub"};
    return (node.isDefaultDomain() || node.domain == "com.microsoft") && ops.count(node.opType) > 0;
}

// Values whose producer transforms only weights, metadata or other such values (fused view).
std::vector<std::optional<WeightSource>> weightDerivedValues(const Graph& graph, Precision precision) {
    std::vector<std::optional<WeightSource>> derived(graph.tensors.size());
    for (const Node& node : graph.nodes) {
        if (node.inputs.empty() || node.outputs.empty() || !foldsIntoConsumer(node)) continue;
        WeightSource source;
        bool fromWeights = true;
        std::set<int> seen;
        for (int index : node.inputs) {
            if (index < 0 || !seen.insert(index).second) continue;
            const Tensor& tensor = graph.tensors[static_cast<size_t>(index)];
            if (derived[static_cast<size_t>(index)]) {
                source.bytes = checkedAdd(source.bytes, derived[static_cast<size_t>(index)]->bytes);
                source.elements = checkedAdd(source.elements, derived[static_cast<size_t>(index)]->elements);
            } else if (tensor.isWeight() && !isMetadataTensor(tensor)) {
                source.bytes = checkedAdd(source.bytes, tensorBytes(tensor, precision));
                if (tensor.shapeKnown) source.elements = checkedAdd(source.elements, tensor.elementCount());
            } else if (!isMetadataTensor(tensor)) {
                fromWeights = false;
                break;
            }
        }
        if (!fromWeights || source.bytes == 0) continue;
        for (int index : node.outputs)
            if (index >= 0 && !graph.tensors[static_cast<size_t>(index)].isWeight())
                derived[static_cast<size_t>(index)] = source;
    }
    for (int out : graph.outputs)
        if (out >= 0) derived[static_cast<size_t>(out)].reset();
    return derived;
}

// Arithmetic on folded shapes, axes and indices: engine builders fold it, ONNX Runtime runs it on the CPU.
bool worksOnMetadataOnly(const Graph& graph, const Node& node) {
    bool writes = false;
    for (int index : node.outputs) {
        if (index < 0) continue;
        if (!isMetadataTensor(graph.tensors[static_cast<size_t>(index)])) return false;
        writes = true;
    }
    return writes && std::all_of(node.inputs.begin(), node.inputs.end(), [&graph](int index) {
               return index < 0 || isMetadataTensor(graph.tensors[static_cast<size_t>(index)]);
           });
}

// Whether `consumer` reads its input at `position` as a shape, axes, sizes or counts (never as data a kernel
// computes with): Reshape's shape, Slice's starts..., Shape's and Size's input (only its dims are read).
bool readsAsShape(const Node& consumer, size_t position) {
    static const std::map<std::string, size_t> firstShapeInput = {
        {"Reshape", 1},   {"Expand", 1},    {"Tile", 1},       {"Slice", 1},          {"Unsqueeze", 1},
        {"Squeeze", 1},   {"Pad", 1},       {"Resize", 1},     {"Upsample", 1},       {"TopK", 1},
        {"Split", 1},     {"OneHot", 1},    {"CumSum", 1},     {"ReduceSum", 1},      {"ReduceMean", 1},
        {"ReduceMax", 1}, {"ReduceMin", 1}, {"ReduceProd", 1}, {"ReduceL1", 1},       {"ReduceL2", 1},
        {"Range", 0},     {"Shape", 0},     {"Size", 0},       {"ConstantOfShape", 0}};
    if (!consumer.isDefaultDomain()) return false;
    const auto found = firstShapeInput.find(consumer.opType);
    return found != firstShapeInput.end() && position >= found->second;
}

// Layers worked out on the host: they read and write folded integers only, and every reader of what they
// write is such a layer too or reads it as a shape. A value a kernel reads as data (a causal mask cast to
// float, position ids gathering rows) is computed on the GPU each step when the shapes are dynamic, as a
// decoder's are, so its producer stays a kernel.
std::vector<char> hostOnlyNodes(const Graph& graph) {
    std::vector<char> host(graph.nodes.size(), 0);
    for (size_t n = graph.nodes.size(); n-- > 0;) { // topological order, read backwards: readers first
        const Node& node = graph.nodes[n];
        if (!worksOnMetadataOnly(graph, node)) continue;
        bool hostOnly = true;
        for (int out : node.outputs) {
            if (out < 0) continue;
            for (int reader : graph.tensors[static_cast<size_t>(out)].consumers) {
                const Node& consumer = graph.nodes[static_cast<size_t>(reader)];
                if (host[static_cast<size_t>(reader)]) continue;
                for (size_t position = 0; position < consumer.inputs.size(); ++position)
                    if (consumer.inputs[position] == out && !readsAsShape(consumer, position))
                        hostOnly = false;
            }
        }
        host[n] = hostOnly;
    }
    return host;
}

} // namespace

std::vector<NodeTraffic> computeTraffic(const Graph& graph, const std::vector<OpCost>& costs,
                                        const AnalysisSettings& settings) {
    const bool fusedView = settings.traffic == TrafficView::Fused;
    const bool pagodaView = !fusedView && settings.convention == Convention::Pagoda;
    std::vector<char> onChip(graph.tensors.size(), 0);
    if (fusedView)
        for (size_t t = 0; t < graph.tensors.size(); ++t)
            onChip[t] = keepsOnChip(graph, costs, graph.tensors[t]);
    const std::vector<std::optional<WeightSource>> derived =
        fusedView ? weightDerivedValues(graph, settings.precision)
                  : std::vector<std::optional<WeightSource>>(graph.tensors.size());

    const std::vector<char> host = hostOnlyNodes(graph);
    std::vector<NodeTraffic> traffic(graph.nodes.size());
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const Node& node = graph.nodes[n];
        const OpCost& cost = costs[n];
        NodeTraffic& result = traffic[n];
        if (cost.kind == OpKind::Control || (fusedView && cost.kind == OpKind::Alias)) continue;
        result.onHost = host[n] != 0; // in every view: the runtime, not the counting convention, decides
        if (result.onHost) continue;
        if (pagodaView) {
            result = pagodaTraffic(CostContext(graph, node), settings.precision);
            continue;
        }
        // the operators that fold have one output (a graph output is never marked derived)
        result.buildsWeights = !node.outputs.empty() && node.outputs[0] >= 0 &&
                               derived[static_cast<size_t>(node.outputs[0])].has_value();
        if (result.buildsWeights) continue; // its consumers read the weights it is computed from
        bool inputOnChip = false;
        for (int index : node.inputs)
            if (index >= 0 && onChip[static_cast<size_t>(index)]) inputOnChip = true;
        result.foldedWeights =
            fusedView && inputOnChip && node.opType == "BatchNormalization" && node.isDefaultDomain();

        int64_t weightBytes = 0;
        int64_t weightElements = 0;
        int64_t partialWeightBytes = 0; // tables read in part: not scaled again by weightElementsRead
        std::set<int> seen;
        for (size_t position = 0; position < node.inputs.size(); ++position) {
            const int index = node.inputs[position];
            if (index < 0 || !seen.insert(index).second) continue;
            const Tensor& tensor = graph.tensors[static_cast<size_t>(index)];
            if (isMetadataTensor(tensor)) continue;
            const auto partial = std::find_if(
                cost.inputElementsRead.begin(), cost.inputElementsRead.end(),
                [position](const std::pair<size_t, int64_t>& read) { return read.first == position; });
            if (partial != cost.inputElementsRead.end() && tensor.shapeKnown &&
                !derived[static_cast<size_t>(index)]) {
                const int64_t bytes = precisionBytes(std::min(partial->second, tensor.elementCount()),
                                                     tensor.type, settings.precision);
                if (tensor.isWeight())
                    partialWeightBytes = checkedAdd(partialWeightBytes, bytes);
                else if (!onChip[static_cast<size_t>(index)])
                    result.inputBytes = checkedAdd(result.inputBytes, bytes);
                continue;
            }
            if (const auto& source = derived[static_cast<size_t>(index)]) {
                weightBytes = checkedAdd(weightBytes, source->bytes);
                weightElements = checkedAdd(weightElements, source->elements);
            } else if (tensor.isWeight()) {
                weightBytes = checkedAdd(weightBytes, tensorBytes(tensor, settings.precision));
                if (tensor.shapeKnown) weightElements = checkedAdd(weightElements, tensor.elementCount());
            } else if (onChip[static_cast<size_t>(index)]) {
                result.fused = true;
            } else {
                result.inputBytes = checkedAdd(result.inputBytes, tensorBytes(tensor, settings.precision));
            }
        }
        if (cost.weightElementsRead && weightElements > 0 && *cost.weightElementsRead < weightElements) {
            // Only the rows read (embedding lookups) move: scale the weight bytes exactly, in 128-bit math.
            const WideInteger scaled =
                static_cast<WideInteger>(weightBytes) * *cost.weightElementsRead / weightElements;
            weightBytes = static_cast<int64_t>(scaled);
        }
        weightBytes = checkedAdd(weightBytes, partialWeightBytes);
        result.weightBytes = result.foldedWeights ? 0 : weightBytes;

        for (int index : node.outputs) {
            if (index < 0) continue;
            if (onChip[static_cast<size_t>(index)]) {
                result.fused = true;
                continue;
            }
            // shape arithmetic's folded integers are host-side metadata as inputs, so as outputs too (after
            // the on-chip test: an integer pointwise op feeding another stays fused, launching nothing of its
            // own)
            if (isMetadataTensor(graph.tensors[static_cast<size_t>(index)])) continue;
            result.outputBytes =
                checkedAdd(result.outputBytes,
                           tensorBytes(graph.tensors[static_cast<size_t>(index)], settings.precision));
        }
    }
    return traffic;
}

} // namespace rooftop
