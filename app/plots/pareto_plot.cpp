// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/pareto_plot.h"

#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "models/unit_format.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace rooftop::plots {

namespace {

/// Pick ids of measured points start here, above any candidate index.
constexpr int kMeasuredIdBase = 1 << 24;
// Label priorities in the placement pass: the limits' labels, then the modes' names (left to their hover
// texts when there is no room).
constexpr int kPowerCapPriority = 1000;
constexpr int kSloPriority = 990;
constexpr int kModeNamePriority = 100;
constexpr int kRecommendedNamePriority = 200;

/// The places of a label beside a point: right of it and above, under, then left of it.
std::vector<PlotBase::LabelPlace> besidePoint(const QPointF& at) {
    return {{at, Qt::AlignLeft | Qt::AlignBottom, QMargins(6, 0, 0, 4)},
            {at, Qt::AlignLeft | Qt::AlignTop, QMargins(6, 4, 0, 0)},
            {at, Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, 6, 4)},
            {at, Qt::AlignRight | Qt::AlignTop, QMargins(0, 4, 6, 0)}};
}

/// " [low–high]" of a predicted value at `confidence`; empty without a spread.
QString hoverBounds(double value, double spread, double confidence, int digits) {
    if (!(spread > 0)) return {};
    const Interval i = intervalAt(value, spread, confidence);
    return QStringLiteral(" [%1–%2]").arg(i.low, 0, 'f', digits).arg(i.high, 0, 'f', digits);
}

double latencyMs(const Candidate& candidate) {
    return candidate.summary.latencySeconds * 1e3;
}
double energyMj(const Candidate& candidate) {
    return candidate.energyPerInference() * 1e3;
}
/// The plotted second quantity: energy per inference in mJ, or average power in W on a training front.
double frontY(const Candidate& candidate, FrontAxes axes) {
    return axes == FrontAxes::LatencyPower ? frontValue(candidate, axes) : energyMj(candidate);
}
/// A measured point's second quantity, when it has one.
std::optional<double> frontY(const models::MeasuredPoint& point, FrontAxes axes) {
    return axes == FrontAxes::LatencyPower ? point.powerW : point.energyPerInferenceMj;
}

QCPGraph* scatterGraph(QCustomPlot* plot, const QCPScatterStyle& style, const QString& name) {
    QCPGraph* graph = plot->addGraph();
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    graph->setName(name);
    return graph;
}

} // namespace

ParetoPlot::ParetoPlot(QWidget* parent) : PlotBase(parent) {
    xAxis->setLabel(tr("Latency per batch (ms)"));
    yAxis->setLabel(tr("Energy per inference (mJ)"));
    setTitle(tr("Latency against energy"));
}

