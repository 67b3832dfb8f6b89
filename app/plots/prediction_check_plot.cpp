// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/prediction_check_plot.h"

#include "core/common/runner_name.h"

#include <algorithm>
#include <cmath>

namespace rooftop::plots {

namespace {

bool simulated(const HeldOutRun& run) {
    return isSimulatedRunner(run.runner);
}

/// Files written before runs named their runner cannot say whether a run was measured.
bool runnerUnknown(const HeldOutRun& run) {
    return run.runner.empty();
}

QCPGraph* pointsGraph(QCustomPlot* plot, const QColor& color, const QString& name) {
    QCPGraph* graph = plot->addGraph();
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 7));
    graph->setName(name);
    return graph;
}

QCPGraph* lineGraph(QCustomPlot* plot, const QPen& pen, const QString& name, double low, double high,
                    double factor) {
    QCPGraph* graph = plot->addGraph();
    graph->setPen(pen);
    graph->setName(name);
    graph->addData(low, low * factor);
    graph->addData(high, high * factor);
    return graph;
}

} // namespace

PredictionCheckPlot::PredictionCheckPlot(Quantity quantity, QWidget* parent)
    : PlotBase(parent), quantity_(quantity) {
    // The legend in one row under the axes: beside them it would take half the width of this small plot, and
    // inside them it hides points.
    if (auto* column = qobject_cast<QCPLayoutGrid*>(plotLayout()->element(1, 1))) {
        column->take(legend);
        plotLayout()->remove(column);
        plotLayout()->simplify();
        plotLayout()->addElement(2, 0, legend);
        legend->setFillOrder(QCPLegend::foColumnsFirst);
        legend->setWrap(2);
        plotLayout()->setRowStretchFactor(2, 0.001);
    }
    const QString what = quantity_ == Quantity::Latency ? tr("Latency per batch") : tr("Average power");
    // the title names the quantity: the axes say only which side is which, so the vertical label fits the
    // short axis of this small plot
    xAxis->setLabel(tr("run (%1)").arg(unit()));
    yAxis->setLabel(tr("predicted (%1)").arg(unit()));
    setTitle(tr("%1: predicted against run").arg(what));
}

QString PredictionCheckPlot::unit() const {
    return quantity_ == Quantity::Latency ? QStringLiteral("ms") : QStringLiteral("W");
}

double PredictionCheckPlot::measured(const HeldOutRun& run) const {
    return quantity_ == Quantity::Latency ? run.measuredSeconds * 1e3 : run.measuredWatts;
}

double PredictionCheckPlot::predicted(const HeldOutRun& run) const {
    return quantity_ == Quantity::Latency ? run.predictedSeconds * 1e3 : run.predictedWatts;
}

void PredictionCheckPlot::setPredictor(const Predictor& predictor, const QString& source) {
    runs_ = predictor.heldOut;
    const double mape = quantity_ == Quantity::Latency ? predictor.cv.timeMape : predictor.cv.powerMape;
    source_ = source;
    clearPlottables();
    drawn_ = 0;
    QCPGraph* measuredGraph = pointsGraph(this, QColor(0x1F, 0x77, 0xB4), tr("measured runs"));
    QCPGraph* simulatedGraph = pointsGraph(this, QColor(0x94, 0x67, 0xBD), tr("simulated runs"));
    QCPGraph* unknownGraph = pointsGraph(this, QColor(0x7F, 0x7F, 0x7F), tr("runs (runner unknown)"));
    std::vector<PickPoint> picks;
    double low = 1e300, high = 0;
    for (size_t i = 0; i < runs_.size(); ++i) {
        const double x = measured(runs_[i]), y = predicted(runs_[i]);
        if (!std::isfinite(x) || !std::isfinite(y) || x <= 0) continue;
        (runnerUnknown(runs_[i]) ? unknownGraph
         : simulated(runs_[i])   ? simulatedGraph
                                 : measuredGraph)
            ->addData(x, y);
        picks.push_back({x, y, int(i)});
        low = std::min({low, x, y});
        high = std::max({high, x, y});
        ++drawn_;
    }
    if (measuredGraph->data()->isEmpty()) measuredGraph->removeFromLegend();
    if (simulatedGraph->data()->isEmpty()) simulatedGraph->removeFromLegend();
    if (unknownGraph->data()->isEmpty()) unknownGraph->removeFromLegend();
    if (drawn_ == 0) low = 0, high = 1;
    const double pad = (high - low) * 0.06 + high * 0.01;
    fit_ = QCPRange(std::max(0.0, low - pad), high + pad);
    lineGraph(this, QPen(foregroundColor(), 1.2), tr("predicted = run"), fit_.lower, fit_.upper, 1.0);
    QPen band(QColor(0x80, 0x80, 0x80), 1.0, Qt::DashLine);
    lineGraph(this, band, tr("±10 %"), fit_.lower, fit_.upper, 1.1);
    lineGraph(this, band, {}, fit_.lower, fit_.upper, 0.9)->removeFromLegend();
    setPickPoints(std::move(picks));
    padLegendItems();
    const QString what = quantity_ == Quantity::Latency ? tr("Latency") : tr("Power");
    setTitle(drawn_ == 0 ? tr("%1: not learned (too few runs with it, or all in one mode)").arg(what)
                         : tr("%1: predicted against run\n%2 held out (%3-fold CV), MAPE %4 %")
                               .arg(what)
                               .arg(drawn_)
                               .arg(predictor.cv.folds)
                               .arg(100 * mape, 0, 'f', 1));
    resetView();
}

void PredictionCheckPlot::resetView() {
    xAxis->setRange(fit_);
    yAxis->setRange(fit_);
    requestReplot();
}

QString PredictionCheckPlot::hoverText(int id) const {
    if (id < 0 || size_t(id) >= runs_.size()) return {};
    const HeldOutRun& run = runs_[size_t(id)];
    const double x = measured(run), y = predicted(run);
    return tr("<b>%1</b> at batch %2, %3<br>%4: %5 %6<br>predicted (held out): %7 %6 (%8%9 "
              "%)<br><i>predictor "
              "%10</i>")
        .arg(QString::fromStdString(readableModeName(run.mode)))
        .arg(run.batch)
        .arg(QString::fromStdString(precisionName(run.precision)))
        .arg(runnerUnknown(run) ? tr("run (runner unknown)")
             : simulated(run)   ? tr("simulated board")
                                : tr("measured"))
        .arg(x, 0, 'f', 3)
        .arg(unit())
        .arg(y, 0, 'f', 3)
        .arg(y >= x ? QStringLiteral("+") : QString())
        .arg(100 * (y / x - 1.0), 0, 'f', 1)
        .arg(source_);
}

} // namespace rooftop::plots
