// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// Precision forced on floating-point tensors when counting bytes. FP8 is E4M3; FP4 is NVFP4 (E2M1 values in
/// blocks of 16 sharing one FP8 E4M3 scale: 4.5 bits a value, see the cost layer's precisionBytes).
enum class Precision { AsModel, FP32, FP16, INT8, FP8, FP4 };

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
