// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/unit_format.h"

#include <cmath>

namespace rooftop::models {

QString formatSi(double value, const QString& unit, int significantDigits) {
    if (!std::isfinite(value)) return QStringLiteral("–");
    if (value == 0.0) return QStringLiteral("0 %1").arg(unit);
    static const struct {
        double scale;
        const char* prefix;
    } prefixes[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},
                    {1.0, ""},   {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}, {1e-12, "p"}};
    const double magnitude = std::fabs(value);
    for (const auto& p : prefixes) {
        if (magnitude >= p.scale * 0.9995 || p.scale == 1e-12) {
            const double scaled = value / p.scale;
            const int integerDigits = std::fabs(scaled) >= 100 ? 3 : std::fabs(scaled) >= 10 ? 2 : 1;
            const int decimals = std::max(0, significantDigits - integerDigits);
            return QStringLiteral("%1 %2%3")
                .arg(scaled, 0, 'f', decimals)
                .arg(QString::fromUtf8(p.prefix), unit);
        }
    }
    return QString::number(value);
}

QString formatBytes(double bytes) {
    return formatSi(bytes, QStringLiteral("B"));
}

QString formatSeconds(double seconds) {
    return formatSi(seconds, QStringLiteral("s"));
}

QString formatMegahertz(double hz) {
    return QStringLiteral("%1 MHz").arg(QString::number(hz / 1e6, 'g', 12));
}

QString formatExactCount(long long value) {
    QString digits = QString::number(value < 0 ? -value : value);
    for (int i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QChar(0x2009));
    return value < 0 ? QStringLiteral("-") + digits : digits;
}

} // namespace rooftop::models
