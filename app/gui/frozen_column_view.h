// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTableView>

namespace rooftop::gui {

/// A table view whose first visual column stays in place when the other columns scroll horizontally: a
/// second view over the same model and selection shows only that column on top of the first (Qt's "frozen
/// column" pattern).
class FrozenColumnView : public QTableView {
    Q_OBJECT
public:
    explicit FrozenColumnView(QWidget* parent = nullptr);

    /// Shows this model in both views; `frozenColumn` is the logical column kept in place.
    void setModelAndFrozenColumn(QAbstractItemModel* model, int frozenColumn);
    /// The view that draws the frozen column (for tests).
    QTableView* frozenView() const { return frozen_; }
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;

private:
    void showOnlyFrozenColumn();
    void updateFrozenGeometry();

    QTableView* frozen_ = nullptr;
    int frozenColumn_ = 0;
};

} // namespace rooftop::gui
