// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QStringList>

class QLabel;
class QPushButton;

namespace rooftop::gui {

/// The warning above the plots while a symbolic input dim was bound by assumption (to 1): the counts are of
/// another workload than the user may think, and "Set dims…" says how to fix it.
class AssumedDimsBanner : public QFrame {
    Q_OBJECT
public:
    explicit AssumedDimsBanner(QWidget* parent = nullptr);

    /// Shows the banner for these assumed dims ("sequence=1"); hides it when there are none.
    void setAssumedDims(const QStringList& dims);
    /// The warning shown (empty while hidden).
    QString text() const;

signals:
    /// "Set dims…" was clicked.
    void editRequested();

private:
    QLabel* text_ = nullptr;
    QPushButton* edit_ = nullptr;
};

} // namespace rooftop::gui
