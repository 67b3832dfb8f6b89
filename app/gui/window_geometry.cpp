// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window_geometry.h"

#include <algorithm>

namespace rooftop::gui {

bool isSmallScreen(const QRect& available) {
    return available.width() <= kSmallScreenWidth || available.height() <= kSmallScreenHeight;
}

QRect initialWindowGeometry(const QRect& available) {
    if (isSmallScreen(available)) return available;
    const QSize size(std::min(available.width() * 9 / 10, 1680), std::min(available.height() * 9 / 10, 1050));
    QRect geometry(QPoint(0, 0), size);
    geometry.moveCenter(available.center());
    return geometry;
}

QRect fitInside(const QRect& geometry, const QRect& available) {
    QRect fitted(geometry.topLeft(), geometry.size().boundedTo(available.size()));
    if (fitted.right() > available.right()) fitted.moveRight(available.right());
    if (fitted.bottom() > available.bottom()) fitted.moveBottom(available.bottom());
    if (fitted.left() < available.left()) fitted.moveLeft(available.left());
    if (fitted.top() < available.top()) fitted.moveTop(available.top());
    return fitted;
}

bool toolbarsNeedTwoRows(int windowWidth) {
    return windowWidth < 2000; // the inputs take about 1250 px, the modes bar up to 750
}

} // namespace rooftop::gui
