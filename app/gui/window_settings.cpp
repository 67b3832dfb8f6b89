// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window_settings.h"

#include "gui/window_geometry.h"

#include <QMainWindow>
#include <QScreen>
#include <QSettings>

namespace rooftop::gui {

namespace {

/// Sizes a window without saved geometry to its screen, and one restored from a larger screen into it.
void fitToScreen(QMainWindow& window, bool restored) {
    const QScreen* where = window.screen();
    if (!where) return;
    const QRect available = where->availableGeometry();
    if (restored) {
        const QRect fitted = fitInside(window.geometry(), available);
        if (fitted != window.geometry()) window.setGeometry(fitted);
        return;
    }
    window.setGeometry(initialWindowGeometry(available));
    if (isSmallScreen(available)) window.setWindowState(window.windowState() | Qt::WindowMaximized);
}

} // namespace

WindowSettings restoreWindowSettings(QMainWindow& window) {
    QSettings settings;
    window.restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    window.restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    WindowSettings restored;
    restored.view = settings.value(QStringLiteral("window/view"), 0).toInt();
    restored.dark = settings.value(QStringLiteral("theme")).toString() == QLatin1String("dark");
    fitToScreen(window, settings.contains(QStringLiteral("window/geometry")));
    return restored;
}

void saveWindowSettings(const QMainWindow& window, const WindowSettings& saved) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window.saveState());
    settings.setValue(QStringLiteral("window/view"), saved.view);
    if (!saved.board.isEmpty()) settings.setValue(QStringLiteral("lastDevice"), saved.board);
    settings.setValue(QStringLiteral("theme"), saved.dark ? QStringLiteral("dark") : QStringLiteral("light"));
}

void keepFrameInsideScreen(QMainWindow& window) {
    const QRect available = window.screen()->availableGeometry();
    const QRect frame = window.frameGeometry();
    if (available.contains(frame)) return;
    const QRect client = window.geometry();
    const QMargins margins(client.left() - frame.left(), client.top() - frame.top(),
                           frame.right() - client.right(), frame.bottom() - client.bottom());
    window.setGeometry(fitInside(frame, available).marginsRemoved(margins));
}

} // namespace rooftop::gui
