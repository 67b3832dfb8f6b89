// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/eliding_header_view.h"

#include <QStyle>
#include <QStyleOptionHeader>
#include <algorithm>

namespace rooftop::gui {

ElidingHeaderView::ElidingHeaderView(Qt::Orientation orientation, QWidget* parent)
    : QHeaderView(orientation, parent) {
    setSectionsClickable(true);
    setHighlightSections(true);
}

QString ElidingHeaderView::shownTitle(int logicalIndex) const {
    QStyleOptionHeader option;
    initStyleOptionForIndex(&option, logicalIndex);
    return option.text;
}

void ElidingHeaderView::initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const {
    QHeaderView::initStyleOptionForIndex(option, logicalIndex);
    // the room left by the margins and, on the sorted section, the sort mark
    int room = sectionSize(logicalIndex) - 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
    if (isSortIndicatorShown() && sortIndicatorSection() == logicalIndex)
        room -= style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, this) +
                style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
    option->text = option->fontMetrics.elidedText(option->text, Qt::ElideRight, std::max(room, 0));
}

} // namespace rooftop::gui
