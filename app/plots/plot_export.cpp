// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/plot_export.h"

#include <QFileInfo>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace rooftop::plots {

QString plotExportFilter() {
    return QObject::tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)");
}

QString exportPlot(QCustomPlot& plot, const QString& path, int width, int height, double scale) {
    if (width < 16 || height < 16 || width > 20000 || height > 20000)
        return QObject::tr("export size %1 x %2 is out of range (16 to 20000 pixels)").arg(width).arg(height);
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool written = false;
    if (suffix == QLatin1String("png")) {
        written = plot.savePng(path, width, height, scale);
    } else if (suffix == QLatin1String("pdf")) {
        written = plot.savePdf(path, width, height, QCP::epNoCosmetic, QStringLiteral("Rooftop"),
                               plot.objectName());
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(QSize(width, height));
        generator.setViewBox(QRect(0, 0, width, height));
        generator.setTitle(QStringLiteral("Rooftop"));
        QCPPainter painter;
        if (painter.begin(&generator)) {
            plot.toPainter(&painter, width, height);
            written = painter.end();
        }
        written = written && QFileInfo(path).size() > 0;
    } else {
        return QObject::tr("unknown export format '%1' (use .png, .pdf or .svg)").arg(suffix);
    }
    return written ? QString() : QObject::tr("could not write %1").arg(path);
}

} // namespace rooftop::plots
