// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/cell_style.h"

#include <QColor>
#include <QFont>

namespace rooftop::models {

QVariant cellStyleData(const CellStyle& style, int role) {
    switch (role) {
    case Qt::TextAlignmentRole:
        return int((style.label ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    case Qt::FontRole: {
        if (!style.italic && !style.bold) return {};
        QFont font;
        font.setItalic(style.italic);
        font.setBold(style.bold);
        return font;
    }
    case Qt::ForegroundRole:
        return style.greyed ? QVariant(QColor(Qt::gray)) : QVariant();
    default:
        return {};
    }
}

} // namespace rooftop::models
