// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/batch_list.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/onnx/dim_binding.h"

#include <algorithm>

namespace rooftop {

namespace {

std::string trimmed(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace

int64_t parseBatchSize(const std::string& item, const std::string& what, const std::string& whole) {
    const std::string text = trimmed(item);
    const std::string got =
        whole.empty() || whole == item ? "'" + text + "'" : "'" + text + "' in '" + whole + "'";
    if (whole.empty() && text.find(',') != std::string::npos)
        throw InputError(what + " takes one batch size here, such as 8; got " + got +
                         " (recommend, profile, tune and plan weigh lists)");
    const bool negative = !text.empty() && text[0] == '-';
    const size_t start = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    if (text.size() == start || text.find_first_not_of("0123456789", start) != std::string::npos)
        throw InputError(what + " expects " +
                         (whole.empty() ? "a whole number of inputs per batch, such as 8"
                                        : "whole numbers of inputs per batch, such as 8 or 1,4,16") +
                         "; got " + got);
    // Digits only from here: accumulate with a cap, so that any number of digits is "too large", not an
    // overflow.
    int64_t value = 0;
    for (size_t i = start; i < text.size() && value <= DimBindings::maxDimValue; ++i)
        value = value * 10 + (text[i] - '0');
    if (negative || value < 1)
        throw InputError(what + " must be at least 1 (a batch holds one input or more), got " + got);
    if (value > DimBindings::maxDimValue)
        throw InputError(what + " must be at most 2^40 (about 1.1 trillion inputs), got " + got);
    return value;
}

std::vector<int64_t> parseBatchList(const std::string& text, const std::string& what) {
    if (trimmed(text).empty())
        throw InputError(what + " expects one batch size or more, such as 8 or 1,4,16; got nothing");
    std::vector<int64_t> batches;
    for (const std::string& item : splitCommaList(text)) {
        if (trimmed(item).empty())
            throw InputError(what + " has an empty item in '" + text + "' (two commas, or one at an end)");
        const int64_t value = parseBatchSize(item, what, text);
        if (std::find(batches.begin(), batches.end(), value) == batches.end()) batches.push_back(value);
    }
    return batches;
}

} // namespace rooftop
