// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/unbroken_words.h"

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

} // namespace rooftop::gui
