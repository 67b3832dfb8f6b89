// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"

#include <vector>

namespace rooftop {

/// Turns an inference count of the graph into a training step's: per layer, the training forward, the
/// backward and the optimizer update apart, summed into macs / flops / bytes and the totals. costs[i] is
/// graph.nodes[i]'s forward cost. Throws InputError when the model has no trainable parameters or the
/// traffic view is fused.
void countTrainingStep(const Graph& graph, const std::vector<OpCost>& costs, const AnalysisSettings& settings,
                       Workload& workload);

} // namespace rooftop
