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

/// Our own rule's result for the tensor `output`, applied to its producer directly: its dims, "?" when the rule
/// left it unknown, "none" when no rule applied, "no producer" for inputs.
QString ruleShape(const Graph& graph, const std::string& output, DataType* type = nullptr);

/// The shape the whole inference gave the tensor ("missing" when there is no such tensor).
QString shapeOf(const Graph& graph, const std::string& name);

} // namespace rooftop::test
