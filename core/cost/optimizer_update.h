// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"

#include <cstdint>

namespace rooftop {

/// Per-parameter work of one optimizer step: vector and SFU ops, parameter-sized tensors read and written.
struct OptimizerConstants {
    int vectorOps = 0;      ///< vector ops per parameter element
    int sfuOps = 0;         ///< SFU ops per parameter element (Adam's sqrt)
    int tensorsRead = 0;    ///< parameter-sized tensors read: weights, gradients, optimizer states
    int tensorsWritten = 0; ///< parameter-sized tensors written: weights, optimizer states
};

/// The constants of an optimizer (docs/training.md derives them from PyTorch's torch.optim code).
OptimizerConstants optimizerConstants(Optimizer optimizer);

} // namespace rooftop
