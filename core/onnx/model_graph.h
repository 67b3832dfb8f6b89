// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/graph.h"
#include "core/onnx/dim_binding.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace rooftop {

/// Loads an .onnx file and returns its graph with every shape inferred; throws InputError.
Graph loadGraph(const std::string& path, const DimBindings& bindings);

/// Same as loadGraph for a model already in memory (sourceName appears in messages).
Graph graphFromModel(onnx::ModelProto model, const DimBindings& bindings, const std::string& sourceName);
/// Same as graphFromModel, rewriting `model` (its symbolic dims bound, its shapes inferred) as it goes.
Graph graphFromModelInPlace(onnx::ModelProto& model, const DimBindings& bindings,
                            const std::string& sourceName);

} // namespace rooftop
