// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/decimal_text.h"

#include <cmath>
#include <cstdlib>

namespace rooftop {

std::optional<double> readDecimal(const std::string& text) {
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

} // namespace rooftop
