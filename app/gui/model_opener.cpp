// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/model_opener.h"

#include "gui/recent_files.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QUrl>
#include <algorithm>

namespace rooftop::gui {

ModelOpener::ModelOpener(QMenu* file, QWidget* window) : QObject(window), window_(window) {
    file->addAction(tr("&Open model…"), QKeySequence::Open, this, &ModelOpener::choose);
    recentFiles_ = new RecentFiles(file->addMenu(tr("Open &recent")));
    connect(recentFiles_, &RecentFiles::openRequested, this, &ModelOpener::openRequested);
}

void ModelOpener::choose() {
    const QString start = current_.isEmpty() ? QString() : QFileInfo(current_).absolutePath();
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open ONNX model"), start,
                                                      tr("ONNX models (*.onnx);;All files (*)"));
    if (!path.isEmpty()) emit openRequested(path);
}

void ModelOpener::remember(const QString& path) {
    current_ = path;
    recentFiles_->add(path);
}

bool ModelOpener::acceptsDrag(const QMimeData* data) {
    const QList<QUrl> urls = data->urls();
    return !urls.isEmpty() &&
           std::all_of(urls.begin(), urls.end(), [](const QUrl& url) { return url.isLocalFile(); });
}

QStringList ModelOpener::droppedFiles(const QMimeData* data) {
    QStringList files;
    for (const QUrl& url : data->urls())
        if (url.isLocalFile()) files << url.toLocalFile();
    return files;
}

} // namespace rooftop::gui
