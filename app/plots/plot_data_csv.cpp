// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/plot_data_csv.h"

#include <qcustomplot.h>

namespace rooftop::plots {

namespace {

QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString number(double value) {
    return QString::number(value, 'g', 10);
}

} // namespace

QString plotDataCsv(QCustomPlot& plot) {
    QString csv = QStringLiteral("series,x,y\n");
    for (int i = 0; i < plot.plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot.plottable(i);
        const QString name = csvField(plottable->name().isEmpty() ? QStringLiteral("series %1").arg(i + 1)
                                                                  : plottable->name().replace('\n', ' '));
        if (const auto* graph = qobject_cast<const QCPGraph*>(plottable)) {
            for (const QCPGraphData& point : *graph->data())
                csv += name + QLatin1Char(',') + number(point.key) + QLatin1Char(',') + number(point.value) +
                       QLatin1Char('\n');
        } else if (const auto* curve = qobject_cast<const QCPCurve*>(plottable)) {
            for (const QCPCurveData& point : *curve->data())
                csv += name + QLatin1Char(',') + number(point.key) + QLatin1Char(',') + number(point.value) +
                       QLatin1Char('\n');
        } else if (const auto* bars = qobject_cast<const QCPBars*>(plottable)) {
            for (const QCPBarsData& point : *bars->data())
                csv += name + QLatin1Char(',') + number(point.key) + QLatin1Char(',') + number(point.value) +
                       QLatin1Char('\n');
        }
    }
    return csv;
}

} // namespace rooftop::plots
