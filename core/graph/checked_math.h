// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rooftop {

/// Thrown when a count would not fit in 64 bits (absurd dimensions in a model or an option).
class CountOverflow : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// a * b for non-negative counts, throwing CountOverflow instead of wrapping.
inline int64_t checkedMul(int64_t a, int64_t b) {
    int64_t result = 0;
    if (__builtin_mul_overflow(a, b, &result)) throw CountOverflow("count overflows 64 bits");
    return result;
}

/// a + b for non-negative counts, throwing CountOverflow instead of wrapping.
inline int64_t checkedAdd(int64_t a, int64_t b) {
    int64_t result = 0;
    if (__builtin_add_overflow(a, b, &result)) throw CountOverflow("count overflows 64 bits");
    return result;
}

} // namespace rooftop
