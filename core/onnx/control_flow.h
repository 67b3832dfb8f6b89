// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <onnx/onnx_pb.h>

namespace rooftop {

/// Replaces every If node whose condition is a constant by the nodes of the branch it takes; returns how
/// many were inlined. Branch-local names get the If node's name as a prefix.
int inlineConstantIfs(onnx::GraphProto& graph);

} // namespace rooftop
