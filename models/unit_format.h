// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace rooftop::models {

/// A quantity with an SI prefix and its unit, e.g. formatSi(4.09e9, "FLOP") = "4.09 GFLOP"; 3 significant
/// digits.
QString formatSi(double value, const QString& unit, int significantDigits = 3);

/// Bytes with binary-free SI prefixes (kB = 1000 B), e.g. "25.5 MB".
QString formatBytes(double bytes);

/// A duration picked from s, ms, µs, ns, e.g. "5.28 ms".
QString formatSeconds(double seconds);

/// A clock in MHz without rounding to a few digits, e.g. 1300500000 Hz = "1300.5 MHz".
QString formatMegahertz(double hz);

/// An integer with thin thousands separators, e.g. "4 089 184 256" (exact counts in tooltips and exports).
QString formatExactCount(long long value);

} // namespace rooftop::models
