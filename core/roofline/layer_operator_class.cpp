// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/layer_operator_class.h"

#include <cstdlib>
#include <string>
#include <unordered_map>

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

// A convolution whose weight (M, C/group, k...) has one input channel per group while the input has several.
// ConvTranspose's weight is (C, M/group, k...) and has no depthwise form in the models seen.
bool isDepthwise(const LayerCount& layer) {
    if (layer.op == "ConvTranspose") return false;
    const size_t weight = layer.op == "QLinearConv" ? 3 : 1;
    if (layer.inputShapes.size() <= weight) return false;
    const long long inputChannels = dimOf(layer.inputShapes[0], layer.op == "NhwcConv" ? 3 : 1);
    return dimOf(layer.inputShapes[weight], 1) == 1 && inputChannels > 1;
}

// Operators named into a class (one hash lookup: this runs per layer per mode); convolutions are then told
// dense or depthwise by their shapes.
enum class Named { Convolution, Attention, Normalization, Reduction };

const std::unordered_map<std::string, Named>& namedOperators() {
    static const std::unordered_map<std::string, Named> table = [] {
        std::unordered_map<std::string, Named> t;
        for (const char* op :
             {"Conv", "ConvInteger", "ConvTranspose", "QLinearConv", "NhwcConv", "FusedConv", "DeformConv"})
            t[op] = Named::Convolution;
        for (const char* op :
             {"Attention", "MultiHeadAttention", "GroupQueryAttention", "RotaryEmbedding", "AttentionPlugin"})
            t[op] = Named::Attention;
        for (const char* op :
             {"BatchNormalization", "LayerNormalization", "InstanceNormalization", "GroupNormalization",
              "GroupNorm", "RMSNormalization", "SimplifiedLayerNormalization", "SkipLayerNormalization",
              "SkipSimplifiedLayerNormalization", "LpNormalization", "MeanVarianceNormalization", "LRN",
              "Softmax", "LogSoftmax", "Hardmax"})
            t[op] = Named::Normalization;
        for (const char* op :
             {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool", "AveragePool", "MaxPool", "LpPool",
              "NhwcMaxPool", "MaxRoiPool", "RoiAlign", "ArgMax", "ArgMin", "TopK", "CumSum"})
            t[op] = Named::Reduction;
        return t;
    }();
    return table;
}

} // namespace

OperatorClass operatorClassOf(const LayerCount& layer) {
    const auto named = namedOperators().find(layer.op);
    if (named != namedOperators().end()) {
        switch (named->second) {
        case Named::Convolution:
            return isDepthwise(layer) ? OperatorClass::DepthwiseConv : OperatorClass::DenseConv;
        case Named::Attention:
            return OperatorClass::Attention;
        case Named::Normalization:
            return OperatorClass::Normalization;
        case Named::Reduction:
            return OperatorClass::Reduction;
        }
    }
    if (layer.op.compare(0, 6, "Reduce") == 0) return OperatorClass::Reduction;
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
