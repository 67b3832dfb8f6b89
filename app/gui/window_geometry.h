// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRect>

namespace rooftop::gui {

/// Screens up to this size get the whole available area (a maximized window): the plot, the table and the
/// advisor need it all.
constexpr int kSmallScreenWidth = 1440;
constexpr int kSmallScreenHeight = 900;

/// Where a new window goes on a screen whose available area (QScreen::availableGeometry) is `available`:
/// all of it on a small screen, else 90 % of it (at most 1680 x 1050), centred. Always inside `available`.
QRect initialWindowGeometry(const QRect& available);

/// Whether a screen is small enough for a maximized window.
bool isSmallScreen(const QRect& available);

/// A geometry moved and shrunk to lie inside `available` (a window restored from a larger screen).
QRect fitInside(const QRect& geometry, const QRect& available);

/// Whether the window's two toolbars need a row each in a window this wide.
bool toolbarsNeedTwoRows(int windowWidth);

} // namespace rooftop::gui
