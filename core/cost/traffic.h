// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/cost/op_cost.h"
#include "core/graph/graph.h"

#include <vector>

namespace rooftop {

/// DRAM bytes one node moves once (before repeats).
struct NodeTraffic {
    int64_t weightBytes = 0;
    int64_t inputBytes = 0;
    int64_t outputBytes = 0;
    bool fused = false;       ///< reads or writes an intermediate kept on chip
    bool foldedWeights = false; ///< BatchNormalization folded into its producer (fused view)
};

/// Bytes of a tensor at the forced precision (packed for sub-byte types); 0 for unknown shapes.
int64_t tensorBytes(const Tensor& tensor, Precision precision);

/// True for small folded integer constants (shapes, axes, indices of shape ops): host-side metadata.
bool isMetadataTensor(const Tensor& tensor);

/// Per-node traffic for every node, in the view the settings name. costs[i] belongs to graph.nodes[i].
std::vector<NodeTraffic> computeTraffic(const Graph& graph, const std::vector<OpCost>& costs,
                                        const AnalysisSettings& settings);

} // namespace rooftop
