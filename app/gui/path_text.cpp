// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/path_text.h"

#include <QDir>

namespace rooftop::gui {

QString pathAsShown(const QString& path) {
    const QString home = QDir::homePath();
    return path.startsWith(home + QLatin1Char('/')) ? QStringLiteral("~") + path.mid(home.size()) : path;
}

QString pathAsTyped(const QString& text) {
    return text.startsWith(QLatin1String("~/")) ? QDir::homePath() + text.mid(1) : text;
}

} // namespace rooftop::gui
