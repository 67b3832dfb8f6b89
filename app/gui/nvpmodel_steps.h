// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/nvpmodel_guide.h"

#include <QStringList>
#include <QWidget>

class QPushButton;
class QVBoxLayout;

namespace rooftop::gui {

/// The advisor's nvpmodel guide as numbered steps (back up, add the mode, switch, undo), each command in a
/// wrapping monospace line with its comment under it and a Copy button; "Save mode block as…" for a custom
/// mode's POWER_MODEL block and "Copy all as a script".
class NvpmodelSteps : public QWidget {
    Q_OBJECT
public:
    explicit NvpmodelSteps(QWidget* parent = nullptr);

    /// Shows the guide's steps (an empty guide: none).
    void showGuide(const NvpmodelGuide& guide);
    /// The commands, in order, each as one copies it.
    QStringList commands() const { return commands_; }
    /// The step headings ("1. Back up").
    QStringList stepTitles() const { return titles_; }
    /// guideScript of the guide shown.
    QString script() const;
    /// Writes the mode block to `path`; false with *why when it cannot.
    bool saveBlock(const QString& path, QString* why) const;

private:
    void saveBlockAs();

    NvpmodelGuide guide_;
    QVBoxLayout* steps_ = nullptr;
    QPushButton* saveBlock_ = nullptr;
    QPushButton* copyScript_ = nullptr;
    QStringList commands_;
    QStringList titles_;
};

} // namespace rooftop::gui
