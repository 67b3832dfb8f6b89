// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/op_cost.h"
#include "core/graph/data_type.h"

#include <cstdint>

namespace rooftop {

/// What one node's backward pass does, counted once (before repeats), derived from its forward cost.
struct BackwardWork {
    OpCost backward;               ///< macs, vectorOps and sfuOps of the input and weight gradients
    OpCost forwardExtra;           ///< arithmetic a training forward adds to inference's (batch statistics)
    bool savesInputs = false;      ///< the backward reads the node's activation inputs back
    bool savesOutputs = false;     ///< the backward reads the node's outputs back
    bool readsWeights = false;     ///< the backward reads the node's trainable weights
    int64_t savedStateBytes = 0;   ///< written by the forward for the backward alone, and read back by it
    int64_t forwardStateBytes = 0; ///< other writes only a training forward makes (running statistics)
    uint32_t passThrough = 0;      ///< bit i: input i's gradient is the output gradient itself (no kernel)
    bool estimated = false; ///< no rule of its own: the forward's arithmetic plus one multiply per input
};

/// The backward of a node whose forward counted `forward`; precision sizes its saved state.
BackwardWork backwardWork(const CostContext& context, const OpCost& forward, Precision precision);

/// True when input i is a parameter: a float initializer of known shape, not BatchNorm's running statistics.
bool isTrainableInput(const CostContext& context, size_t input);

} // namespace rooftop
