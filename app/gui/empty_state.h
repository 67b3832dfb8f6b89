// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QVBoxLayout;

namespace rooftop::gui {

/// What the window shows before a model is open: what to do (open a model, drop a file), the recent files
/// and the sample networks, each one click away.
class EmptyState : public QWidget {
    Q_OBJECT
public:
    explicit EmptyState(QWidget* parent = nullptr);

    /// Lists the recent files and the sample networks again.
    void refresh();
    /// The sample networks offered (file paths).
    QStringList samples() const { return samples_; }

signals:
    /// The user asked for the open-file dialog.
    void openRequested();
    /// The user chose a recent file or a sample network.
    void openPath(const QString& path);

private:
    QWidget* linkList(const QString& heading, const QStringList& paths);

    QVBoxLayout* lists_ = nullptr;
    QStringList samples_;
};

} // namespace rooftop::gui
