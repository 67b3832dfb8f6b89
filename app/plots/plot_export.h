// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCustomPlot;

namespace rooftop::plots {

/// Writes a plot to PNG, PDF or SVG (chosen by the file suffix) at width x height logical pixels, through the
/// same paint path as the screen; PNG at `scale` device pixels per logical pixel. Returns an empty string on
/// success, else a one-line reason.
QString exportPlot(QCustomPlot& plot, const QString& path, int width, int height, double scale = 2.0);

/// The file-dialog filter for plot exports.
QString plotExportFilter();

} // namespace rooftop::plots
