// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class QMenu;

namespace rooftop::gui {

/// File → Open recent: the last models opened (kept in the settings, shared by every window).
class RecentFiles : public QObject {
    Q_OBJECT
public:
    /// Fills `menu` with the remembered files.
    explicit RecentFiles(QMenu* menu);

    /// Puts a file first in the list (at most ten) and in the menu.
    void add(const QString& path);
    /// The remembered files, most recent first.
    static QStringList paths();
    /// Fills the menu again from the settings.
    void rebuildMenu();

signals:
    /// The user chose a file from the menu.
    void openRequested(const QString& path);

private:
    QMenu* menu_;
};

} // namespace rooftop::gui
