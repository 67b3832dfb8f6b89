// SPDX-License-Identifier: GPL-3.0-or-later
// A training step in the per-node traffic view: every backward node reads its output gradients, the forward
// tensors it saved, and the weights its input gradient needs, and writes an input gradient per
// floating-point activation input and a weight gradient per trainable weight. A tensor with k consumers
// receives k partial gradients, summed by its producer ((k - 1) adds per element, k gradients read). The
// optimizer updates each parameter once, at the first node that uses it. Under the Pagoda convention the
// step is the study's 3 x inference: the backward is 2 x the forward, the update is not counted apart.
#include "core/cost/training_step.h"

#include "core/common/errors.h"
#include "core/cost/optimizer_update.h"
#include "core/cost/traffic.h"
#include "core/cost/training_rules.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <set>

namespace rooftop {
namespace {

int64_t flopsOf(const OpCost& cost) {
    return checkedAdd(checkedAdd(checkedMul(cost.macs, 2), cost.vectorOps), cost.sfuOps);
}

bool carriesGradient(const Tensor& tensor) {
    return isFloatingPoint(tensor.type) && !isMetadataTensor(tensor);
}

// Partial gradients a tensor receives: one per consumer that differentiates it, one more as a graph output.
int64_t gradientSources(const Graph& graph, const std::vector<OpCost>& costs, int tensorIndex) {
    const Tensor& tensor = graph.tensors[static_cast<size_t>(tensorIndex)];
    int64_t sources = 0;
    for (int consumer : tensor.consumers) {
        const Node& node = graph.nodes[static_cast<size_t>(consumer)];
        if (costs[static_cast<size_t>(consumer)].kind == OpKind::Control) continue;
        if (node.isDefaultDomain() && (node.opType == "Shape" || node.opType == "Size")) continue;
        ++sources;
    }
    for (int out : graph.outputs)
        if (out == tensorIndex) ++sources;
    return std::max<int64_t>(sources, 1);
}

PhaseCount scaled(const PhaseCount& p, int64_t factor) {
    return {checkedMul(p.macs, factor), checkedMul(p.flops, factor), checkedMul(p.sfuOps, factor),
            checkedMul(p.bytes, factor)};
}

void add(PhaseCount& into, const PhaseCount& p) {
    into.macs = checkedAdd(into.macs, p.macs);
    into.flops = checkedAdd(into.flops, p.flops);
    into.sfuOps = checkedAdd(into.sfuOps, p.sfuOps);
    into.bytes = checkedAdd(into.bytes, p.bytes);
}

int64_t forwardBytes(const LayerCount& layer) {
    return layer.weightBytes + layer.inputBytes + layer.outputBytes;
}

// The backward and state of one node, once (before repeats).
struct NodeBackward {
    PhaseCount backward;
    int64_t stateBytes = 0;
    int64_t savedBytes = 0;
    OpCost forwardExtra;
    bool estimated = false;
};

NodeBackward nodeBackward(const Graph& graph, const std::vector<OpCost>& costs, size_t n,
                          Precision precision) {
    const Node& node = graph.nodes[n];
    const CostContext context(graph, node);
    const BackwardWork work = backwardWork(context, costs[n], precision);
    NodeBackward result;
    result.forwardExtra = work.forwardExtra;
    result.stateBytes = checkedAdd(work.savedStateBytes, work.forwardStateBytes);

    bool anyFloatOutput = false;
    for (int out : node.outputs)
        if (out >= 0 && carriesGradient(graph.tensors[static_cast<size_t>(out)])) anyFloatOutput = true;
    if (!anyFloatOutput) return result; // nothing flows back through integer or boolean results
    result.estimated = work.estimated;

    int64_t reads = 0, writes = 0, saved = 0;
    bool needsOutputGradient = false;
    std::set<int> seen;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        const int index = node.inputs[i];
        if (index < 0 || !seen.insert(index).second) continue;
        const Tensor& tensor = graph.tensors[static_cast<size_t>(index)];
        if (isMetadataTensor(tensor)) continue;
        const int64_t bytes = tensorBytes(tensor, precision);
        if (isTrainableInput(context, i)) {
            writes = checkedAdd(writes, bytes);
            if (work.readsWeights) reads = checkedAdd(reads, bytes);
            needsOutputGradient = true;
        } else if (!tensor.isWeight()) {
            if (work.savesInputs) {
                reads = checkedAdd(reads, bytes);
                saved = checkedAdd(saved, bytes);
            }
            if (carriesGradient(tensor) && !(work.passThrough & (1u << i))) {
                writes = checkedAdd(writes, bytes);
                needsOutputGradient = true;
            }
        }
    }
    int64_t accumulateAdds = 0;
    for (int out : node.outputs) {
        if (out < 0) continue;
        const Tensor& tensor = graph.tensors[static_cast<size_t>(out)];
        if (!carriesGradient(tensor)) continue;
        const int64_t bytes = tensorBytes(tensor, precision);
        const int64_t sources = gradientSources(graph, costs, out);
        if (sources > 1) {
            accumulateAdds = checkedAdd(
                accumulateAdds, checkedMul(tensor.shapeKnown ? tensor.elementCount() : 0, sources - 1));
            reads = checkedAdd(reads, checkedMul(bytes, sources));
            if (!needsOutputGradient) writes = checkedAdd(writes, bytes); // the sum passed through
        } else if (needsOutputGradient) {
            reads = checkedAdd(reads, bytes);
        }
        if (work.savesOutputs) {
            reads = checkedAdd(reads, bytes);
            saved = checkedAdd(saved, bytes);
        }
    }
    reads = checkedAdd(reads, work.savedStateBytes);
    saved = checkedAdd(saved, work.savedStateBytes);

