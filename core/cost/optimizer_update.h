// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"

#include <cstdint>

namespace rooftop {

/// Per-parameter work of one optimizer step: FLOPs (of which SFU ops) and tensors read and written, each
/// tensor the size of the parameter (weights w, gradient g, moments m and v).
struct OptimizerConstants {
    int vectorOps = 0;
    int sfuOps = 0;
    int tensorsRead = 0;
    int tensorsWritten = 0;
};

/// The constants of an optimizer (docs/training.md derives them from PyTorch's torch.optim code).
OptimizerConstants optimizerConstants(Optimizer optimizer);

} // namespace rooftop
