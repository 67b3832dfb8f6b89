// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/unbroken_words.h"

#include <QRegularExpression>

namespace rooftop::gui {

QString unbrokenAtHyphens(const QString& text) {
    constexpr char16_t kWordJoiner = 0x2060;
    QString out;
    out.reserve(text.size() + 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        out += text[i];
        const bool insideWord =
            i > 0 && i + 1 < text.size() && text[i - 1].isLetterOrNumber() && text[i + 1].isLetterOrNumber();
        if (text[i] == QLatin1Char('-') && insideWord) out += QChar(kWordJoiner);
    }
    return out;
}

QString unbrokenUnits(const QString& html) {
    static const QRegularExpression numberThenUnit(
        QStringLiteral("(\\d) (%|ms|µs|ns|s|mJ|J|W|GiB|MiB|MHz|GHz|kHz|TFLOP/s|GFLOP/s|FLOP/B)(?![\\w/])"));
    QString out = html;
    out.replace(numberThenUnit, QStringLiteral("\\1&nbsp;\\2"));
    return out;
}

} // namespace rooftop::gui
