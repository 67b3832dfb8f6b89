// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/errors.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rooftop {

/// One enumerator and the name it is written as in options, files and output.
template <typename Enum> struct EnumName {
    Enum value;       ///< the enumerator
    const char* name; ///< its written name
};

/// The name of `value` in `table`; the first entry's name when the table lacks it.
template <typename Enum, std::size_t N> const char* nameIn(const EnumName<Enum> (&table)[N], Enum value) {
    for (const EnumName<Enum>& entry : table)
        if (entry.value == value) return entry.name;
    return table[0].name;
}

/// The enumerator named `text` (exactly); nothing when no entry has that name.
template <typename Enum, std::size_t N>
std::optional<Enum> parseIn(const EnumName<Enum> (&table)[N], std::string_view text) {
    for (const EnumName<Enum>& entry : table)
        if (text == entry.name) return entry.value;
    return std::nullopt;
}

/// The names of `table` for a message: "a, b or c".
template <typename Enum, std::size_t N> std::string namesIn(const EnumName<Enum> (&table)[N]) {
    std::string names;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0) names += i + 1 == N ? " or " : ", ";
        names += table[i].name;
    }
    return names;
}

/// The parsed value; InputError(message) when there is none.
template <typename T> T parsedOr(const std::optional<T>& parsed, const std::string& message) {
    if (!parsed) throw InputError(message);
    return *parsed;
}

} // namespace rooftop
