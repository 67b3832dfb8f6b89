// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace rooftop {

/// Largest constant (in elements) whose values are kept for shape rules; weights are never read.
constexpr int64_t maxFoldedElements = 4096;

/// Integer values of a small embedded integer tensor; nullopt for floats, external or large payloads.
std::optional<std::vector<int64_t>> integerValues(const onnx::TensorProto& tensor);

/// Float values of a small embedded floating-point tensor (fp32/fp64 only); nullopt otherwise.
std::optional<std::vector<double>> floatValues(const onnx::TensorProto& tensor);

} // namespace rooftop
