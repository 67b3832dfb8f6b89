// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCustomPlot;

namespace rooftop::plots {

/// Every graph's and curve's points of a plot as CSV, one row per point: "series,x,y" (the series named as
/// its legend names it; quoted where the name holds a comma or quote). What "Copy data as CSV" copies (the
/// plot is not changed; QCustomPlot hands out its plottables only from a non-const plot).
QString plotDataCsv(QCustomPlot& plot);

} // namespace rooftop::plots
