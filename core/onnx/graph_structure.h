// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <onnx/onnx_pb.h>

namespace rooftop {

/// Checks names (no dangling inputs, no tensor produced twice) and sorts the nodes topologically in place;
/// throws InputError for a dangling input, a duplicate producer or a cycle. Outer-scope names are allowed
/// inside subgraphs.
void validateAndSortGraph(onnx::GraphProto& graph);

/// True when one of the node's attributes holds a graph (If, Loop, Scan bodies).
bool hasSubgraph(const onnx::NodeProto& node);

} // namespace rooftop