    OpCost arithmetic = work.backward;
    arithmetic.vectorOps = checkedAdd(arithmetic.vectorOps, accumulateAdds);
    result.backward = {arithmetic.macs, flopsOf(arithmetic), arithmetic.sfuOps, checkedAdd(reads, writes)};
    result.savedBytes = saved;
    return result;
}

void sumTotals(Workload& workload) {
    WorkloadTotals& t = workload.totals;
    t.macs = t.flops = t.sfuOps = t.stateBytes = t.savedBytes = t.trainableParams = 0;
    t.forward = t.backward = t.update = PhaseCount{};
    for (const LayerCount& layer : workload.layers) {
        t.macs = checkedAdd(t.macs, layer.macs);
        t.flops = checkedAdd(t.flops, layer.flops);
        t.sfuOps = checkedAdd(t.sfuOps, layer.sfuOps);
        t.stateBytes = checkedAdd(t.stateBytes, layer.stateBytes);
        t.savedBytes = checkedAdd(t.savedBytes, layer.savedBytes);
        t.trainableParams = checkedAdd(t.trainableParams, layer.trainableParams);
        add(t.forward, layer.forward);
        add(t.backward, layer.backward);
        add(t.update, layer.update);
    }
}

} // namespace

void countTrainingStep(const Graph& graph, const std::vector<OpCost>& costs, const AnalysisSettings& settings,
                       Workload& workload) {
    if (settings.traffic == TrafficView::Fused)
        throw InputError(
            "--phase training counts per-node traffic; --traffic fused models an inference engine's "
            "fusion and cannot be combined with it");
    const OptimizerConstants optimizer = optimizerConstants(settings.optimizer);
    const bool pagoda = settings.convention == Convention::Pagoda;
    std::set<int> updated;
    for (LayerCount& layer : workload.layers) {
        const size_t n = static_cast<size_t>(layer.nodeIndex);
        const Node& node = graph.nodes[n];
        const CostContext context(graph, node);
        // The optimizer updates each parameter once per step, whatever the node's repeat count.
        for (size_t i = 0; i < node.inputs.size(); ++i) {
            if (!isTrainableInput(context, i) || !updated.insert(node.inputs[i]).second) continue;
            const Tensor& tensor = graph.tensors[static_cast<size_t>(node.inputs[i])];
            const int64_t elements = tensor.elementCount();
            layer.trainableParams = checkedAdd(layer.trainableParams, elements);
            if (pagoda) continue;
            layer.update.flops =
                checkedAdd(layer.update.flops, checkedMul(elements, optimizer.vectorOps + optimizer.sfuOps));
            layer.update.sfuOps = checkedAdd(layer.update.sfuOps, checkedMul(elements, optimizer.sfuOps));
            layer.update.bytes =
                checkedAdd(layer.update.bytes, checkedMul(tensorBytes(tensor, settings.precision),
                                                          optimizer.tensorsRead + optimizer.tensorsWritten));
        }
        const int64_t r = layer.repeat;
        if (pagoda || !layer.supported) {
            layer.forward = {layer.macs, layer.flops, layer.sfuOps, forwardBytes(layer)};
            if (pagoda) layer.backward = scaled(layer.forward, 2);
        } else {
            const NodeBackward b = nodeBackward(graph, costs, n, settings.precision);
            layer.flops = checkedAdd(layer.flops, checkedMul(flopsOf(b.forwardExtra), r));
            layer.sfuOps = checkedAdd(layer.sfuOps, checkedMul(b.forwardExtra.sfuOps, r));
            layer.stateBytes = checkedMul(b.stateBytes, r);
            layer.savedBytes = checkedMul(b.savedBytes, r);
            layer.forward = {layer.macs, layer.flops, layer.sfuOps,
                             checkedAdd(forwardBytes(layer), layer.stateBytes)};
            layer.backward = scaled(b.backward, r);
            if (b.estimated && layer.note.empty()) layer.note = "backward estimated from the forward";
        }
        layer.macs = checkedAdd(layer.forward.macs, layer.backward.macs);
        layer.flops = checkedAdd(checkedAdd(layer.forward.flops, layer.backward.flops), layer.update.flops);
        layer.sfuOps =
            checkedAdd(checkedAdd(layer.forward.sfuOps, layer.backward.sfuOps), layer.update.sfuOps);
    }
    sumTotals(workload);
    if (workload.totals.trainableParams == 0)
        throw InputError(
            "the model has no trainable parameters (no floating-point initializers): nothing for "
            "--phase training to update");
}

} // namespace rooftop
