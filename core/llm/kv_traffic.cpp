// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/llm/kv_traffic.h"

#include "core/common/wide_integer.h"
#include "core/cost/traffic.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <map>
#include <set>

namespace rooftop {
namespace {

// A tensor holding (a view of) one layer's K or V cache: the bytes the cache occupies after this pass and the
// part of them that was cached before it.
struct CacheView {
    int64_t bytes = 0;
    int64_t pastBytes = 0;
};

bool isViewOp(const Node& node) {
    static const std::set<std::string> views = {"Expand", "Reshape",  "Transpose", "Unsqueeze", "Squeeze",
                                                "Tile",   "Identity", "Flatten",   "Cast"};
    return node.isDefaultDomain() && views.count(node.opType) > 0;
}

int64_t bytesOf(const Graph& graph, int index, Precision precision) {
    const Tensor* tensor = graph.tensor(index);
    return tensor ? tensorBytes(*tensor, precision) : 0;
}

// The new tokens' K and V a GroupQueryAttention or an AttentionPlugin appends: batch x new tokens x kv heads
// x head size, twice.
int64_t appendedBytes(const Graph& graph, const Node& node, const LlmSignature& signature,
                      Precision precision) {
    const Tensor* query = graph.tensor(node.inputs.empty() ? -1 : node.inputs[0]);
    if (!query || !query->shapeKnown || query->dims.size() < 3) return 0;
    const int64_t elements = checkedMul(
        checkedMul(checkedMul(query->dims[0], query->dims[1]), signature.kvHeads), signature.headDim);
    return checkedMul(precisionBytes(elements, signature.kvType, precision), 2);
}

// A past input's bytes, or the last local_window_size tokens of it that a sliding-window GroupQueryAttention
// reads.
int64_t windowedBytes(const Graph& graph, const Node& node, int index, Precision precision) {
    const int64_t bytes = bytesOf(graph, index, precision);
    const int64_t window = node.attributeInt("local_window_size", -1);
    const Tensor* past = graph.tensor(index);
    if (window <= 0 || !past || !past->shapeKnown || past->dims.size() != 4 || past->dims[2] <= window)
        return bytes;
    return static_cast<int64_t>(static_cast<WideInteger>(bytes) * window / past->dims[2]);
}

} // namespace

KvTraffic applyKvTraffic(Workload& workload, const Graph& graph, const LlmSignature& signature) {
    const Precision precision = workload.settings.precision;
    const bool fused = workload.settings.traffic == TrafficView::Fused;
    std::set<int> pastInputs;
    std::set<int> presentOutputs;
    for (const KvCacheTensors& cache : signature.caches) {
        for (const std::string& name : {cache.pastKey, cache.pastValue})
            if (const int index = graph.findTensor(name); index >= 0) pastInputs.insert(index);
        for (const std::string& name : {cache.presentKey, cache.presentValue})
            if (const int index = graph.findTensor(name); index >= 0) presentOutputs.insert(index);
    }

    KvTraffic kv;
    kv.readBytes.assign(workload.layers.size(), 0);
    kv.writeBytes.assign(workload.layers.size(), 0);
    std::map<int, CacheView> views; // tensor -> the cache it holds (fused view)
    for (size_t l = 0; l < workload.layers.size(); ++l) {
        LayerCount& layer = workload.layers[l];
        if (layer.nodeIndex < 0) continue;
        const Node& node = graph.nodes[static_cast<size_t>(layer.nodeIndex)];
        const int64_t repeat = std::max<int64_t>(layer.repeat, 1);
        int64_t read = 0;
        int64_t write = 0;
        std::set<int> seen;

        if (node.opType == "AttentionPlugin" || node.opType == "GroupQueryAttention") {
            for (int index : node.inputs)
                if (index >= 0 && pastInputs.count(index) && seen.insert(index).second)
                    read = checkedAdd(read, windowedBytes(graph, node, index, precision));
            int64_t presentBytes = 0;
            for (int index : node.outputs)
                if (index >= 0 && presentOutputs.count(index))
                    presentBytes = checkedAdd(presentBytes, bytesOf(graph, index, precision));
            write = presentBytes;
            // Edge-LLM's cache is one buffer updated in place (present aliases past) in both views.
            const bool inPlace = node.opType == "AttentionPlugin";
            if (inPlace || (fused && presentBytes > 0)) {
                const int64_t appended = appendedBytes(graph, node, signature, precision);
                write = inPlace ? appended : std::min(presentBytes, appended);
                layer.outputBytes =
                    std::max<int64_t>(0, checkedAdd(layer.outputBytes - checkedMul(presentBytes, repeat),
                                                    checkedMul(write, repeat)));
            }
        } else if (node.opType == "Concat" && std::any_of(node.inputs.begin(), node.inputs.end(),
                                                          [&](int i) { return pastInputs.count(i) > 0; })) {
            int64_t pastBytes = 0;
            for (int index : node.inputs)
                if (index >= 0 && pastInputs.count(index) && seen.insert(index).second)
                    pastBytes = checkedAdd(pastBytes, bytesOf(graph, index, precision));
            const int output = node.outputs.empty() ? -1 : node.outputs[0];
            const int64_t outputBytes = bytesOf(graph, output, precision);
            if (fused) {
                // Appended in place: the new tokens are written, the past neither read nor copied.
                const int64_t appended = std::max<int64_t>(0, outputBytes - pastBytes);
                layer.inputBytes = std::max<int64_t>(0, layer.inputBytes - checkedMul(pastBytes, repeat));
                layer.outputBytes = checkedMul(appended, repeat);
                write = appended;
                if (output >= 0) views[output] = {outputBytes, pastBytes};
            } else {
                read = pastBytes;
                write = presentOutputs.count(output) ? outputBytes : 0;
            }
        } else if (fused && !node.inputs.empty() && views.count(node.inputs[0]) && isViewOp(node)) {
            const CacheView view = views.at(node.inputs[0]);
            layer.inputBytes = 0;
            layer.outputBytes = 0;
            for (int output : node.outputs)
                if (output >= 0) views[output] = view;
        } else if (node.isDefaultDomain() && (node.opType == "Shape" || node.opType == "Size")) {
            // Reads a cache's dims, not its values.
        } else {
            // A pass without a past (prefill of the merged decoder) writes the cache where it makes a
            // present.
            for (int index : node.outputs)
                if (index >= 0 && presentOutputs.count(index)) {
                    const int64_t present = bytesOf(graph, index, precision);
                    write = checkedAdd(write, present);
                    if (fused) layer.outputBytes = std::max(layer.outputBytes, checkedMul(present, repeat));
                }
            for (int index : node.inputs) {
                if (index < 0 || !seen.insert(index).second) continue;
                if (fused && views.count(index)) {
                    // Reads the cache at its own size, not the size of the view the graph made of it.
                    const CacheView& view = views.at(index);
                    const int64_t asGraph = bytesOf(graph, index, precision);
                    layer.inputBytes =
                        std::max<int64_t>(0, checkedAdd(layer.inputBytes - checkedMul(asGraph, repeat),
                                                        checkedMul(view.bytes, repeat)));
                    read = checkedAdd(read, view.pastBytes);
                } else if (pastInputs.count(index)) {
                    read = checkedAdd(read, bytesOf(graph, index, precision));
                }
            }
        }
        kv.readBytes[l] = checkedMul(read, repeat);
        kv.writeBytes[l] = checkedMul(write, repeat);
        kv.read = checkedAdd(kv.read, kv.readBytes[l]);
        kv.write = checkedAdd(kv.write, kv.writeBytes[l]);
    }
    sumLayersIntoTotals(workload);
    return kv;
}

} // namespace rooftop
