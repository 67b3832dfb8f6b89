// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/frozen_column_view.h"

#include "gui/eliding_header_view.h"

#include <QHeaderView>
#include <QScrollBar>

namespace rooftop::gui {

FrozenColumnView::FrozenColumnView(QWidget* parent) : QTableView(parent) {
    setHorizontalHeader(new ElidingHeaderView(Qt::Horizontal, this)); // long titles end in "…"
    frozen_ = new QTableView(this);
    frozen_->setObjectName(QStringLiteral("FrozenColumn"));
    frozen_->setFocusPolicy(Qt::NoFocus);
    frozen_->verticalHeader()->hide();
    frozen_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    frozen_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollMode(ScrollPerPixel);
    frozen_->setFrameShape(QFrame::NoFrame);
    frozen_->setWordWrap(false);
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);
    viewport()->stackUnder(frozen_);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int logical, int, int size) {
        if (logical != frozenColumn_) return;
        frozen_->setColumnWidth(logical, size);
        updateFrozenGeometry();
    });
    // the frozen header covers the main one's name section: a drag there resizes the column in both
    connect(frozen_->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) {
                if (logical == frozenColumn_ && columnWidth(logical) != size) setColumnWidth(logical, size);
            });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) { frozen_->setRowHeight(logical, size); });
    connect(frozen_->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, frozen_->verticalScrollBar(),
            &QAbstractSlider::setValue);
    // a click on the frozen header sorts the table as the main header would
    connect(frozen_->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int logical) {
        if (!isSortingEnabled()) return;
        const bool same = horizontalHeader()->sortIndicatorSection() == logical;
        const Qt::SortOrder order = same && horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder
                                        ? Qt::DescendingOrder
                                        : Qt::AscendingOrder;
        sortByColumn(logical, order);
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this](int logical, Qt::SortOrder order) {
                frozen_->horizontalHeader()->setSortIndicatorShown(logical == frozenColumn_);
                frozen_->horizontalHeader()->setSortIndicator(logical, order);
            });
}

void FrozenColumnView::setModelAndFrozenColumn(QAbstractItemModel* model, int frozenColumn) {
    frozenColumn_ = frozenColumn;
    setModel(model);
    frozen_->setModel(model);
    frozen_->setSelectionModel(selectionModel());
    frozen_->setSelectionBehavior(selectionBehavior());
    frozen_->setTextElideMode(textElideMode());
    connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnView::showOnlyFrozenColumn);
    connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenColumnView::showOnlyFrozenColumn);
    showOnlyFrozenColumn();
}

void FrozenColumnView::showOnlyFrozenColumn() {
    if (!model()) return;
    frozen_->setSelectionBehavior(selectionBehavior());
    frozen_->setTextElideMode(textElideMode());
    frozen_->setAlternatingRowColors(alternatingRowColors());
    frozen_->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    for (int column = 0; column < model()->columnCount(); ++column)
        frozen_->setColumnHidden(column, column != frozenColumn_);
    frozen_->setColumnWidth(frozenColumn_, columnWidth(frozenColumn_));
    updateFrozenGeometry();
}

void FrozenColumnView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    updateFrozenGeometry();
}

QModelIndex FrozenColumnView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) {
    QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    // keep the cell the cursor moved to from hiding under the frozen column
    if (cursorAction == MoveLeft && current.isValid() && current.column() != frozenColumn_ &&
        visualRect(current).topLeft().x() < frozen_->columnWidth(frozenColumn_)) {
        const int newValue = horizontalScrollBar()->value() + visualRect(current).topLeft().x() -
                             frozen_->columnWidth(frozenColumn_);
        horizontalScrollBar()->setValue(newValue);
    }
    return current;
}

void FrozenColumnView::scrollTo(const QModelIndex& index, ScrollHint hint) {
    if (!index.isValid()) return;
    if (index.column() == frozenColumn_) {
        // only the rows move: scroll vertically to the row, keep the horizontal position
        const int keep = horizontalScrollBar()->value();
        QTableView::scrollTo(index, hint);
        horizontalScrollBar()->setValue(keep);
        return;
    }
    QTableView::scrollTo(index, hint);
}

void FrozenColumnView::updateFrozenGeometry() {
    const int x = verticalHeader()->isVisible() ? verticalHeader()->width() + frameWidth() : frameWidth();
    frozen_->setGeometry(x, frameWidth(), columnWidth(frozenColumn_),
                         viewport()->height() + horizontalHeader()->height());
    frozen_->setVisible(model() != nullptr && !isColumnHidden(frozenColumn_));
}

} // namespace rooftop::gui
