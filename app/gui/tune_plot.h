// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

namespace rooftop::gui {

/// The best-so-far measured energy per inference within the limits against runs, as a tune goes: a small
/// line plot painted directly (no plot library), one point per run (none until a run met the limits).
class TuneConvergencePlot : public QWidget {
    Q_OBJECT
public:
    explicit TuneConvergencePlot(QWidget* parent = nullptr);
    /// Adds the best-so-far energy (mJ per item; NaN while no run met the limits) after one more run.
    void addRun(double bestEnergyMj);
    /// Forgets every run.
    void clear();
    /// What the runs are ("measured", "simulated") and what energy is per ("inference", "sample"), for the
    /// labels.
    void setProvenance(const QString& provenance, const QString& item = QStringLiteral("inference")) {
        provenance_ = provenance;
        item_ = item;
        update();
    }
    /// The values plotted, one per run.
    const std::vector<double>& values() const { return values_; }
    QSize sizeHint() const override { return {520, 200}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<double> values_;
    QString provenance_ = QStringLiteral("measured");
    QString item_ = QStringLiteral("inference");
};

} // namespace rooftop::gui
