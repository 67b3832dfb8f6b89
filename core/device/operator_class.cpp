// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/device/operator_class.h"

namespace rooftop {

const char* operatorClassName(OperatorClass operatorClass) {
    switch (operatorClass) {
    case OperatorClass::DenseConv:
        return "dense_conv";
    case OperatorClass::DepthwiseConv:
        return "depthwise_conv";
    case OperatorClass::Gemm:
        return "gemm";
    case OperatorClass::Attention:
        return "attention";
    case OperatorClass::Pointwise:
        return "pointwise";
    case OperatorClass::Normalization:
        return "normalization";
    case OperatorClass::Reduction:
        return "reduction";
    case OperatorClass::DataMovement:
        return "data_movement";
    }
    return "pointwise";
}

std::optional<OperatorClass> parseOperatorClass(const std::string& name) {
    for (int c = 0; c < operatorClassCount; ++c)
        if (name == operatorClassName(static_cast<OperatorClass>(c))) return static_cast<OperatorClass>(c);
    return std::nullopt;
}

} // namespace rooftop
