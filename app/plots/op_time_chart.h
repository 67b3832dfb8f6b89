// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/op_time.h"
#include "plots/op_palette.h"
#include "plots/plot_base.h"

#include <vector>

namespace rooftop::plots {

/// Predicted time by op type as horizontal bars, longest at the top, in the op palette's colours (as
/// TensorRT's engine explorer shows an engine): where a model's time goes at a glance, for 1,000 layers too.
class OpTimeChart : public PlotBase {
    Q_OBJECT
public:
    explicit OpTimeChart(QWidget* parent = nullptr);

    /// The model's op types, which share out the colours as on the roofline (OpPalette); until it is
    /// called, or after it is called with none, the op types of the bars.
    void setOpTypes(const QStringList& opTypes) { opTypes_ = opTypes; }
    /// Replaces the bars (at most `maxBars` op types; the rest are summed as "other") and fits the view;
    /// `subtitle` names the mode and provenance.
    void setTimes(std::vector<OpTypeTime> times, const QString& subtitle, int maxBars = 24);
    /// The bars drawn, top first.
    const std::vector<OpTypeTime>& bars() const { return bars_; }
    /// The colour of each bar drawn, top first; for tests.
    const std::vector<QColor>& barColors() const { return barColors_; }
    void resetView() override;
    bool allowsLogarithmicToggle() const override { return false; } // a category axis

protected:
    QString hoverText(int id) const override;
    void paletteChanged() override;

private:
    void rebuild();

    std::vector<OpTypeTime> bars_;
    std::vector<QColor> barColors_;
    QStringList opTypes_;
    OpPalette palette_;
    QString subtitle_;
};

} // namespace rooftop::plots
