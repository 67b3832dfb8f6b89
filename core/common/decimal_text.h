// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rooftop {

/// The finite number a whole decimal text writes ("12", "-0.5", "1e3"); nullopt for anything else,
/// including what std::stod also reads: hexadecimal ("0x10"), blanks, "inf" and "nan".
std::optional<double> readDecimal(const std::string& text);

/// The integer a whole decimal text writes ("12", "-3", "+4"); nullopt for anything else: blanks, "0x10",
/// "1e3", "4.0", or a value outside int64_t.
std::optional<int64_t> readInteger(const std::string& text);

} // namespace rooftop