void ParetoPlot::setRecommendation(const Recommendation& recommendation, const QString& subtitle,
                                   models::MeasuredSet measured) {
    recommendation_ = recommendation;
    subtitle_ = subtitle;
    measured_ = std::move(measured);
    clearPlottables(); // the graphs and the Pareto front curve
    clearItems();
    const auto& candidates = recommendation_.candidates;
    const bool powerFront = recommendation_.frontAxes() == FrontAxes::LatencyPower;
    xAxis->setLabel(recommendation_.training ? tr("Time per training step (ms)")
                                             : tr("Latency per batch (ms)"));
    yAxis->setLabel(powerFront                 ? tr("Average power (W)")
                    : recommendation_.training ? tr("Energy per sample (mJ)")
                                               : tr("Energy per inference (mJ)"));

    QColor feasibleColor(0x1F, 0x77, 0xB4), infeasibleColor(0xB0, 0xB0, 0xB0);
    // the limits are met by the predictions' upper bounds: a point left of the SLO line may miss it at 90 %
    const QString bound =
        recommendation_.confidence > 0.5
            ? tr(" (upper bound at %1 %)").arg(QString::number(100 * recommendation_.confidence, 'g', 3))
            : QString();
    QCPGraph* feasible =
        scatterGraph(this, QCPScatterStyle(QCPScatterStyle::ssDisc, feasibleColor, feasibleColor, 5),
                     tr("meets the limits") + bound);
    QCPGraph* infeasible =
        scatterGraph(this, QCPScatterStyle(QCPScatterStyle::ssCross, infeasibleColor, infeasibleColor, 5),
                     tr("misses a limit") + bound);
    std::vector<PickPoint> picks;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& candidate = candidates[i];
        if (!std::isfinite(latencyMs(candidate)) ||
            !std::isfinite(frontY(candidate, recommendation_.frontAxes())))
            continue;
        (candidate.feasible ? feasible : infeasible)
            ->addData(latencyMs(candidate), frontY(candidate, recommendation_.frontAxes()));
        picks.push_back({latencyMs(candidate), frontY(candidate, recommendation_.frontAxes()), int(i)});
        if (candidate.profile.mode.stock && candidates.size() <= 64) {
            auto* label = new QCPItemText(this);
            label->setClipToAxisRect(true);
            label->setText(QString::fromStdString(candidate.profile.mode.name));
            label->setColor(foregroundColor());
            // the recommended mode's name first: a neighbour's must not take the room beside its marker
            const bool recommended = recommendation_.recommended && *recommendation_.recommended == i;
            placeLabel(
                label, recommended ? kRecommendedNamePriority : kModeNamePriority,
                besidePoint(QPointF(latencyMs(candidate), frontY(candidate, recommendation_.frontAxes()))));
        }
    }
    if (feasible->data()->isEmpty()) feasible->removeFromLegend();
    if (infeasible->data()->isEmpty()) infeasible->removeFromLegend();

    const std::vector<size_t> front = paretoFront(candidates, recommendation_.frontAxes());
    frontSize_ = int(front.size());
    QCPCurve* frontLine = new QCPCurve(xAxis, yAxis);
    frontLine->setPen(QPen(QColor(0xD6, 0x27, 0x28), 1.8));
    frontLine->setName(tr("Pareto front"));
    if (front.empty()) frontLine->removeFromLegend();
    for (size_t index : front)
        frontLine->addData(latencyMs(candidates[index]),
                           frontY(candidates[index], recommendation_.frontAxes()));
    frontLine->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0xD6, 0x27, 0x28), 6));

    if (!candidates.empty() && std::isfinite(latencyMs(recommendation_.baseline))) {
        QCPGraph* baseline = scatterGraph(
            this, QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(foregroundColor(), 1.5), Qt::NoBrush, 13),
            tr("baseline: %1")
                .arg(QString::fromStdString(readableModeName(recommendation_.baseline.profile.mode))));
        baseline->addData(latencyMs(recommendation_.baseline),
                          frontY(recommendation_.baseline, recommendation_.frontAxes()));
    }
    if (recommendation_.recommended) {
        const Candidate& chosen = candidates[*recommendation_.recommended];
        QColor green(0x2C, 0xA0, 0x2C);
        QCPGraph* recommended = scatterGraph(
            this, QCPScatterStyle(QCPScatterStyle::ssStar, QPen(green, 2.5), Qt::NoBrush, 20),
            tr("recommended: %1").arg(QString::fromStdString(readableModeName(chosen.profile.mode))));
        recommended->addData(latencyMs(chosen), frontY(chosen, recommendation_.frontAxes()));
    }
    selectionGraph_ = scatterGraph(
        this, QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(foregroundColor(), 2.0), Qt::NoBrush, 16), {});
    selectionGraph_->removeFromLegend();
    drawMeasured(picks);
    setPickPoints(std::move(picks));
    padLegendItems();

    drawLimits();
    fit();
    setTitle((powerFront ? tr("Time against power") : tr("Latency against energy")) +
             (subtitle.isEmpty() ? QString() : QStringLiteral(" — ") + subtitle));
    resetView();
}

void ParetoPlot::setShowAll(bool all) {
    if (all == showAll_) return;
    showAll_ = all;
    fit();
    resetView();
}

