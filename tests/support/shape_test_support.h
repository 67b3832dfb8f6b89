// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/graph.h"

#include <QString>
#include <string>

namespace rooftop::test {

/// The inferred graph of a model written in ONNX's textual syntax.
Graph graphOf(const std::string& text);

/// "2x3x4", or "scalar" for rank 0.
QString dimsText(const std::vector<int64_t>& dims);

/// Our own rule's result for the tensor `output`, applied to its producer directly: its dims, "?" when the
/// rule left it unknown, "none" when no rule applied, "no producer" for inputs.
QString ruleShape(const Graph& graph, const std::string& output, DataType* type = nullptr);

/// The shape the whole inference gave the tensor ("missing" when there is no such tensor).
QString shapeOf(const Graph& graph, const std::string& name);

/// The tensor of this name; throws std::runtime_error when there is none.
const Tensor& tensorNamed(const Graph& graph, const std::string& name);

/// The folded integer values of the tensor, or {-999} when it has none.
std::vector<int64_t> intValuesOf(const Graph& graph, const std::string& name);

/// The folded real values of the tensor, or {-999.0} when it has none.
std::vector<double> realValuesOf(const Graph& graph, const std::string& name);

/// The graph of a textual model with only its own constants and input shapes, without ONNX's inference:
/// value folding alone.
Graph foldedOnlyGraphOf(const std::string& text);

} // namespace rooftop::test
