// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace rooftop {

/// The serialized ModelProto without the value payloads (raw_data, float_data, int64_data, ...) of tensors
/// with more than `maxElements` elements, in initializers, tensor attributes (Constant) and nested graphs at
/// any depth; dims, data type, names and every other field are kept byte for byte. Parsing the result costs
/// time and memory independent of the weight bytes. Nothing when the bytes are not well-formed protobuf wire
/// data (the caller then parses the original and reports its error) or when nothing would be stripped.
std::optional<std::string> stripTensorPayloads(const uint8_t* data, size_t size, int64_t maxElements);

} // namespace rooftop
