// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/recent_files.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace rooftop::gui {

namespace {

constexpr int kMaxRecentFiles = 10;
const QString kRecentFilesKey = QStringLiteral("recentFiles");

} // namespace

RecentFiles::RecentFiles(QMenu* menu) : QObject(menu), menu_(menu) {
    menu_->setToolTipsVisible(true);
    rebuildMenu();
}

void RecentFiles::add(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentFilesKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue(kRecentFilesKey, recent);
    rebuildMenu();
}

QStringList RecentFiles::paths() {
    return QSettings().value(kRecentFilesKey).toStringList();
}

void RecentFiles::rebuildMenu() {
    menu_->clear();
    const QStringList recent = QSettings().value(kRecentFilesKey).toStringList();
    for (const QString& path : recent)
        menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { emit openRequested(path); })
            ->setToolTip(path);
    menu_->setEnabled(!recent.isEmpty());
}

} // namespace rooftop::gui
