// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/operator_class.h"

namespace rooftop {

/// The operator class of a counted layer: convolutions dense or depthwise (one input channel per group,
/// several channels), matrix products (Gemm, MatMul, recurrent cells), attention ops (AttentionPlugin too),
/// normalisations and softmax, reductions and pooling, data movement; other pointwise, alias and control
/// nodes are pointwise.
OperatorClass operatorClassOf(const LayerCount& layer);

} // namespace rooftop
