// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;
class QMimeData;
class QWidget;

namespace rooftop::gui {

class RecentFiles;

/// How a model gets into the window: File → Open model…, File → Open recent and files dropped on it.
class ModelOpener : public QObject {
    Q_OBJECT
public:
    /// Adds "Open model…" and "Open recent" to the File menu; dialogs open over `window`.
    ModelOpener(QMenu* file, QWidget* window);

    /// Asks for an ONNX model, starting beside the one opened last; emits openRequested.
    void choose();
    /// Puts an opened model first in the recent files.
    void remember(const QString& path);
    /// Whether a drag carries local files only (what a drop opens).
    static bool acceptsDrag(const QMimeData* data);
    /// The local files of a drop, in order.
    static QStringList droppedFiles(const QMimeData* data);

signals:
    /// The user chose a model to open in this window.
    void openRequested(const QString& path);

private:
    QWidget* window_;
    QString current_; ///< the model opened last
    RecentFiles* recentFiles_ = nullptr;
};

} // namespace rooftop::gui
