// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/dim_text.h"

#include "core/common/errors.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace rooftop {

namespace {

constexpr int64_t maxValue = int64_t{1} << 40; // DimBindings::maxDimValue, without ONNX's headers

} // namespace

std::string namedDimsText(const std::map<std::string, int64_t>& dims) {
    std::string text;
    for (const auto& [name, value] : dims)
        text += (text.empty() ? "" : ";") + name + "=" + std::to_string(value);
    return text;
}

std::map<std::string, int64_t> parseNamedDimsText(const std::string& text, const std::string& what) {
    std::map<std::string, int64_t> dims;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find(';', start), text.size());
        const std::string entry = text.substr(start, end - start);
        const size_t eq = entry.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size() ||
            entry.find_first_of(" \t,\"") != std::string::npos)
            throw InputError(what + ": expected NAME=VALUE entries separated by ';', got '" + entry + "'");
        const std::string name = entry.substr(0, eq);
        const std::string number = entry.substr(eq + 1);
        errno = 0;
        char* stop = nullptr;
        const long long value = std::strtoll(number.c_str(), &stop, 10);
        if (*stop != '\0' || errno == ERANGE || value < 0 || value > maxValue || number[0] == '+')
            throw InputError(what + ": " + name + " must be an integer from 0 to 2^40, got '" + number + "'");
        if (!dims.emplace(name, value).second) throw InputError(what + ": " + name + " is given twice");
        start = end + 1;
    }
    if (!text.empty() && text.back() == ';') throw InputError(what + ": a ';' without an entry after it");
    return dims;
}

std::string describeNamedDims(const std::map<std::string, int64_t>& dims) {
    if (dims.empty()) return "the model's own dims";
    std::string text;
    for (const auto& [name, value] : dims)
        text += (text.empty() ? "" : ", ") + name + "=" + std::to_string(value);
    return text;
}

std::string modelAtDims(const std::string& model, const std::map<std::string, int64_t>& dims) {
    return dims.empty() ? model : model + " at " + describeNamedDims(dims);
}

} // namespace rooftop
