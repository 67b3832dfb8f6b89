// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_session.h"
#include "plots/plot_base.h"

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace rooftop::plots {

/// A decoder's time per output token against the context, one line per stock mode (and the advisor's pick),
/// each named with its time to first token; hover gives each sample.
class LlmContextPlot : public PlotBase {
    Q_OBJECT
public:
    explicit LlmContextPlot(QWidget* parent = nullptr);
    /// Draws the sweep of `result` (its sweepContexts and each mode's sweepTpotSeconds): the stock modes and
    /// `pick` (an index into result.modes), if any.
    void setSweep(const LlmResult& result, std::optional<size_t> pick);
    /// The modes drawn, by name.
    QStringList modesDrawn() const { return drawn_; }
    void resetView() override;
    bool allowsLogarithmicToggle() const override { return false; }

protected:
    QString hoverText(int id) const override;

private:
    struct Sample {
        QString mode;
        int64_t context = 0;
        double tpotMs = 0;
        int64_t batch = 1;
    };
    std::vector<Sample> samples_;
    QStringList drawn_;
    QString provenance_;
};

} // namespace rooftop::plots
