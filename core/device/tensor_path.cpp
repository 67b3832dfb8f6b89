// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/device/tensor_path.h"

namespace rooftop {

const char* optionalTensorPrecision(ComputeClass computeClass) {
    if (computeClass == ComputeClass::TensorFp8) return "fp8";
    if (computeClass == ComputeClass::TensorFp4) return "fp4";
    return nullptr;
}

std::string missingTensorPathRemedy(const char* precision) {
    return std::string("give --precision fp16 or int8, or a board with ") + precision +
           " tensor cores (Jetson AGX Thor)";
}

} // namespace rooftop
