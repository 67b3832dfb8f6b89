// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/llm_efficiency_plot.h"

#include "core/device/power_mode.h"
#include "core/device/provenance.h"

namespace rooftop::plots {

namespace {

QString optionName(const LlmOption& option) {
    return QObject::tr("%1 at batch %2")
        .arg(QString::fromStdString(readableModeName(option.answer->profile.mode)))
        .arg(option.batch);
}

} // namespace

LlmEfficiencyPlot::LlmEfficiencyPlot(QWidget* parent) : PlotBase(parent) {
    xAxis->setLabel(tr("decode tokens per second (all sequences)"));
    yAxis->setLabel(tr("tokens per joule"));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    legend->setVisible(true);
    setMinimumSize(320, 200);
}

void LlmEfficiencyPlot::setAdvice(const LlmAdvice& advice) {
    clearPlottables(); // graphs and the error bars
    clearItems();
    intervalBars_.clear();
    intervalX_ = intervalY_ = QCPRange();
    advice_ = &advice;
    const LlmRecommendation& r = advice.recommendation;
    const auto scatter = [this](const QString& name, const QCPScatterStyle& style) {
        QCPGraph* graph = addGraph();
        graph->setName(name);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(style);
        return graph;
    };
    const QColor blue(31, 119, 180);
    QCPGraph* meets =
        scatter(tr("meets the limits"), QCPScatterStyle(QCPScatterStyle::ssDisc, blue, blue, 6));
    QCPGraph* breaks =
        scatter(tr("breaks a limit"), QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(150, 150, 150), 6));
    std::vector<PickPoint> picks;
    points_ = 0;
    for (size_t i = 0; i < r.options.size(); ++i) {
        const LlmOption& o = r.options[i];
        const double x = o.answer->decodeTokensPerSecond, y = o.answer->tokensPerJoule;
        (o.breaks.empty() ? meets : breaks)->addData(x, y);
        picks.push_back({x, y, int(i), 1});
        ++points_;
    }
    QCPGraph* front = addGraph();
    front->setName(tr("Pareto front"));
    front->setPen(QPen(foregroundColor(), 1.2, Qt::DashLine));
    QVector<double> fx, fy;
    for (size_t index : r.front) {
        fx << r.options[index].answer->decodeTokensPerSecond;
        fy << r.options[index].answer->tokensPerJoule;
    }
    front->setData(fx, fy, true);
    front_ = int(r.front.size());
    pick_.reset();
    const auto mark = [&](size_t index, const QString& tag, const QCPScatterStyle& style, int priority) {
        const LlmOption& o = r.options[index];
        const QPointF at(o.answer->decodeTokensPerSecond, o.answer->tokensPerJoule);
        scatter(tag, style)->addData(at.x(), at.y());
        auto* label = new QCPItemText(this);
        label->setText(tag + ": " + optionName(o));
        label->setColor(foregroundColor());
        placeLabel(label, priority,
                   {{at, Qt::AlignLeft | Qt::AlignBottom, QMargins(8, 0, 0, 6)},
                    {at, Qt::AlignRight | Qt::AlignTop, QMargins(0, 6, 8, 0)},
                    {at, Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, 8, 6)}});
        return at;
    };
    if (r.baseline)
        mark(*r.baseline,
             tr("baseline: least TPOT of the stock modes at batch %1").arg(r.options[*r.baseline].batch),
             QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(214, 39, 40), 2), Qt::NoBrush, 14), 1);
    if (r.pick) {
        const QColor orange(230, 150, 0);
        pick_ = mark(*r.pick, tr("the pick"),
                     QCPScatterStyle(QCPScatterStyle::ssStar, QPen(orange, 2), QColor(255, 200, 0), 16), 2);
        // the pick's own error, both ways: its tokens/J and tokens/s at the limits' confidence
        const LlmOptionBounds bounds = llmOptionBounds(advice, *r.pick);
        QCPGraph* star = graph(graphCount() - 1);
        for (const bool tokensPerJoule : {true, false}) {
            auto* bars = new QCPErrorBars(xAxis, yAxis);
            bars->setDataPlottable(star);
            bars->setErrorType(tokensPerJoule ? QCPErrorBars::etValueError : QCPErrorBars::etKeyError);
            const Interval& i = tokensPerJoule ? bounds.tokensPerJoule : bounds.tokensPerSecond;
            const double at = tokensPerJoule ? pick_->y() : pick_->x();
            bars->setData(QVector<double>{at - i.low}, QVector<double>{i.high - at});
            bars->setPen(QPen(orange, 1.4));
            bars->setWhiskerWidth(10);
            bars->setName(
                tr("the pick's %1 % interval").arg(advice.recommendation.limits.confidence * 100, 0, 'g', 3));
            if (!tokensPerJoule) bars->removeFromLegend();
            (tokensPerJoule ? intervalY_ : intervalX_) = QCPRange(i.low, i.high);
            intervalBars_ << bars;
        }
    }
    setPickPoints(std::move(picks));
    const QString provenance = r.options.empty()
                                   ? QString()
                                   : QString::fromUtf8(provenanceName(r.options.front().answer->provenance));
    setTitle(tr("Tokens/J against tokens/s, %1 configurations (%2)").arg(points_).arg(provenance));
    padLegendItems();
    resetView();
}

