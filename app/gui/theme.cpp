// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/theme.h"

#include "gui/contrast_style.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>

namespace rooftop::gui {

void applyTheme(Theme theme) {
    QApplication::setStyle(new ContrastStyle); // Fusion; the application takes it
    if (theme == Theme::Light) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette dark;
    const QColor window(0x2B, 0x2D, 0x30), base(0x1E, 0x1F, 0x22), text(0xE6, 0xE6, 0xE6),
        accent(0x3D, 0x8E, 0xD8);
    dark.setColor(QPalette::Window, window);
    dark.setColor(QPalette::WindowText, text);
    dark.setColor(QPalette::Base, base);
    dark.setColor(QPalette::AlternateBase, window);
    dark.setColor(QPalette::ToolTipBase, window);
    dark.setColor(QPalette::ToolTipText, text);
    dark.setColor(QPalette::Text, text);
    dark.setColor(QPalette::Button, window);
    dark.setColor(QPalette::ButtonText, text);
    dark.setColor(QPalette::BrightText, Qt::red);
    dark.setColor(QPalette::Link, accent.lighter(130));
    dark.setColor(QPalette::Highlight, accent);
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::PlaceholderText, text.darker(160));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        dark.setColor(QPalette::Disabled, role, text.darker(180));
    // a disabled slider's groove and handle: grey, not the accent of an active one
    dark.setColor(QPalette::Disabled, QPalette::Highlight, window.lighter(170));
    dark.setColor(QPalette::Disabled, QPalette::Button, window);
    QApplication::setPalette(dark);
}

QString secondaryTextCss(const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText), window = palette.color(QPalette::Window);
    const auto mix = [](int a, int b) { return (7 * a + 3 * b) / 10; };
    return QColor(mix(text.red(), window.red()), mix(text.green(), window.green()),
                  mix(text.blue(), window.blue()))
        .name();
}

} // namespace rooftop::gui
