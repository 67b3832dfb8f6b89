// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/layer_operator_class.h"

#include <cstdlib>
#include <set>
#include <string>

namespace rooftop {

namespace {

// Dimension i of a shape as the layer table writes it ("1x16x112x112"); -1 when absent or symbolic.
long long dimOf(const std::string& shape, int i) {
    size_t start = 0;
    for (int k = 0; k < i; ++k) {
        start = shape.find('x', start);
        if (start == std::string::npos) return -1;
        ++start;
    }
    char* end = nullptr;
    const long long value = std::strtoll(shape.c_str() + start, &end, 10);
    return end != shape.c_str() + start && (*end == 'x' || *end == '\0') ? value : -1;
}

bool isConvolution(const std::string& op) {
    static const std::set<std::string> ops{"Conv",     "ConvInteger", "ConvTranspose", "QLinearConv",
                                           "NhwcConv", "FusedConv",   "DeformConv"};
    return ops.count(op) > 0;
}

// A convolution whose weight (M, C/group, k...) has one input channel per group while the input has several.
// ConvTranspose's weight is (C, M/group, k...) and has no depthwise form in the models seen.
bool isDepthwise(const LayerCount& layer) {
    if (layer.op == "ConvTranspose") return false;
    const size_t weight = layer.op == "QLinearConv" ? 3 : 1;
    if (layer.inputShapes.size() <= weight) return false;
    const long long inputChannels = dimOf(layer.inputShapes[0], layer.op == "NhwcConv" ? 3 : 1);
    return dimOf(layer.inputShapes[weight], 1) == 1 && inputChannels > 1;
}

} // namespace

OperatorClass operatorClassOf(const LayerCount& layer) {
    static const std::set<std::string> attention{"Attention", "MultiHeadAttention", "GroupQueryAttention",
                                                 "RotaryEmbedding"};
    static const std::set<std::string> normalization{"BatchNormalization",
                                                     "LayerNormalization",
                                                     "InstanceNormalization",
                                                     "GroupNormalization",
                                                     "GroupNorm",
                                                     "RMSNormalization",
                                                     "SimplifiedLayerNormalization",
                                                     "SkipLayerNormalization",
                                                     "SkipSimplifiedLayerNormalization",
                                                     "LpNormalization",
                                                     "MeanVarianceNormalization",
                                                     "LRN",
                                                     "Softmax",
                                                     "LogSoftmax",
                                                     "Hardmax"};
    static const std::set<std::string> reduction{"GlobalAveragePool",
                                                 "GlobalMaxPool",
                                                 "GlobalLpPool",
                                                 "AveragePool",
                                                 "MaxPool",
                                                 "LpPool",
                                                 "NhwcMaxPool",
                                                 "MaxRoiPool",
                                                 "RoiAlign",
                                                 "ArgMax",
                                                 "ArgMin",
                                                 "TopK",
                                                 "CumSum"};
    if (isConvolution(layer.op))
        return isDepthwise(layer) ? OperatorClass::DepthwiseConv : OperatorClass::DenseConv;
    if (attention.count(layer.op)) return OperatorClass::Attention;
    if (normalization.count(layer.op)) return OperatorClass::Normalization;
    if (reduction.count(layer.op) || layer.op.rfind("Reduce", 0) == 0) return OperatorClass::Reduction;
    switch (layer.kind) {
    case OpKind::Matrix:
        return OperatorClass::Gemm;
    case OpKind::DataMovement:
        return OperatorClass::DataMovement;
    case OpKind::Vector:
        return OperatorClass::Reduction;
    case OpKind::Pointwise:
    case OpKind::Alias:
    case OpKind::Control:
        return OperatorClass::Pointwise;
    }
    return OperatorClass::Pointwise;
}

} // namespace rooftop
