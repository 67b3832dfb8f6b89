// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"

#include <cstdint>

namespace rooftop {

/// What one pass of the workload must hold in memory at once, as a lower bound: the weights and the
/// largest layer's inputs and outputs; a training step also its gradients, the optimizer's states and the
/// activations the backward reads back. A runtime's workspace and its copies come on top, so a workload
/// over the board's memory by this bound cannot run there.
int64_t memoryFootprintBytes(const Workload& workload);

/// What memoryFootprintBytes counts, in words: "weights and activations", or for a training step "weights,
/// gradients, optimizer states and activations".
const char* memoryFootprintWords(Phase phase);

} // namespace rooftop
