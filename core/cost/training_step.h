// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"

#include <vector>

namespace rooftop {

/// Turns an inference count into a training step's (costs[i] is node i's forward); throws InputError.
void countTrainingStep(const Graph& graph, const std::vector<OpCost>& costs, const AnalysisSettings& settings,
                       Workload& workload);

} // namespace rooftop
