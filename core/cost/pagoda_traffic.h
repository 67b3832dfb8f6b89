// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/traffic.h"

namespace rooftop {

/// The bytes one node moves under the Pagoda study's per-op rule (its per-node view): weights without biases,
/// the activation input(s) and the output, with the study's own counts for broadcast elementwise ops, MatMul,
/// BatchNormalization and LSTM. Operators its table does not list move nothing, as in the study.
NodeTraffic pagodaTraffic(const CostContext& context, Precision precision);

} // namespace rooftop
