// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/tensor_values.h"

#include <cstring>

namespace rooftop {
namespace {

int64_t declaredCount(const onnx::TensorProto& tensor) {
    int64_t count = 1;
    for (auto d : tensor.dims()) {
        if (d < 0 || d > maxFoldedElements) return -1;
        count *= d;
        if (count > maxFoldedElements) return -1;
    }
    return count;
}

template <typename T, typename Out>
bool fromRaw(const std::string& raw, int64_t count, std::vector<Out>& out) {
    if (raw.size() != static_cast<size_t>(count) * sizeof(T)) return false;
    out.resize(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        T value;
        std::memcpy(&value, raw.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
        out[static_cast<size_t>(i)] = static_cast<Out>(value);
    }
    return true;
}

} // namespace

std::optional<std::vector<int64_t>> integerValues(const onnx::TensorProto& tensor) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) return std::nullopt;
    const int64_t count = declaredCount(tensor);
    if (count < 0) return std::nullopt;
    std::vector<int64_t> values;
    const bool hasRaw = tensor.has_raw_data();
    switch (tensor.data_type()) {
    case onnx::TensorProto::INT64:
        if (hasRaw) {
            if (!fromRaw<int64_t>(tensor.raw_data(), count, values)) return std::nullopt;
        } else {
            values.assign(tensor.int64_data().begin(), tensor.int64_data().end());
        }
        break;
    case onnx::TensorProto::INT32:
        if (hasRaw) {
            if (!fromRaw<int32_t>(tensor.raw_data(), count, values)) return std::nullopt;
        } else {
            values.assign(tensor.int32_data().begin(), tensor.int32_data().end());
        }
        break;
    case onnx::TensorProto::BOOL:
        if (hasRaw) {
            if (!fromRaw<uint8_t>(tensor.raw_data(), count, values)) return std::nullopt;
        } else {
            values.assign(tensor.int32_data().begin(), tensor.int32_data().end());
        }
        break;
    default:
        return std::nullopt;
    }
    if (static_cast<int64_t>(values.size()) != count) return std::nullopt;
    return values;
}

std::optional<std::vector<double>> floatValues(const onnx::TensorProto& tensor) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) return std::nullopt;
    const int64_t count = declaredCount(tensor);
    if (count < 0) return std::nullopt;
    std::vector<double> values;
    const bool hasRaw = tensor.has_raw_data();
    switch (tensor.data_type()) {
    case onnx::TensorProto::FLOAT:
        if (hasRaw) {
            if (!fromRaw<float>(tensor.raw_data(), count, values)) return std::nullopt;
        } else {
            values.assign(tensor.float_data().begin(), tensor.float_data().end());
        }
        break;
    case onnx::TensorProto::DOUBLE:
        if (hasRaw) {
            if (!fromRaw<double>(tensor.raw_data(), count, values)) return std::nullopt;
        } else {
            values.assign(tensor.double_data().begin(), tensor.double_data().end());
        }
        break;
    default:
        return std::nullopt;
    }
    if (static_cast<int64_t>(values.size()) != count) return std::nullopt;
    return values;
}

} // namespace rooftop