void ParetoPlot::drawLimits() {
    limitLines_ = 0;
    QColor limitColor(0xC0, 0x39, 0x2B);
    const QPen pen(limitColor, 1.4, Qt::DashLine);
    if (limits_.latencySloSeconds) {
        const double ms = *limits_.latencySloSeconds * 1e3;
        auto* line = new QCPItemStraightLine(this);
        line->point1->setCoords(ms, 0);
        line->point2->setCoords(ms, 1);
        line->setPen(pen);
        auto* text = new QCPItemText(this);
        text->setClipToAxisRect(true);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->setColor(limitColor);
        text->setText(tr("latency SLO %1").arg(models::formatSeconds(*limits_.latencySloSeconds)));
        // beside its line: at the top left of it, right of it, then lower down
        std::vector<LabelPlace> places;
        for (const double y : {0.02, 0.12, 0.5, 0.9}) {
            places.push_back({QPointF(ms, y), Qt::AlignRight | Qt::AlignTop, QMargins(0, 0, 4, 0)});
            places.push_back({QPointF(ms, y), Qt::AlignLeft | Qt::AlignTop, QMargins(4, 0, 0, 0)});
        }
        placeLabel(text, kSloPriority, std::move(places));
        ++limitLines_;
    }
    if (limits_.powerCapWatts) {
        // energy per inference (mJ) = power (W) x latency per batch (ms) / batch: one line per batch size
        std::vector<int64_t> batches;
        for (const Candidate& candidate : recommendation_.candidates)
            if (std::find(batches.begin(), batches.end(), candidate.batch) == batches.end())
                batches.push_back(candidate.batch);
        if (recommendation_.frontAxes() == FrontAxes::LatencyPower)
            batches = {0}; // one level: the cap itself
        for (int64_t batch : batches) {
            auto* line = new QCPItemStraightLine(this);
            if (batch == 0) {
                line->point1->setCoords(0, *limits_.powerCapWatts);
                line->point2->setCoords(1, *limits_.powerCapWatts);
            } else {
                line->point1->setCoords(0, 0);
                line->point2->setCoords(1, *limits_.powerCapWatts / double(batch));
            }
            line->setPen(pen);
            ++limitLines_;
        }
        auto* text = new QCPItemText(this);
        text->setColor(limitColor);
        if (recommendation_.frontAxes() == FrontAxes::LatencyPower) { // named on its level, at the right end
            text->setClipToAxisRect(true);
            text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
            text->position->setTypeY(QCPItemPosition::ptPlotCoords);
            text->position->setCoords(0.99, *limits_.powerCapWatts);
            text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            text->setText(tr("power cap %1 W").arg(*limits_.powerCapWatts));
            return;
        }
        text->setClipToAxisRect(true);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->setColor(limitColor);
        // a corner of the axes: top left, else bottom right, else the others
        placeLabel(text, kPowerCapPriority,
                   {{QPointF(0.01, 0.02), Qt::AlignLeft | Qt::AlignTop, QMargins()},
                    {QPointF(0.99, 0.98), Qt::AlignRight | Qt::AlignBottom, QMargins()},
                    {QPointF(0.99, 0.02), Qt::AlignRight | Qt::AlignTop, QMargins()},
                    {QPointF(0.01, 0.98), Qt::AlignLeft | Qt::AlignBottom, QMargins()}});
        text->setText(
            batches.size() > 1
                ? tr("dashed diagonals: power cap %1 W at each batch size").arg(*limits_.powerCapWatts)
                : tr("dashed diagonal: power cap %1 W").arg(*limits_.powerCapWatts));
    }
}

void ParetoPlot::fit() {
    const auto& candidates = recommendation_.candidates;
    bool anyFeasible = false;
    for (const Candidate& candidate : candidates)
        anyFeasible = anyFeasible || candidate.feasible;
    double xLow = 1e300, xHigh = 0, yLow = 1e300, yHigh = 0;
    auto include = [&](double x, double y) {
        if (!std::isfinite(x) || !std::isfinite(y)) return;
        xLow = std::min(xLow, x);
        xHigh = std::max(xHigh, x);
        yLow = std::min(yLow, y);
        yHigh = std::max(yHigh, y);
    };
    for (const Candidate& candidate : candidates)
        if (showAll_ || !anyFeasible || candidate.feasible)
            include(latencyMs(candidate), frontY(candidate, recommendation_.frontAxes()));
    if (!candidates.empty())
        include(latencyMs(recommendation_.baseline),
                frontY(recommendation_.baseline, recommendation_.frontAxes()));
    for (const models::MeasuredPoint& point : measured_.points)
        if (const auto y = frontY(point, recommendation_.frontAxes())) include(point.latencyMs, *y);
    if (!showAll_ && limits_.latencySloSeconds && xHigh > 0)
        xHigh = std::max(xHigh, *limits_.latencySloSeconds * 1e3);
    if (xHigh <= 0) xLow = 0, xHigh = 1, yLow = 0, yHigh = 1;
    const double xPad = std::max((xHigh - xLow) * 0.08, xHigh * 0.02),
                 yPad = std::max((yHigh - yLow) * 0.08, yHigh * 0.02);
    xFit_ = QCPRange(std::max(0.0, xLow - xPad), xHigh + xPad * 4); // room for the names right of the points
    yFit_ = QCPRange(std::max(0.0, yLow - yPad), yHigh + yPad);
}

