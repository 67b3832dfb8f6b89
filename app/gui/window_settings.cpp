// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window_settings.h"

#include "gui/window_geometry.h"

#include <QCryptographicHash>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <algorithm>

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

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kLayoutVersionKey = QStringLiteral("window/layoutVersion");
const QString kViewKey = QStringLiteral("window/view");
const QString kThemeKey = QStringLiteral("theme");
const QString kBoardKey = QStringLiteral("lastDevice");
const QString kDimsGroup = QStringLiteral("modelDims/");

/// A model's key: a digest of its path (a path's slashes would make QSettings groups of its folders).
QString modelKey(const QString& modelPath) {
    return kDimsGroup + QString::fromLatin1(
                            QCryptographicHash::hash(modelPath.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

WindowSettings restoreWindowSettings(QMainWindow& window) {
    QSettings settings;
    const bool geometry = window.restoreGeometry(settings.value(kGeometryKey).toByteArray());
    bool ok = false;
    const int layoutVersion = settings.value(kLayoutVersionKey).toInt(&ok);
    if (ok && layoutVersion == kWindowLayoutVersion)
        window.restoreState(settings.value(kStateKey).toByteArray(), kWindowLayoutVersion);
    WindowSettings restored;
    restored.view = std::max(0, settings.value(kViewKey, 0).toInt());
    restored.dark = settings.value(kThemeKey).toString() == QLatin1String("dark");
    fitToScreen(window, geometry);
    return restored;
}

void saveWindowSettings(const QMainWindow& window, const WindowSettings& saved) {
    QSettings settings;
    settings.setValue(kGeometryKey, window.saveGeometry());
    settings.setValue(kStateKey, window.saveState(kWindowLayoutVersion));
    settings.setValue(kLayoutVersionKey, kWindowLayoutVersion);
    settings.setValue(kViewKey, saved.view);
    if (!saved.board.isEmpty()) settings.setValue(kBoardKey, saved.board);
    settings.setValue(kThemeKey, saved.dark ? QStringLiteral("dark") : QStringLiteral("light"));
}

QString savedModelDims(const QString& modelPath) {
    return QSettings().value(modelKey(modelPath)).toString();
}

void saveModelDims(const QString& modelPath, const QString& dims) {
    QSettings settings;
    if (dims.trimmed().isEmpty())
        settings.remove(modelKey(modelPath));
    else
        settings.setValue(modelKey(modelPath), dims.trimmed());
}

QString savedBoard() {
    const QString board = QSettings().value(kBoardKey).toString();
    return board.isEmpty() ? QStringLiteral("agx-orin-64gb") : board;
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
