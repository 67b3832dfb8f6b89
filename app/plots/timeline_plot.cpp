// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/timeline_plot.h"

#include <algorithm>

namespace rooftop::plots {

namespace {

constexpr double inferenceLane = 2.0, trainingLane = 1.0, laneHalfHeight = 0.35;

QColor inferenceColor() {
    return QColor(31, 119, 180);
}
QColor trainingColor() {
    return QColor(255, 127, 14);
}

} // namespace

TimelinePlot::TimelinePlot(QWidget* parent) : PlotBase(parent) {
    xAxis->setLabel(tr("time (ms, simulated)"));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(trainingLane, tr("training"));
    ticker->addTick(inferenceLane, tr("inference"));
    yAxis->setTicker(ticker);
    yAxis->setRange(0.4, 2.6);
    yAxis->grid()->setVisible(false);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    legend->setVisible(false);
    setMinimumSize(320, 160);
}

void TimelinePlot::setTimeline(const std::vector<TimelineSegment>& segments, double fromSeconds,
                               double seconds, const QString& basis, const QString& configuration) {
    clearItems();
    segments_ = segments;
    from_ = fromSeconds;
    seconds_ = seconds > 0 ? seconds : 1.0;
    inference_ = training_ = 0;
    std::vector<PickPoint> picks;
    for (size_t i = 0; i < segments_.size(); ++i) {
        const TimelineSegment& s = segments_[i];
        if (s.kind == TimelineSegment::Kind::Idle) continue;
        const bool inference = s.kind == TimelineSegment::Kind::Inference;
        (inference ? inference_ : training_) += 1;
        const double lane = inference ? inferenceLane : trainingLane;
        auto* rect = new QCPItemRect(this);
        rect->topLeft->setCoords(1e3 * s.start, lane + laneHalfHeight);
        rect->bottomRight->setCoords(1e3 * s.end, lane - laneHalfHeight);
        const QColor colour = inference ? inferenceColor() : trainingColor();
        rect->setPen(QPen(colour.darker(130), 0.5));
        rect->setBrush(colour);
        picks.push_back({1e3 * 0.5 * (s.start + s.end), lane, static_cast<int>(i)});
    }
    setPickPoints(std::move(picks));
    const QString counts = tr("%1 inference batches, %2 training minibatches").arg(inference_).arg(training_);
    setTitle(configuration.isEmpty() ? tr("One simulated second: %1").arg(counts)
                                     : tr("One simulated second of %1: %2").arg(configuration, counts));
    xAxis->setLabel(tr("time (ms; simulated, %1)").arg(basis));
    resetView();
}

void TimelinePlot::resetView() {
    xAxis->setRange(1e3 * from_, 1e3 * (from_ + seconds_));
    requestReplot();
}

QString TimelinePlot::hoverText(int id) const {
    if (id < 0 || static_cast<size_t>(id) >= segments_.size()) return {};
    const TimelineSegment& s = segments_[static_cast<size_t>(id)];
    const QString span = tr("%1–%2 ms (%3 ms)")
                             .arg(1e3 * s.start, 0, 'f', 1)
                             .arg(1e3 * s.end, 0, 'f', 1)
                             .arg(1e3 * (s.end - s.start), 0, 'f', 2);
    if (s.kind == TimelineSegment::Kind::Inference)
        return tr("Inference batch of %1 requests, %2; simulated").arg(s.requests).arg(span);
    return tr("Training minibatch, %1; simulated").arg(span);
}

} // namespace rooftop::plots
