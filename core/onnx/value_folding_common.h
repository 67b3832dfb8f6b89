// SPDX-License-Identifier: GPL-3.0-or-later
// What the value folding files (value_folding*.cpp) share; not a public interface.
#pragma once

#include "core/graph/graph.h"
#include "core/onnx/shape_rules_common.h"

#include <optional>
#include <vector>

namespace rooftop::folding {

/// Tensor dimensions, outermost first (shapes::Dims).
using shapes::Dims;

/// A folded tensor: integers (int and bool types) or reals (float types), row-major.
struct Value {
    Dims dims;                 ///< the tensor's dims
    bool isFloat = false;      ///< true: `reals` holds the elements; false: `ints`
    std::vector<int64_t> ints; ///< elements of an integer or bool tensor
    std::vector<double> reals; ///< elements of a float tensor

    /// The element count.
    size_t size() const { return isFloat ? reals.size() : ints.size(); }
    /// Element i as a double.
    double real(size_t i) const { return isFloat ? reals[i] : static_cast<double>(ints[i]); }
};

/// A folded output: its values and the element type to give its tensor when that has none.
struct Folded {
    Value value;                         ///< the output's values
    DataType type = DataType::Undefined; ///< element type for an output tensor without one
};

/// Folds a node's single output from its inputs' values (one rule per op type); nullopt when it cannot.
using FoldRule = std::optional<Folded> (*)(const Graph& graph, const Node& node);

/// Element count of dims; throws CountOverflow beyond maxFoldedElements.
int64_t countOf(const Dims& dims);

/// Folded values of input i (their count matching its known shape), or nullopt.
std::optional<Value> valueOf(const Graph& graph, const Node& node, size_t i);

/// Element type of input i, Undefined when absent.
DataType typeOf(const Graph& graph, const Node& node, size_t i);

/// The elements of v at the given linear indices, as a tensor of the given dims.
Value pick(const Value& v, Dims dims, const std::vector<size_t>& indices);

/// Linear index into `in` (broadcast to `out`) of every element of `out`.
std::vector<size_t> broadcastIndices(const Dims& in, const Dims& out);

/// Row-major strides of dims, in elements.
std::vector<size_t> stridesOf(const Dims& dims);

// Rules of the data-movement and scan operators, in value_folding_tensor.cpp.
/// Transpose: the values permuted by `perm` (reversed axes when absent).
std::optional<Folded> transposeFold(const Graph& graph, const Node& node);
/// Pad in constant, edge, reflect or wrap mode (negative pads crop), pads from attributes or inputs.
std::optional<Folded> padFold(const Graph& graph, const Node& node);
/// Tile (opset 6+): the values repeated along each axis by the repeats input.
std::optional<Folded> tileFold(const Graph& graph, const Node& node);
/// ScatterND: updates written at index tuples, reduction none, add, mul, max or min.
std::optional<Folded> scatterNDFold(const Graph& graph, const Node& node);
/// GatherElements: data elements along `axis` at the indices (negative ones count from the end).
std::optional<Folded> gatherElementsFold(const Graph& graph, const Node& node);
/// CumSum along the scalar axis input, honouring the exclusive and reverse attributes.
std::optional<Folded> cumSumFold(const Graph& graph, const Node& node);
/// GatherND with batch_dims: each index tuple of the last indices axis picks a slice of data.
std::optional<Folded> gatherNDFold(const Graph& graph, const Node& node);
/// Trilu: keeps the upper (default) or lower triangle of the last two axes, shifted by k; zeros the rest.
std::optional<Folded> triluFold(const Graph& graph, const Node& node);
/// NonZero: int64 [rank, count] coordinates of the non-zero elements (a scalar counts as rank 1).
std::optional<Folded> nonZeroFold(const Graph& graph, const Node& node);

} // namespace rooftop::folding
