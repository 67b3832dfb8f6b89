// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>

namespace rooftop::plots {

/// A stable colour per op type (the same op type always gets the same colour, on screen and in exports).
QColor colorForOpType(const QString& opType);

/// A distinct colour for the n-th overlaid power mode.
QColor colorForMode(int index);

} // namespace rooftop::plots