void ParetoPlot::paletteChanged() {
    if (!selectionGraph_) return;
    // the ring, the baseline, the names and the measured points take the new foreground
    const QCPRange keepX = xAxis->range(), keepY = yAxis->range();
    const int selected = selected_;
    const Recommendation recommendation = recommendation_;
    setRecommendation(recommendation, subtitle_, measured_);
    setSelectedCandidate(selected);
    xAxis->setRange(keepX);
    yAxis->setRange(keepY);
}

void ParetoPlot::setSelectedCandidate(int index) {
    selected_ = index;
    if (!selectionGraph_) return;
    selectionGraph_->data()->clear();
    if (index >= 0 && size_t(index) < recommendation_.candidates.size()) {
        const Candidate& candidate = recommendation_.candidates[size_t(index)];
        selectionGraph_->addData(latencyMs(candidate), frontY(candidate, recommendation_.frontAxes()));
    }
    requestReplot();
}

void ParetoPlot::resetView() {
    xAxis->setRange(xFit_);
    yAxis->setRange(yFit_);
    requestReplot();
}

void ParetoPlot::drawMeasured(std::vector<PickPoint>& picks) {
    measuredDrawn_ = 0;
    if (measured_.points.empty()) return;
    // Measurements and simulator answers get a graph each, so the legend never calls a simulation measured.
    const QColor simulatedColor(0x94, 0x67, 0xBD);
    QCPGraph* measuredGraph = scatterGraph(
        this, QCPScatterStyle(QCPScatterStyle::ssDiamond, foregroundColor(), foregroundColor(), 10),
        tr("measured\n(runs file %1)").arg(measured_.sourceName));
    QCPGraph* simulatedGraph =
        scatterGraph(this, QCPScatterStyle(QCPScatterStyle::ssDiamond, simulatedColor, simulatedColor, 10),
                     tr("simulated board, not measured\n(runs file %1)").arg(measured_.sourceName));
    int withoutEnergy = 0;
    for (size_t i = 0; i < measured_.points.size(); ++i) {
        const models::MeasuredPoint& point = measured_.points[i];
        const std::optional<double> second = frontY(point, recommendation_.frontAxes());
        if (!second) {
            ++withoutEnergy;
            continue;
        }
        const double x = point.latencyMs, y = *second;
        (point.simulated ? simulatedGraph : measuredGraph)->addData(x, y);
        picks.push_back({x, y, kMeasuredIdBase + int(i)});
        ++measuredDrawn_;
        const Candidate* predicted = candidateOf(point);
        if (predicted && measured_.points.size() <= 64) {
            auto* link = new QCPItemLine(this); // from the prediction to the measurement of the same mode
            link->start->setCoords(latencyMs(*predicted), frontY(*predicted, recommendation_.frontAxes()));
            link->end->setCoords(x, y);
            link->setPen(QPen(QColor(0x80, 0x80, 0x80), 1.0, Qt::DashLine));
        }
    }
    if (measuredGraph->data()->isEmpty()) measuredGraph->removeFromLegend();
    if (simulatedGraph->data()->isEmpty()) simulatedGraph->removeFromLegend();
    if (withoutEnergy > 0) {
        scatterGraph(this, QCPScatterStyle(QCPScatterStyle::ssNone),
                     tr("%n measured mode(s) without power: not drawn", "", withoutEnergy));
    }
}

const Candidate* ParetoPlot::candidateOf(const models::MeasuredPoint& point) const {
    for (const Candidate& candidate : recommendation_.candidates)
        if (QString::fromStdString(candidate.profile.mode.name) == point.mode &&
            candidate.batch == point.batch)
            return &candidate;
    return nullptr;
}

