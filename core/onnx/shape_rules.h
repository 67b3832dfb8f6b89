// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/graph.h"

#include <string>
#include <vector>

namespace rooftop {

/// Output type and dims computed by one of our own shape rules.
struct InferredOutput {
    DataType type = DataType::Undefined; ///< the output's element type
    std::vector<int64_t> dims;           ///< outermost first
    bool known = false;                  ///< a rule set this output; false: type and dims unknown
};

/// Computes the outputs of a node; returns false when the inputs it needs are not known yet.
using ShapeRule = bool (*)(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

/// Our own shape rule for (domain, opType, opset), or nullptr. Used for any node whose outputs the ONNX
/// library left unknown: operators newer than the library (opset 18+ semantics), contrib ops
/// (com.microsoft), and ops whose inputs only our value folding knows.
ShapeRule findShapeRule(const std::string& domain, const std::string& opType, int opsetVersion);

/// Runs the node's rule; false when there is none, its inputs are not known yet, or they are malformed
/// (a rule never throws: overflowing or absurd dims leave the outputs unknown).
bool applyShapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs);

/// True when the ONNX library's inference must not be used for this op at this opset (its semantics
/// changed after the library's newest opset, 17).
bool libraryInferenceOutdated(const std::string& domain, const std::string& opType, int opsetVersion);

} // namespace rooftop
