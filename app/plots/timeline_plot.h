// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/concurrent_schedule.h"
#include "plots/plot_base.h"

#include <QString>
#include <vector>

namespace rooftop::plots {

/// One simulated stretch of a plan's schedule: inference batches and training minibatches on two lanes
/// against time (ms), idle as the gaps; hover names each execution.
class TimelinePlot : public PlotBase {
    Q_OBJECT
public:
    explicit TimelinePlot(QWidget* parent = nullptr);
    /// Shows `segments` over [fromSeconds, fromSeconds + seconds) of the schedule of `configuration` (named
    /// in the title); `basis` goes in the axis label.
    void setTimeline(const std::vector<TimelineSegment>& segments, double fromSeconds, double seconds,
                     const QString& basis, const QString& configuration = {});
    /// The executions drawn: inference batches and training minibatches.
    int inferenceCount() const { return inference_; }
    int trainingCount() const { return training_; }
    void resetView() override;
    bool allowsLogarithmicToggle() const override { return false; } // a category axis

protected:
    QString hoverText(int id) const override;

private:
    std::vector<TimelineSegment> segments_;
    double from_ = 0, seconds_ = 1;
    int inference_ = 0, training_ = 0;
};

} // namespace rooftop::plots
