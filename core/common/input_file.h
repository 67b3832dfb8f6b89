// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace rooftop {

/// The most a JSON or CSV input file Rooftop reads whole may hold (no profile, predictor or trace comes
/// near it).
constexpr int64_t inputFileLimitBytes = int64_t{256} << 20;

/// The whole text of a file the user named, `what` naming it in errors ("the predictor file"); throws a
/// one-line InputError when it does not exist or cannot be read, is a folder, is not a regular file (a
/// device or a pipe, read without end) or holds more than `limitBytes`.
std::string readInputFile(const std::string& path, const std::string& what,
                          int64_t limitBytes = inputFileLimitBytes);

/// The note of a reader that left out a last line without its line break (a write cut short) that does not
/// read: "PATH:LINE: its last line, without a line break (a write cut short), was left out: WHY" (`where` is
/// "PATH:LINE: ").
std::string cutShortLineNote(const std::string& where, const std::string& why);

/// Throws readInputFile's InputError when `path` exists and is a folder or not a regular file; nothing
/// when it is a regular file or does not exist.
void refuseIrregularFile(const std::string& path, const std::string& what);

} // namespace rooftop
