// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/predictor.h"
#include "plots/plot_base.h"

#include <vector>

namespace rooftop::plots {

/// A predictor's cross-validated predictions against the runs it learned from, for latency or power: one
/// point per run (predicted by a fit that left it out), the y = x line and a +-10 % band; simulated runs
/// are drawn and named apart from measured ones.
class PredictionCheckPlot : public PlotBase {
    Q_OBJECT
public:
    enum class Quantity { Latency, Power };

    explicit PredictionCheckPlot(Quantity quantity, QWidget* parent = nullptr);

    /// Draws a predictor's held-out runs and states its cross-validated error; `source` names the predictor
    /// file. Runs without the quantity are left out.
    void setPredictor(const Predictor& predictor, const QString& source);
    /// How many runs are drawn.
    int pointCount() const { return drawn_; }
    void resetView() override;

protected:
    QString hoverText(int id) const override;

private:
    double measured(const HeldOutRun& run) const;
    double predicted(const HeldOutRun& run) const;
    QString unit() const;

    Quantity quantity_;
    std::vector<HeldOutRun> runs_;
    QString source_;
    int drawn_ = 0;
    QCPRange fit_;
};

} // namespace rooftop::plots
