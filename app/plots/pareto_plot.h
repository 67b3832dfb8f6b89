// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "plots/plot_base.h"

namespace rooftop::plots {

/// Latency per batch against energy per inference for every candidate mode: feasible and infeasible points,
/// the Pareto front as a line, the recommendation and the baseline (fastest stock mode) marked, stock modes
/// named.
class ParetoPlot : public PlotBase {
    Q_OBJECT
public:
    explicit ParetoPlot(QWidget* parent = nullptr);

    /// Replaces the candidates drawn and fits the view; `subtitle` names the board and provenance.
    void setRecommendation(const Recommendation& recommendation, const QString& subtitle);
    /// Rings the candidate with this index (-1: none); no signal.
    void setSelectedCandidate(int index);
    /// How many points are on the Pareto front line.
    int frontSize() const { return frontSize_; }
    void resetView() override;

protected:
    QString hoverText(int id) const override;

private:
    Recommendation recommendation_;
    QCPGraph* selectionGraph_ = nullptr;
    int frontSize_ = 0;
    QCPRange xFit_, yFit_;
};

} // namespace rooftop::plots
