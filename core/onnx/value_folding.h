// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/graph.h"

#include <cstddef>

namespace rooftop {

/// Computes the values of one node's outputs when it does small shape arithmetic (Shape, Gather, Div, Cast,
/// Concat, Slice, Range, ...) on folded inputs, storing them in Tensor::intValues (or floatValues for
/// float intermediates such as Cast-to-float then Floor) and filling in an unknown output shape. Nodes
/// in Loop/Scan/If bodies are left alone. Returns true when it set an output's values; never throws.
bool foldNodeValues(Graph& graph, size_t nodeIndex);

/// Runs foldNodeValues on every node in topological order.
void foldIntegerValues(Graph& graph);

} // namespace rooftop
