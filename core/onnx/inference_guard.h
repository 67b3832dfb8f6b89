// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

namespace rooftop {

/// ONNX 1.12's inference dereferences the type of every input a known operator reads: a value produced by an
/// operator it has no schema for (custom domains, newer or unknown ops) has none and crashes it. Gives each such
/// output (that has no type yet) an element-type-only placeholder; our own rules fill in the shape later. Outputs
/// of known operators get a placeholder of unknown element type, so a node whose own inference fails leaves its
/// consumers a type to read instead of none. A graph input without a type gets one of unknown element type.
void addPlaceholderTypes(onnx::GraphProto& graph, const onnx::ISchemaRegistry& registry,
                         const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opsets);

} // namespace rooftop
