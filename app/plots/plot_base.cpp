// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/plot_base.h"

#include <QToolTip>

#include <cmath>
#include <limits>

namespace rooftop::plots {

PlotBase::PlotBase(QWidget* parent) : QCustomPlot(parent) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setNoAntialiasingOnDrag(true); // keeps panning fluid over X forwarding
    setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    setMouseTracking(true);
    setMinimumSize(320, 240);

    plotLayout()->insertRow(0);
    titleElement_ = new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plotLayout()->addElement(0, 0, titleElement_);

    // Legend to the right of the axes, so it never hides points or roofs.
    axisRect()->insetLayout()->take(legend);
    auto* legendColumn = new QCPLayoutGrid;
    plotLayout()->addElement(1, 1, legendColumn);
    legendColumn->addElement(0, 0, legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(this)); // keeps the legend at the top, packed
    legendColumn->setRowStretchFactor(0, 0.001);
    plotLayout()->setColumnStretchFactor(1, 0.001);
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foRowsFirst);
    QFont legendFont = font();
    legendFont.setPointSizeF(std::max(7.0, legendFont.pointSizeF() - 1));
    legend->setFont(legendFont);
    legend->setIconSize(18, 10);
    applyPalette();
}

void PlotBase::setTitle(const QString& title) { titleElement_->setText(title); }

QString PlotBase::title() const { return titleElement_->text(); }

void PlotBase::requestReplot() { replot(QCustomPlot::rpQueuedReplot); }

void PlotBase::setPickPoints(std::vector<PickPoint> points) { pickPoints_ = std::move(points); }

int PlotBase::pickAt(const QPointF& pixel, double radius) const {
    int best = -1;
    double bestDistance = radius * radius;
    for (const PickPoint& point : pickPoints_) {
        const double px = xAxis->coordToPixel(point.x);
        const double py = yAxis->coordToPixel(point.y);
        if (!std::isfinite(px) || !std::isfinite(py)) continue;
        const double distance = (px - pixel.x()) * (px - pixel.x()) + (py - pixel.y()) * (py - pixel.y());
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = point.id;
        }
    }
    return best;
}

QColor PlotBase::foregroundColor() const { return palette().color(QPalette::WindowText); }

void PlotBase::applyPalette() {
    const QColor background = palette().color(QPalette::Base);
    const QColor text = foregroundColor();
    QColor gridColor = text;
    gridColor.setAlpha(40);
    QColor subGridColor = text;
    subGridColor.setAlpha(18);
    setBackground(background);
    for (QCPAxis* axis : {xAxis, yAxis, xAxis2, yAxis2}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(gridColor, 0, Qt::DotLine));
        axis->grid()->setSubGridPen(QPen(subGridColor, 0, Qt::DotLine));
        axis->grid()->setSubGridVisible(true);
    }
    legend->setBrush(background);
    legend->setBorderPen(QPen(gridColor));
    legend->setTextColor(text);
    titleElement_->setTextColor(text);
}

void PlotBase::mousePressEvent(QMouseEvent* event) {
    pressPosition_ = event->position();
    pressed_ = true;
    QCustomPlot::mousePressEvent(event);
}

void PlotBase::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) return;
    const int id = pickAt(event->position());
    if (id >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), hoverText(id), this);
    else
        QToolTip::hideText();
}

void PlotBase::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (!pressed_) return;
    pressed_ = false;
    const QPointF moved = event->position() - pressPosition_;
    if (event->button() == Qt::LeftButton && std::abs(moved.x()) + std::abs(moved.y()) < 4) {
        const int id = pickAt(event->position());
        if (id >= 0) emit pointClicked(id);
    }
}

void PlotBase::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        requestReplot();
    }
}

void PlotBase::padLegendItems() {
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) // a wrapped legend has empty cells
            item->setMargins(QMargins(6, 1, 28, 3));
}

void makeLogAxis(QCPAxis* axis) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    axis->setTicker(ticker);
    axis->setNumberFormat("eb");
    axis->setNumberPrecision(0);
}

} // namespace rooftop::plots
