// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/graph/data_type.h"

#include "core/common/enum_names.h"
#include "core/common/errors.h"

#include <algorithm>

namespace rooftop {

int elementBits(DataType type) {
    switch (type) {
    case DataType::Float32:
    case DataType::Int32:
    case DataType::UInt32:
        return 32;
    case DataType::Float64:
    case DataType::Int64:
    case DataType::UInt64:
    case DataType::Complex64:
        return 64;
    case DataType::Complex128:
        return 128;
    case DataType::Float16:
    case DataType::BFloat16:
    case DataType::Int16:
    case DataType::UInt16:
        return 16;
    case DataType::Int8:
    case DataType::UInt8:
    case DataType::Bool:
    case DataType::Float8E4M3FN:
    case DataType::Float8E4M3FNUZ:
    case DataType::Float8E5M2:
    case DataType::Float8E5M2FNUZ:
        return 8;
    case DataType::Int4:
    case DataType::UInt4:
    case DataType::Float4E2M1:
        return 4;
    case DataType::String:
    case DataType::Undefined:
        return 0;
    }
    return 0;
}

bool isFloatingPoint(DataType type) {
    switch (type) {
    case DataType::Float32:
    case DataType::Float16:
    case DataType::BFloat16:
    case DataType::Float64:
    case DataType::Float8E4M3FN:
    case DataType::Float8E4M3FNUZ:
    case DataType::Float8E5M2:
    case DataType::Float8E5M2FNUZ:
    case DataType::Float4E2M1:
        return true;
    default:
        return false;
    }
}

std::string dataTypeName(DataType type) {
    switch (type) {
    case DataType::Float32:
        return "fp32";
    case DataType::UInt8:
        return "uint8";
    case DataType::Int8:
        return "int8";
    case DataType::UInt16:
        return "uint16";
    case DataType::Int16:
        return "int16";
    case DataType::Int32:
        return "int32";
    case DataType::Int64:
        return "int64";
    case DataType::String:
        return "string";
    case DataType::Bool:
        return "bool";
    case DataType::Float16:
        return "fp16";
    case DataType::Float64:
        return "fp64";
    case DataType::UInt32:
        return "uint32";
    case DataType::UInt64:
        return "uint64";
    case DataType::Complex64:
        return "complex64";
    case DataType::Complex128:
        return "complex128";
    case DataType::BFloat16:
        return "bf16";
    case DataType::Float8E4M3FN:
        return "fp8e4m3fn";
    case DataType::Float8E4M3FNUZ:
        return "fp8e4m3fnuz";
    case DataType::Float8E5M2:
        return "fp8e5m2";
    case DataType::Float8E5M2FNUZ:
        return "fp8e5m2fnuz";
    case DataType::UInt4:
        return "uint4";
    case DataType::Int4:
        return "int4";
    case DataType::Float4E2M1:
        return "fp4e2m1";
    case DataType::Undefined:
        break;
    }
    return "undefined";
}

DataType dataTypeFromOnnx(int value) {
    if (value < 0 || value > static_cast<int>(DataType::Float4E2M1)) return DataType::Undefined;
    return static_cast<DataType>(value);
}

namespace {
const EnumName<Precision> precisionNames[] = {{Precision::AsModel, "as-model"}, {Precision::FP32, "fp32"},
                                              {Precision::FP16, "fp16"},        {Precision::INT8, "int8"},
                                              {Precision::FP8, "fp8"},          {Precision::FP4, "fp4"}};
} // namespace

std::optional<Precision> parsePrecision(std::string_view text) {
    return parseIn(precisionNames, text);
}

std::string precisionName(Precision precision) {
    return nameIn(precisionNames, precision);
}

const std::vector<Precision>& runPrecisions() {
    static const std::vector<Precision> precisions = {Precision::FP32, Precision::FP16, Precision::INT8,
                                                      Precision::FP8, Precision::FP4};
    return precisions;
}

std::string runPrecisionChoices() {
    return "fp32, fp16, int8, fp8 or fp4";
}

std::optional<Precision> parseRunPrecision(std::string_view text) {
    const std::optional<Precision> precision = parsePrecision(text);
    if (!precision || *precision == Precision::AsModel) return std::nullopt;
    return precision;
}

void checkRunPrecisions(const std::vector<Precision>& precisions, const std::string& who) {
    const auto& known = runPrecisions();
    for (Precision precision : precisions)
        if (std::find(known.begin(), known.end(), precision) == known.end())
            throw InputError(who + ": precision must be " + runPrecisionChoices() + ", got '" +
                             precisionName(precision) + "'");
}

DataType applyPrecision(DataType type, Precision precision) {
    if (!isFloatingPoint(type)) return type;
    switch (precision) {
    case Precision::FP32:
        return DataType::Float32;
    case Precision::FP16:
        return DataType::Float16;
    case Precision::INT8:
        return DataType::Int8;
    case Precision::FP8:
        return DataType::Float8E4M3FN;
    case Precision::FP4:
        return DataType::Float4E2M1;
    case Precision::AsModel:
        break;
    }
    return type;
}

} // namespace rooftop
