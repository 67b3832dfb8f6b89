// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/data_type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Where a tensor's values come from.
enum class TensorOrigin {
    Activation,  ///< a node's output
    GraphInput,  ///< a graph input that is not an initializer
    Initializer, ///< a weight stored in the model
    Constant     ///< a Constant node's output
};

/// A value in the graph: its element type, shape (when known) and, for small integer constants, its values.
struct Tensor {
    std::string name;                               ///< tensor name in the model
    DataType type = DataType::Undefined;            ///< element type (Undefined when not known)
    std::vector<int64_t> dims;                      ///< concrete dims; meaningful only when shapeKnown
    bool shapeKnown = false;                        ///< dims hold the concrete shape
    TensorOrigin origin = TensorOrigin::Activation; ///< where its values come from
    bool externalData = false;                      ///< initializer payload lives in an external file
    std::optional<std::vector<int64_t>> intValues;  ///< folded integer values (shape tensors, axes, ...)
    std::optional<std::vector<double>> floatValues; ///< small float constants (Resize scales, ...)
    int producer = -1;          ///< index of the producing node, -1 for inputs and initializers
    std::vector<int> consumers; ///< indices of consuming nodes

    /// Number of elements (1 for a scalar); throws CountOverflow when too large.
    int64_t elementCount() const;
    /// True for initializers and Constant outputs: weights in the byte split.
    bool isWeight() const { return origin == TensorOrigin::Initializer || origin == TensorOrigin::Constant; }
    /// Dims as "1x3x224x224" ("?" when unknown, "scalar" for rank 0).
    std::string shapeText() const;
};

} // namespace rooftop
