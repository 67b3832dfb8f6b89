// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/onnx/graph_builder.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// True when our own rules know every operator of the model and it has no subgraphs: inferShapes then tries
/// them alone first, and uses ONNX's inference only when they leave a shape or type unknown (or
/// ROOFTOP_ONNX_INFERENCE_ALWAYS is set).
bool ownRulesKnowEveryOperator(const onnx::ModelProto& model);

/// Infers every tensor shape: ONNX's C++ inference with data propagation (folds Shape -> Gather -> Concat
/// -> Reshape) where it knows the operator, our own rules elsewhere, repeated while a node lacking a shape
/// reads one the last round found.
/// Exporter-written intermediate shapes are dropped first so bound dims win, then fill what inference leaves
/// unknown, their symbolic dims replaced by `symbols` (nullopt: not used); a disagreement is a note. A node
/// that aborts ONNX's inference is hidden from it and the rest inferred. Returns the built graph.
Graph inferShapes(onnx::ModelProto& model, const std::optional<std::map<std::string, int64_t>>& symbols,
                  std::vector<std::string>& notes);

} // namespace rooftop
