// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rooftop {

/// `value` with exactly `decimals` digits after the point (printf "%.*f").
std::string fixed(double value, int decimals);

/// fixed() with a "+" before a number written without a minus ("+0.0" never beside "0.0").
std::string signedFixed(double value, int decimals);

/// `value` with at most `digits` significant digits, trailing zeros dropped (printf "%.*g").
std::string general(double value, int digits);
/// `value` with `digits` significant digits, trailing zeros kept ("1.560" beside "0.6974" in one column);
/// a value of more integer digits than that whole ("734132", not "7.341e+05").
std::string significant(double value, int digits);

/// fixed(value, decimals) without trailing zeros, and without the point when nothing follows it.
std::string trimmedFixed(double value, int decimals);

/// A clock in Hz as MHz without a unit: up to 3 decimals, trailing zeros dropped ("1300.5", "612").
std::string mhz(double hz);

/// A time for a text table: milliseconds from 1 ms ("4.213 ms"), microseconds below ("845.2 µs"), seconds
/// from 10 s ("12.35 s").
std::string duration(double seconds);

/// 1e6, 1e3 or 1: seconds to the unit duration() writes this time in (µs, ms, s).
double durationScale(double seconds);
/// "1 sample", "32 samples": a count (of any integer type) with its noun in the number it takes.
template <typename Count> std::string countedNoun(Count count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}
/// "2.00 GiB", "310.50 MiB" or "12.00 KiB" (binary units, as boards state memory).
std::string gibText(int64_t bytes);
/// The decimals duration() writes at that scale: 2 in s, 3 in ms, 1 in µs.
int durationDecimals(double seconds);

/// The columns a UTF-8 text takes in a terminal: its code points ("µs" is two).
size_t displayWidth(const std::string& text);

/// Whether the text begins with `prefix`.
bool startsWith(const std::string& text, const std::string& prefix);

/// Whether the text ends with `suffix`.
bool endsWith(const std::string& text, const std::string& suffix);

/// The text filled with spaces to `width` columns (displayWidth), on the left when `right` (right-aligned).
std::string padded(const std::string& text, size_t width, bool right);

/// Drops a UTF-8 byte order mark from the start of a text (spreadsheets save CSV with one); true when it did.
bool dropUtf8Bom(std::string& text);

/// One CSV field (RFC 4180): quoted, with inner quotes doubled, when it holds a comma, quote or line break.
std::string csvField(const std::string& text);

/// The items of a comma-separated list as written, empty ones included ("a,,b" -> {"a", "", "b"}; "" ->
/// {""}): every list option splits here and says itself what an empty item means.
std::vector<std::string> splitCommaList(const std::string& text);

} // namespace rooftop
