// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <onnx/onnx_pb.h>

namespace rooftop {

/// Replaces every If node whose condition is a constant by the nodes of the branch it takes; returns how
/// many were inlined. Branch-local names get the If node's name as a prefix (reads of them in nested bodies
/// too); Ifs of an inlined branch whose condition is now constant are inlined in turn.
int inlineConstantIfs(onnx::GraphProto& graph);

} // namespace rooftop
