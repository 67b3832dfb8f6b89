// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <onnx/onnx_pb.h>

namespace rooftop {

/// Turns graph inputs that only feed weight operands (Conv/Gemm weights and biases, a rank-2 MatMul B,
/// normalization parameters, PRelu slopes, RNN weights; not Gather data, which may be activations) into
/// payload-less initializers: weights exported as inputs (torch's export_params=False). They then count as
/// weights and --batch leaves them. Only floating-point inputs with numeric dims; returns how many.
int declareParameterInputs(onnx::GraphProto& graph);

} // namespace rooftop
