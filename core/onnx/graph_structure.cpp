// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/graph_structure.h"

#include "core/common/errors.h"

#include <algorithm>
#include <deque>
#include <string_view>
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
    // Views into the graph's own strings, which stay put until the nodes are reordered below.
    std::unordered_set<std::string_view> available;
    available.reserve(outerScope.size() + static_cast<size_t>(graph.input_size() + graph.initializer_size()));
    for (const auto& name : outerScope)
        available.insert(name);
    for (const auto& v : graph.input()) available.insert(v.name());
    for (const auto& t : graph.initializer()) available.insert(t.name());

    std::unordered_map<std::string_view, int> producer;
    producer.reserve(static_cast<size_t>(count) * 2);
    for (int i = 0; i < count; ++i) {
        for (const auto& out : graph.node(i).output()) {
            if (out.empty()) continue;
            if (!producer.emplace(out, i).second || available.count(out))
                throw InputError("tensor '" + out + "' is produced twice (by node " + nodeLabel(graph.node(i), i) +
                                 ")");
        }
    }

    std::vector<int> pending(static_cast<size_t>(count), 0);
    std::vector<std::vector<int>> dependents(static_cast<size_t>(count));
    std::vector<int> from;
    for (int i = 0; i < count; ++i) {
        const auto& node = graph.node(i);
        std::unordered_set<std::string> outerReads;
        if (hasSubgraph(node))
            for (const auto& attr : node.attribute()) {
                if (attr.has_g()) collectOuterReads(attr.g(), {}, outerReads);
                for (const auto& g : attr.graphs())
                    collectOuterReads(g, {}, outerReads);
            }
        from.clear();
        auto read = [&](std::string_view name) {
            auto it = producer.find(name);
            if (it != producer.end()) {
                if (std::find(from.begin(), from.end(), it->second) == from.end()) from.push_back(it->second);
            } else if (!available.count(name)) {
                throw InputError("node " + nodeLabel(node, i) + " reads '" + std::string(name) +
                                 "', which no node, input or initializer provides");
            }
        };
        for (const auto& in : node.input())
            if (!in.empty()) read(in);
        for (const auto& name : outerReads)
            read(name);
        for (int producerIndex : from) {
            dependents[static_cast<size_t>(producerIndex)].push_back(i);
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
        for (int next : dependents[static_cast<size_t>(i)])
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
        // Pointer swaps within the field: a copy of each node (another arena) would cost more than the parse.
        std::vector<int> where(static_cast<size_t>(count)), at(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i)
            where[static_cast<size_t>(i)] = at[static_cast<size_t>(i)] = i;
        for (int k = 0; k < count; ++k) {
            const int original = order[static_cast<size_t>(k)];
            const int from = where[static_cast<size_t>(original)];
            if (from == k) continue;
            graph.mutable_node()->SwapElements(k, from);
            const int displaced = at[static_cast<size_t>(k)];
            at[static_cast<size_t>(from)] = displaced;
            where[static_cast<size_t>(displaced)] = from;
            at[static_cast<size_t>(k)] = original;
            where[static_cast<size_t>(original)] = k;
        }
    }

    bool anySubgraph = false;
    for (const auto& node : graph.node())
        anySubgraph = anySubgraph || hasSubgraph(node);
    if (!anySubgraph) return;
    // Subgraphs see everything the enclosing graph has.
    std::unordered_set<std::string> inner(outerScope);
    for (const auto& v : graph.input())
        inner.insert(v.name());
    for (const auto& t : graph.initializer())
        inner.insert(t.name());
    for (const auto& node : graph.node())
        for (const auto& out : node.output())
            if (!out.empty()) inner.insert(out);
    for (auto& node : *graph.mutable_node())
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) sortGraph(*attr.mutable_g(), inner);
            for (auto& g : *attr.mutable_graphs()) sortGraph(g, inner);
        }
}

} // namespace

bool hasSubgraph(const onnx::NodeProto& node) {
    for (const auto& attr : node.attribute())
        if (attr.has_g() || attr.graphs_size() > 0) return true;
    return false;
}

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
