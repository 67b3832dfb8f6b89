// SPDX-License-Identifier: GPL-3.0-or-later
// Relative-tolerance comparison for Qt Test: one rule and one failure message for every test.
#pragma once

#include <QString>
#include <QtTest>
#include <algorithm>
#include <cmath>

namespace rooftop::test {

/// Relative tolerance for exact arithmetic on exact inputs: room for a few roundings, nothing more.
inline constexpr double exactRelative = 1e-12;

/// True when |actual - expected| <= relative x |expected| (|expected| floored at 1e-300: 0 expects 0).
inline bool nearRelative(double actual, double expected, double relative) {
    return std::fabs(actual - expected) <= relative * std::max(std::fabs(expected), 1e-300);
}

/// The failure text: "expression = actual, expected E (relative error R, tolerance T)", 17 digits.
inline QString relativeMismatch(const char* expression, double actual, double expected, double relative) {
    const double error = std::fabs(actual - expected) / std::max(std::fabs(expected), 1e-300);
    return QString("%1 = %2, expected %3 (relative error %4, tolerance %5)")
        .arg(QString::fromUtf8(expression))
        .arg(actual, 0, 'g', 17)
        .arg(expected, 0, 'g', 17)
        .arg(error, 0, 'g', 3)
        .arg(relative, 0, 'g', 3);
}

} // namespace rooftop::test

/// Fails the test unless `actual` is within relative `tolerance` of `expected`; evaluates each once.
#define COMPARE_REL_TOL(actual, expected, tolerance)                                                         \
    do {                                                                                                     \
        const double rooftopActual_ = (actual);                                                              \
        const double rooftopExpected_ = (expected);                                                          \
        const double rooftopTolerance_ = (tolerance);                                                        \
        if (!::rooftop::test::nearRelative(rooftopActual_, rooftopExpected_, rooftopTolerance_))             \
            QFAIL(qPrintable(::rooftop::test::relativeMismatch(#actual, rooftopActual_, rooftopExpected_,    \
                                                               rooftopTolerance_)));                         \
    } while (false)

/// COMPARE_REL_TOL at rooftop::test::exactRelative (1e-12).
#define COMPARE_REL(actual, expected) COMPARE_REL_TOL(actual, expected, ::rooftop::test::exactRelative)
