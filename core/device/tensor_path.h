// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/ceilings.h"

#include <string>

namespace rooftop {

/// "fp8" or "fp4" for the tensor paths some boards lack (FP8 and FP4 on Orin); null for every other class.
const char* optionalTensorPrecision(ComputeClass computeClass);

/// What to do on a board without that path: "give --precision fp16 or int8, or a board with fp8 tensor cores
/// (Jetson AGX Thor)". One wording for the roofline and the simulated board.
std::string missingTensorPathRemedy(const char* precision);

} // namespace rooftop
