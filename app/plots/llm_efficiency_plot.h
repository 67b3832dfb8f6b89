// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_advisor.h"
#include "plots/plot_base.h"

#include <optional>

namespace rooftop::plots {

/// Tokens per joule against tokens per second for every (batch, mode) the LLM advisor weighed: those that
/// meet the limits filled, the others hollow, the Pareto front as a line, the pick as a star and the fastest
/// stock mode ringed, both named.
class LlmEfficiencyPlot : public PlotBase {
    Q_OBJECT
public:
    explicit LlmEfficiencyPlot(QWidget* parent = nullptr);
    /// Draws the advice (its results must outlive the plot's use of it: the hover reads them).
    void setAdvice(const LlmAdvice& advice);
    /// Points drawn, and those on the front.
    int pointCount() const { return points_; }
    int frontSize() const { return front_; }
    /// The pick's point (tokens/s, tokens/J), if there is a pick.
    std::optional<QPointF> pickPoint() const { return pick_; }
    /// Whether the axes cut the pick's interval short (it reaches past half the configurations' span).
    bool intervalCut() const { return intervalCut_; }
    void resetView() override;

protected:
    QString hoverText(int id) const override;

private:
    const LlmAdvice* advice_ = nullptr;
    int points_ = 0, front_ = 0;
    std::optional<QPointF> pick_;
    QList<QPointer<QCPErrorBars>> intervalBars_; ///< tokens/J (in the legend), then tokens/s
    QCPRange intervalX_, intervalY_;             ///< the pick's interval; empty: no pick
    bool intervalCut_ = false;
};

} // namespace rooftop::plots
