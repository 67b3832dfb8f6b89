// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rooftop {

/// Element types of ONNX tensors (values follow onnx::TensorProto_DataType).
enum class DataType : int {
    Undefined = 0,
    Float32 = 1,
    UInt8 = 2,
    Int8 = 3,
    UInt16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Float64 = 11,
    UInt32 = 12,
    UInt64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    BFloat16 = 16,
    Float8E4M3FN = 17,
    Float8E4M3FNUZ = 18,
    Float8E5M2 = 19,
    Float8E5M2FNUZ = 20,
    UInt4 = 21,
    Int4 = 22,
    Float4E2M1 = 23,
};

/// Size in bits of one element (4 for packed int4, 0 when unknown or variable).
int elementBits(DataType type);

/// True for floating-point element types (which a forced precision replaces).
bool isFloatingPoint(DataType type);

/// Lower-case short name ("fp32", "int8", ...).
std::string dataTypeName(DataType type);

/// Maps a raw ONNX data_type value, Undefined when out of range.
DataType dataTypeFromOnnx(int value);

/// Precision forced on floating-point tensors when counting bytes.
enum class Precision { AsModel, FP32, FP16, INT8 };

/// Parses "as-model", "fp32", "fp16", "int8"; nothing when unknown.
std::optional<Precision> parsePrecision(std::string_view text);

/// The name parsePrecision accepts for this precision.
std::string precisionName(Precision precision);

/// Element type after applying a forced precision.
DataType applyPrecision(DataType type, Precision precision);

} // namespace rooftop
