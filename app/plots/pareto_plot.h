// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "models/measured_points.h"
#include "plots/plot_base.h"

namespace rooftop::plots {

/// Latency per batch against energy per inference for every candidate mode: feasible and infeasible points,
/// the Pareto front as a line, the recommendation and the baseline (fastest stock mode) marked, stock modes
/// named, the latency SLO and power cap as limit lines; and the measured points of a runs file, whether or
/// not their modes are candidates. The view fits the modes that meet the limits unless "show all" is on.
class ParetoPlot : public PlotBase {
    Q_OBJECT
public:
    explicit ParetoPlot(QWidget* parent = nullptr);

    /// Replaces the candidates drawn, with the measured points of a runs file beside them (none by default),
    /// and fits the view; `subtitle` names the board and provenance.
    void setRecommendation(const Recommendation& recommendation, const QString& subtitle,
                           models::MeasuredSet measured = {});
    /// The limits to draw (from the request's constraints); call before setRecommendation.
    void setLimits(const Constraints& limits) { limits_ = limits; }
    /// Fits the view to every candidate (true) or to those that meet the limits (false, the default); refits.
    void setShowAll(bool all);
    bool showAll() const { return showAll_; }
    /// The ranges the view fits to.
    QCPRange xFitRange() const { return xFit_; }
    QCPRange yFitRange() const { return yFit_; }
    /// How many limit lines are drawn (SLO, power cap per batch size).
    int limitLineCount() const { return limitLines_; }
    /// How many measured points are drawn (a point without energy, as from trtexec, cannot be).
    int measuredPointCount() const { return measuredDrawn_; }
    /// Rings the candidate with this index (-1: none); no signal.
    void setSelectedCandidate(int index);
    /// How many points are on the Pareto front line.
    int frontSize() const { return frontSize_; }
    void resetView() override;

protected:
    QString hoverText(int id) const override;
    void paletteChanged() override;

private:
    void drawLimits();
    void fit();
    void drawMeasured(std::vector<PickPoint>& picks);
    const Candidate* candidateOf(const models::MeasuredPoint& point) const;
    QString measuredHoverText(const models::MeasuredPoint& point) const;
    /// `text` with its energies per sample on a training front ("mJ/inference" otherwise).
    QString perItem(QString text) const;
    /// "<br>bounds at 90 %: latency [a–b] ms, ...": a predicted candidate's bounds; empty without a spread.
    QString boundsNote(const Candidate& candidate) const;

    Recommendation recommendation_;
    QString subtitle_;
    int selected_ = -1;
    models::MeasuredSet measured_;
    int measuredDrawn_ = 0;
    QCPGraph* selectionGraph_ = nullptr;
    int frontSize_ = 0;
    int limitLines_ = 0;
    Constraints limits_;
    bool showAll_ = false;
    QCPRange xFit_, yFit_;
};

} // namespace rooftop::plots
