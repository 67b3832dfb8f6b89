// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"
#include "gui/layer_profile_dialog.h"

#include <QFrame>
#include <QList>

class QComboBox;
class QLabel;
class QPushButton;

namespace rooftop::gui {

/// The card above the plots while a measured layer profile is loaded: the whole model measured against
/// predicted, the largest misses, and "Measured in [mode]" to say (or correct) the mode it was taken in.
class ComparisonCard : public QFrame {
    Q_OBJECT
public:
    explicit ComparisonCard(QWidget* parent = nullptr);

    /// Shows a comparison (nullptr: hides the card). `modes` are offered under "Measured in"; `measuredMode`
    /// (canonical name, empty: not known) is selected.
    void showComparison(const Comparison* comparison, const QList<ModeChoice>& modes,
                        const QString& measuredMode);
    /// The card's text (empty while hidden).
    QString text() const;
    QComboBox* measuredModeBox() const { return mode_; }

signals:
    /// The user said which mode the profile was measured in (canonical name; empty: not known).
    void measuredModeChosen(const QString& name);
    /// "Clear" was clicked.
    void clearRequested();

private:
    QLabel* text_ = nullptr;
    QComboBox* mode_ = nullptr;
    QPushButton* clear_ = nullptr;
};

} // namespace rooftop::gui
