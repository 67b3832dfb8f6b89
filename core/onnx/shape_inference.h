// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/onnx/graph_builder.h"

#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace rooftop {

/// Infers every tensor shape: ONNX's C++ inference with data propagation (folds Shape -> Gather -> Concat
/// -> Reshape) where it knows the operator, our own rules elsewhere, repeated until nothing changes.
/// Exporter-written intermediate shapes are dropped first so bound dims win. Returns the built graph.
Graph inferShapes(onnx::ModelProto& model, std::vector<std::string>& notes);

} // namespace rooftop
