// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/graph.h"

#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_map>

namespace rooftop {

/// Values that ONNX's data propagation computed for shape tensors, by tensor name.
using ShapeDataMap = std::unordered_map<std::string, onnx::TensorShapeProto>;

/// Turns a validated, sorted and shape-inferred model into a Graph; Loop/Scan/If bodies are flattened
/// into the node list (Loop bodies repeated by a constant trip count), with a note on the control node.
Graph buildGraph(const onnx::ModelProto& model, const ShapeDataMap& shapeData);

} // namespace rooftop
