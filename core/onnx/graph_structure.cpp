// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/graph_structure.h"

#include "core/common/errors.h"

#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace rooftop {
namespace {

std::string nodeLabel(const onnx::NodeProto& node, int index) {
    return node.name().empty() ? node.op_type() + " #" + std::to_string(index)
                               : "'" + node.name() + "' (" + node.op_type() + ")";
}

// Names a subgraph body reads from the scope that encloses the node holding it, which must exist there.
// `enclosing` holds the names of the subgraphs between that node and this body: a nested body sees its own
// values, then those of each enclosing body, and only then the outer scope.
void collectOuterReads(const onnx::GraphProto& graph, const std::unordered_set<std::string>& enclosing,
                       std::unordered_set<std::string>& reads) {
    std::unordered_set<std::string> local(enclosing);
    for (const auto& v : graph.input()) local.insert(v.name());
    for (const auto& t : graph.initializer()) local.insert(t.name());
    for (const auto& node : graph.node())
        for (const auto& out : node.output()) local.insert(out);
    for (const auto& node : graph.node()) {
        for (const auto& in : node.input())
            if (!in.empty() && !local.count(in)) reads.insert(in);
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectOuterReads(attr.g(), local, reads);
            for (const auto& g : attr.graphs()) collectOuterReads(g, local, reads);
        }
    }
}

void sortGraph(onnx::GraphProto& graph, const std::unordered_set<std::string>& outerScope) {
    const int count = graph.node_size();
    std::unordered_set<std::string> available(outerScope);
    for (const auto& v : graph.input()) available.insert(v.name());
    for (const auto& t : graph.initializer()) available.insert(t.name());

    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < count; ++i) {
        for (const auto& out : graph.node(i).output()) {
            if (out.empty()) continue;
            if (!producer.emplace(out, i).second || available.count(out))
                throw InputError("tensor '" + out + "' is produced twice (by node " + nodeLabel(graph.node(i), i) +
                                 ")");
        }
    }

    std::vector<std::vector<std::string>> needs(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        const auto& node = graph.node(i);
        std::unordered_set<std::string> reads;
        for (const auto& in : node.input())
            if (!in.empty()) reads.insert(in);
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectOuterReads(attr.g(), {}, reads);
            for (const auto& g : attr.graphs()) collectOuterReads(g, {}, reads);
        }
        for (const auto& name : reads) {
            if (producer.count(name)) needs[static_cast<size_t>(i)].push_back(name);
            else if (!available.count(name))
                throw InputError("node " + nodeLabel(node, i) + " reads '" + name +
                                 "', which no node, input or initializer provides");
        }
    }

    std::vector<int> pending(static_cast<size_t>(count), 0);
    std::unordered_map<int, std::vector<int>> dependents;
    for (int i = 0; i < count; ++i) {
        for (const auto& name : needs[static_cast<size_t>(i)]) {
            int from = producer[name];
            dependents[from].push_back(i);
            ++pending[static_cast<size_t>(i)];
        }
    }
    std::deque<int> ready;
    for (int i = 0; i < count; ++i)
        if (pending[static_cast<size_t>(i)] == 0) ready.push_back(i);
    std::vector<int> order;
    order.reserve(static_cast<size_t>(count));
    while (!ready.empty()) {
        int i = ready.front();
        ready.pop_front();
        order.push_back(i);
        for (int next : dependents[i])
            if (--pending[static_cast<size_t>(next)] == 0) ready.push_back(next);
    }
    if (static_cast<int>(order.size()) != count) {
        for (int i = 0; i < count; ++i)
            if (pending[static_cast<size_t>(i)] > 0)
                throw InputError("the graph has a cycle through node " + nodeLabel(graph.node(i), i));
    }

    bool sorted = true;
    for (int i = 0; i < count && sorted; ++i) sorted = order[static_cast<size_t>(i)] == i;
    if (!sorted) {
        google::protobuf::RepeatedPtrField<onnx::NodeProto> reordered;
        for (int i : order) *reordered.Add() = graph.node(i);
        graph.mutable_node()->Swap(&reordered);
    }

    // Subgraphs see everything the enclosing graph has.
    std::unordered_set<std::string> inner(available);
    for (const auto& [name, index] : producer) inner.insert(name);
    for (auto& node : *graph.mutable_node())
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) sortGraph(*attr.mutable_g(), inner);
            for (auto& g : *attr.mutable_graphs()) sortGraph(g, inner);
        }
}

} // namespace

void validateAndSortGraph(onnx::GraphProto& graph) {
    sortGraph(graph, {});
    std::unordered_set<std::string> known;
    for (const auto& v : graph.input()) known.insert(v.name());
    for (const auto& t : graph.initializer()) known.insert(t.name());
    for (const auto& node : graph.node())
        for (const auto& out : node.output()) known.insert(out);
    for (const auto& out : graph.output())
        if (!known.count(out.name()))
            throw InputError("graph output '" + out.name() + "' is not produced by any node");
}

} // namespace rooftop