void LlmEfficiencyPlot::resetView() {
    // the axes keep to the configurations; the pick's interval reaches at most half their span beyond them
    // (an estimate's interval would otherwise squeeze every point into a corner) and says when it goes on
    QCPRange keys, values;
    bool any = false;
    for (int g = 0; g < graphCount(); ++g) {
        bool found = false;
        const QCPRange k = graph(g)->getKeyRange(found);
        if (!found) continue;
        const QCPRange v = graph(g)->getValueRange(found);
        keys = any ? QCPRange(std::min(keys.lower, k.lower), std::max(keys.upper, k.upper)) : k;
        values = any ? QCPRange(std::min(values.lower, v.lower), std::max(values.upper, v.upper)) : v;
        any = true;
    }
    if (!any) {
        rescaleAxes();
        requestReplot();
        return;
    }
    intervalCut_ = false;
    const auto fit = [this](QCPAxis* axis, QCPRange range, const QCPRange& interval) {
        const double reach = std::max(range.size(), range.upper * 0.1) / 2;
        if (interval.size() > 0) {
            const QCPRange shown(std::max(interval.lower, range.lower - reach),
                                 std::min(interval.upper, range.upper + reach));
            intervalCut_ |= shown.lower > interval.lower || shown.upper < interval.upper;
            range.expand(shown);
        }
        const double pad = std::max(range.size() * 0.08, range.upper * 0.02);
        axis->setRange(std::max(0.0, range.lower - pad), range.upper + pad);
    };
    fit(xAxis, keys, intervalX_);
    fit(yAxis, values, intervalY_);
    if (!intervalBars_.isEmpty() && intervalBars_.front()) {
        const QString name =
            tr("the pick's %1 % interval").arg(advice_->recommendation.limits.confidence * 100, 0, 'g', 3);
        intervalBars_.front()->setName(intervalCut_ ? tr("%1 (goes on past the edge)").arg(name) : name);
    }
    requestReplot();
}

QString LlmEfficiencyPlot::hoverText(int id) const {
    if (!advice_ || id < 0 || size_t(id) >= advice_->recommendation.options.size()) return {};
    const LlmOption& o = advice_->recommendation.options[size_t(id)];
    const LlmModeAnswer& a = *o.answer;
    QString text =
        tr("%1: %2 tokens/s, %3 tokens/J; TPOT %4 ms (at most %5 ms at %6 %), TTFT %7 ms, decode %8 "
           "W; predicted (%9)")
            .arg(optionName(o))
            .arg(a.decodeTokensPerSecond, 0, 'g', 4)
            .arg(a.tokensPerJoule, 0, 'g', 3)
            .arg(a.tpotSeconds * 1e3, 0, 'g', 4)
            .arg(o.tpotHigh * 1e3, 0, 'g', 4)
            .arg(advice_->recommendation.limits.confidence * 100, 0, 'g', 3)
            .arg(a.ttftSeconds * 1e3, 0, 'g', 4)
            .arg(a.decodeWatts, 0, 'g', 3)
            .arg(QString::fromUtf8(provenanceName(a.provenance)));
    for (const std::string& limit : o.breaks)
        text += "\n" + tr("breaks: %1").arg(QString::fromStdString(limit));
    return text;
}

} // namespace rooftop::plots
