// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooftop {

/// Element types of ONNX tensors (values follow onnx::TensorProto_DataType).
enum class DataType : int {
    Undefined = 0,       ///< unknown or not set (0 bits)
    Float32 = 1,         ///< ONNX FLOAT: 32-bit IEEE float
    UInt8 = 2,           ///< ONNX UINT8
    Int8 = 3,            ///< ONNX INT8
    UInt16 = 4,          ///< ONNX UINT16
    Int16 = 5,           ///< ONNX INT16
    Int32 = 6,           ///< ONNX INT32
    Int64 = 7,           ///< ONNX INT64
    String = 8,          ///< ONNX STRING (0 bits: variable size)
    Bool = 9,            ///< ONNX BOOL, one byte an element
    Float16 = 10,        ///< ONNX FLOAT16: IEEE half
    Float64 = 11,        ///< ONNX DOUBLE
    UInt32 = 12,         ///< ONNX UINT32
    UInt64 = 13,         ///< ONNX UINT64
    Complex64 = 14,      ///< ONNX COMPLEX64: two 32-bit floats
    Complex128 = 15,     ///< ONNX COMPLEX128: two 64-bit floats
    BFloat16 = 16,       ///< ONNX BFLOAT16
    Float8E4M3FN = 17,   ///< ONNX FLOAT8E4M3FN: what FP8 precision counts as
    Float8E4M3FNUZ = 18, ///< ONNX FLOAT8E4M3FNUZ
    Float8E5M2 = 19,     ///< ONNX FLOAT8E5M2
    Float8E5M2FNUZ = 20, ///< ONNX FLOAT8E5M2FNUZ
    UInt4 = 21,          ///< ONNX UINT4, packed two a byte
    Int4 = 22,           ///< ONNX INT4, packed two a byte
    Float4E2M1 = 23,     ///< ONNX FLOAT4E2M1: what FP4 (NVFP4) precision counts as
};

/// Size in bits of one element (4 for packed int4, 0 when unknown or variable).
int elementBits(DataType type);

/// True for floating-point element types (which a forced precision replaces).
bool isFloatingPoint(DataType type);

/// Lower-case short name ("fp32", "int8", ...).
std::string dataTypeName(DataType type);

/// Maps a raw ONNX data_type value, Undefined when out of range.
DataType dataTypeFromOnnx(int value);

/// Precision forced on floating-point tensors when counting bytes. FP8 is E4M3; FP4 is NVFP4 (E2M1 values in
/// blocks of 16 sharing one FP8 E4M3 scale: 4.5 bits a value, see the cost layer's precisionBytes).
enum class Precision {
    AsModel, ///< the model's own types
    FP32,    ///< floating-point tensors as Float32
    FP16,    ///< floating-point tensors as Float16
    INT8,    ///< floating-point tensors as Int8
    FP8,     ///< floating-point tensors as FP8 E4M3
    FP4      ///< floating-point tensors as NVFP4
};

/// Parses "as-model", "fp32", "fp16", "int8", "fp8", "fp4"; nothing when unknown.
std::optional<Precision> parsePrecision(std::string_view text);

/// The name parsePrecision accepts for this precision.
std::string precisionName(Precision precision);

/// The precisions a model can be run and learned at (all but as-model), in the order of their feature codes.
const std::vector<Precision>& runPrecisions();

/// "fp32, fp16, int8, fp8 or fp4": the run precisions as an error message lists them.
std::string runPrecisionChoices();

/// Parses a precision a run may use ("as-model" is not one); nothing otherwise.
std::optional<Precision> parseRunPrecision(std::string_view text);

/// Throws InputError "WHO: precision must be ..." unless every one of `precisions` is a run precision.
void checkRunPrecisions(const std::vector<Precision>& precisions, const std::string& who);

/// Element type after applying a forced precision.
DataType applyPrecision(DataType type, Precision precision);

} // namespace rooftop
