// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/tune_plot.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace rooftop::gui {

TuneConvergencePlot::TuneConvergencePlot(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(160);
}

void TuneConvergencePlot::addRun(double bestEnergyMj) {
    values_.push_back(bestEnergyMj);
    update();
}

void TuneConvergencePlot::clear() {
    values_.clear();
    update();
}

void TuneConvergencePlot::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area = QRectF(rect()).adjusted(60, 24, -12, -30);
    p.setPen(palette().color(QPalette::Text));
    p.drawRect(area);
    p.drawText(QRectF(area.left(), 2, area.width(), 18), Qt::AlignCenter,
               tr("best energy per %1 within the limits, mJ (%2; a repeat's mean may raise it)")
                   .arg(item_, provenance_));
    p.drawText(QRectF(area.left(), area.bottom() + 4, area.width(), 22), Qt::AlignCenter, tr("runs"));
    if (!values_.empty()) {
        p.drawText(QRectF(area.left() - 20, area.bottom() + 4, 40, 22), Qt::AlignCenter, QStringLiteral("1"));
        p.drawText(QRectF(area.right() - 20, area.bottom() + 4, 40, 22), Qt::AlignCenter,
                   QString::number(std::max<size_t>(2, values_.size())));
    }
    double low = INFINITY, high = -INFINITY;
    for (double v : values_)
        if (std::isfinite(v)) {
            low = std::min(low, v);
            high = std::max(high, v);
        }
    if (!std::isfinite(low)) {
        p.drawText(area, Qt::AlignCenter, tr("no %1 run within the limits yet").arg(provenance_));
        return;
    }
    if (high - low < 1e-9 * std::max(1.0, high)) {
        low *= 0.95;
        high *= 1.05;
    }
    const double n = std::max<double>(2.0, double(values_.size()));
    auto at = [&](size_t i, double v) {
        return QPointF(area.left() + area.width() * double(i) / (n - 1.0),
                       area.bottom() - area.height() * (v - low) / (high - low));
    };
    p.drawText(QRectF(0, area.top() - 6, 56, 14), Qt::AlignRight, QString::number(high, 'g', 4));
    p.drawText(QRectF(0, area.bottom() - 8, 56, 14), Qt::AlignRight, QString::number(low, 'g', 4));
    QPainterPath line;
    bool started = false;
    for (size_t i = 0; i < values_.size(); ++i) {
        if (!std::isfinite(values_[i])) continue;
        const QPointF point = at(i, values_[i]);
        if (!started)
            line.moveTo(point);
        else
            line.lineTo(point);
        started = true;
    }
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.drawPath(line);
    for (size_t i = 0; i < values_.size(); ++i)
        if (std::isfinite(values_[i])) p.drawEllipse(at(i, values_[i]), 2.5, 2.5);
}

} // namespace rooftop::gui
