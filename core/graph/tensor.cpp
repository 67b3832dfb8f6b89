// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/graph/tensor.h"

#include "core/graph/checked_math.h"

namespace rooftop {

int64_t Tensor::elementCount() const {
    int64_t count = 1;
    for (int64_t d : dims) count = checkedMul(count, d < 0 ? 0 : d);
    return count;
}

std::string Tensor::shapeText() const {
    if (!shapeKnown) return "?";
    if (dims.empty()) return "scalar";
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) text += 'x';
        text += std::to_string(dims[i]);
    }
    return text;
}

} // namespace rooftop
