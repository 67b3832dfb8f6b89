// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/op_time_chart.h"

#include "models/unit_format.h"

#include <algorithm>

namespace rooftop::plots {

namespace {
constexpr int kPicksPerBar = 24; // hover anywhere along a bar, not only at its end
}

OpTimeChart::OpTimeChart(QWidget* parent) : PlotBase(parent) {
    xAxis->setLabel(tr("Predicted time (ms)"));
    legend->setVisible(false);
    yAxis->grid()->setVisible(false);
    setTitle(tr("Time by op type"));
}

void OpTimeChart::setTimes(std::vector<OpTypeTime> times, const QString& subtitle, int maxBars) {
    QStringList opTypes = opTypes_;
    if (opTypes.isEmpty())
        for (const OpTypeTime& time : times)
            opTypes << QString::fromStdString(time.op);
    palette_ = OpPalette(opTypes);
    if (int(times.size()) > maxBars) {
        OpTypeTime other;
        other.op = tr("other (%1 op types)").arg(int(times.size()) - maxBars + 1).toStdString();
        for (size_t i = size_t(maxBars - 1); i < times.size(); ++i) {
            other.seconds += times[i].seconds;
            other.shareOfTime += times[i].shareOfTime;
            other.layers += times[i].layers;
        }
        times.resize(size_t(maxBars - 1));
        times.push_back(other);
    }
    bars_ = std::move(times);
    subtitle_ = subtitle;
    rebuild();
    resetView();
}

void OpTimeChart::paletteChanged() {
    rebuild();
}

void OpTimeChart::rebuild() {
    clearPlottables();
    clearItems();
    barColors_.clear();
    const int count = int(bars_.size());
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    std::vector<PickPoint> picks;
    QFont labelFont = font();
    labelFont.setPointSizeF(std::max(7.0, labelFont.pointSizeF() - 1));
    double longest = 0;
    for (const OpTypeTime& bar : bars_)
        longest = std::max(longest, bar.seconds);
    for (int i = 0; i < count; ++i) {
        const OpTypeTime& bar = bars_[size_t(i)];
        const double key = count - i; // the longest at the top
        const QString op = QString::fromStdString(bar.op);
        const bool other = i == count - 1 && bar.op.rfind("other (", 0) == 0;
        const QColor color =
            readableOnBackground(other ? QColor(0x9E, 0x9E, 0x9E) : palette_.style(op).color);
        barColors_.push_back(color);
        auto* bars = new QCPBars(yAxis, xAxis);
        bars->setWidth(0.7);
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(color);
        bars->addData(key, bar.seconds * 1e3);
        ticker->addTick(key, op);
        auto* label = new QCPItemText(this);
        label->setClipToAxisRect(true);
        // the longest bars carry their label inside, so it never runs off the right edge; the placement pass
        // leaves out one that would (the bar's hover text has its numbers)
        const bool inside = bar.seconds >= 0.55 * longest;
        placeLabel(
            label, 100 - std::min(i, 99),
            {{QPointF(bar.seconds * 1e3, key), (inside ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter,
              inside ? QMargins(0, 0, 5, 0) : QMargins(5, 0, 0, 0)}});
        label->setFont(labelFont);
        label->setColor(inside ? (color.lightness() > 140 ? QColor(Qt::black) : QColor(Qt::white))
                               : foregroundColor());
        label->setText(QStringLiteral("%1  %2 %  (%3)")
                           .arg(models::formatSeconds(bar.seconds))
                           .arg(bar.shareOfTime * 100, 0, 'f', 1)
                           .arg(bar.layers == 1 ? tr("1 layer") : tr("%1 layers").arg(bar.layers)));
        for (int p = 0; p <= kPicksPerBar; ++p)
            picks.push_back({bar.seconds * 1e3 * p / kPicksPerBar, key, i, 1});
    }
    yAxis->setTicker(ticker);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 2);
    setPickPoints(std::move(picks));
    setTitle(tr("Time by op type") + (subtitle_.isEmpty() ? QString() : QStringLiteral(" — ") + subtitle_));
    requestReplot();
}

void OpTimeChart::resetView() {
    double longest = 0;
    for (const OpTypeTime& bar : bars_)
        longest = std::max(longest, bar.seconds * 1e3);
    xAxis->setRange(0, longest > 0 ? longest * 1.45 : 1.0); // room for the labels right of the bars
    yAxis->setRange(0.3, double(bars_.size()) + 0.7);
    requestReplot();
}

QString OpTimeChart::hoverText(int id) const {
    if (id < 0 || size_t(id) >= bars_.size()) return {};
    const OpTypeTime& bar = bars_[size_t(id)];
    return tr("<b>%1</b><br>%2 in %n layer(s), %3 % of all layers' time<br><i>the roofline's, an "
              "estimate</i>",
              "", bar.layers)
        .arg(QString::fromStdString(bar.op).toHtmlEscaped(), models::formatSeconds(bar.seconds))
        .arg(bar.shareOfTime * 100, 0, 'f', 1);
}

} // namespace rooftop::plots
