// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"

#include <cstdint>

namespace rooftop {

/// Per-parameter work of one optimizer step: vector and SFU ops, parameter-sized tensors read and written.
struct OptimizerConstants {
    int vectorOps = 0;
    int sfuOps = 0;
    int tensorsRead = 0;
    int tensorsWritten = 0;
};

/// The constants of an optimizer (docs/training.md derives them from PyTorch's torch.optim code).
OptimizerConstants optimizerConstants(Optimizer optimizer);

} // namespace rooftop
