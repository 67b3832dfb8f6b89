// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/graph/graph.h"
#include "core/llm/llm_signature.h"

#include <cstdint>
#include <vector>

namespace rooftop {

/// The KV cache's DRAM bytes in one pass, per layer (parallel to Workload::layers) and in all.
struct KvTraffic {
    std::vector<int64_t> readBytes; ///< the cached past read (past inputs, or what a view of them reads)
    std::vector<int64_t>
        writeBytes; ///< the cache written (the new tokens' K and V; per-node: the whole present)
    int64_t read = 0;
    int64_t write = 0;
};

/// Separates the KV cache's bytes from a pass's activations and, in the fused view, counts them as the
/// runtimes move them: a Concat of past and new appends the new tokens in place, a grouped-query repeat
/// (Expand, Reshape, Transpose...) of the cache is a view, attention reads the cache at its KV-head size, and
/// GroupQueryAttention writes only the new tokens. The per-node view keeps the graph's copies; Edge-LLM's
/// AttentionPlugin updates its cache in place in both (reads the past, writes the new tokens). Rewrites the
/// layers' input and output bytes and the totals of `workload`, which analyzeGraph(graph) counted.
KvTraffic applyKvTraffic(Workload& workload, const Graph& graph, const LlmSignature& signature);

} // namespace rooftop
