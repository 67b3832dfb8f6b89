// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace rooftop {

/// A 128-bit integer for exact products of two 64-bit counts before a division (bytes x rows read / rows);
/// GCC's and Clang's extension, on x86-64 and arm64 alike (__extension__: no -Wpedantic warning).
__extension__ typedef __int128 WideInteger;

} // namespace rooftop