QString ParetoPlot::measuredHoverText(const models::MeasuredPoint& point) const {
    QString text =
        tr("<b>%1</b> at batch %2, %3<br>latency %4 ms, %5 mJ/inference%6<br><i>%7, runs file %8</i>")
            .arg(point.mode)
            .arg(point.batch)
            .arg(point.precision)
            .arg(point.latencyMs, 0, 'f', 3)
            .arg(point.energyPerInferenceMj.value_or(0.0), 0, 'f', 2)
            .arg(point.powerW ? tr(", %1 W").arg(*point.powerW, 0, 'f', 1) : QString())
            .arg(models::measuredProvenance(point), measured_.sourceName);
    if (const Candidate* predicted = candidateOf(point))
        text += tr("<br>predicted (%1): latency %2 ms, %3 mJ/inference, %4 W%5")
                    .arg(QString::fromUtf8(provenanceName(predicted->provenance)))
                    .arg(latencyMs(*predicted), 0, 'f', 3)
                    .arg(energyMj(*predicted), 0, 'f', 2)
                    .arg(predicted->summary.averageWatts, 0, 'f', 1)
                    .arg(boundsNote(*predicted));
    return perItem(text);
}

QString ParetoPlot::boundsNote(const Candidate& c) const {
    const PredictionSpread& spread = c.summary.spread;
    if (!(spread.latency > 0 || spread.energy > 0 || spread.power > 0)) return {};
    // the advisor's confidence when it met limits with one, else the tables' 90 %
    const double confidence = recommendation_.confidence > 0.5 ? recommendation_.confidence : 0.9;
    return tr("<br>bounds at %1 %: latency%2 ms, energy%3 mJ, power%4 W")
        .arg(confidence * 100, 0, 'g', 3)
        .arg(hoverBounds(latencyMs(c), spread.latency, confidence, 3))
        .arg(hoverBounds(energyMj(c), spread.energy, confidence, 2))
        .arg(hoverBounds(c.summary.averageWatts, spread.power, confidence, 1));
}

QString ParetoPlot::perItem(QString text) const {
    return recommendation_.training
               ? text.replace(QStringLiteral("mJ/inference"), QStringLiteral("mJ/sample"))
               : text;
}

QString ParetoPlot::hoverText(int id) const {
    if (id >= kMeasuredIdBase && size_t(id - kMeasuredIdBase) < measured_.points.size())
        return measuredHoverText(measured_.points[size_t(id - kMeasuredIdBase)]);
    if (id < 0 || size_t(id) >= recommendation_.candidates.size()) return {};
    const Candidate& candidate = recommendation_.candidates[size_t(id)];
    const PowerMode& mode = candidate.profile.mode;
    QString measured;
    for (const models::MeasuredPoint& point : measured_.points)
        if (point.mode == QString::fromStdString(mode.name) && point.batch == candidate.batch) {
            measured += tr("<br><i>%1</i>: latency %2 ms%3")
                            .arg(models::measuredProvenance(point))
                            .arg(point.latencyMs, 0, 'f', 3)
                            .arg(point.powerW ? tr(", %1 W").arg(*point.powerW, 0, 'f', 1) : QString());
        }
    return perItem(tr("<b>%1</b>%2<br>GPU %3 MHz, EMC %4 MHz, %5 cores at %6 MHz<br>latency %7 ms, %8 "
                      "mJ/inference, "
                      "%9 W%11<br>"
                      "<i>predicted (%10)</i>")
                       .arg(QString::fromStdString(readableModeName(mode)),
                            candidate.pareto ? tr(" — on the Pareto front") : QString())
                       .arg(double(mode.gpuHz) / 1e6, 0, 'f', 0)
                       .arg(double(mode.emcHz) / 1e6, 0, 'f', 0)
                       .arg(mode.onlineCores)
                       .arg(double(mode.cpuKhz) / 1e3, 0, 'f', 0)
                       .arg(latencyMs(candidate), 0, 'f', 3)
                       .arg(energyMj(candidate), 0, 'f', 2)
                       .arg(candidate.summary.averageWatts, 0, 'f', 1)
                       .arg(QString::fromUtf8(provenanceName(candidate.provenance)))
                       .arg(boundsNote(candidate))) +
           measured;
}

} // namespace rooftop::plots
