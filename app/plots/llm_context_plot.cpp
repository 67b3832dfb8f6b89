// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/llm_context_plot.h"

#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "plots/op_palette.h"

#include <algorithm>

namespace rooftop::plots {

LlmContextPlot::LlmContextPlot(QWidget* parent) : PlotBase(parent) {
    xAxis->setLabel(tr("context (tokens)"));
    yAxis->setLabel(tr("time per output token (ms)"));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    legend->setVisible(true);
    setMinimumSize(320, 200);
}

void LlmContextPlot::setSweep(const LlmResult& result, std::optional<size_t> pick) {
    clearGraphs();
    samples_.clear();
    drawn_.clear();
    std::vector<PickPoint> picks;
    int colour = 0;
    for (size_t m = 0; m < result.modes.size(); ++m) {
        const LlmModeAnswer& answer = result.modes[m];
        const bool picked = pick && *pick == m;
        if (!answer.profile.mode.stock && !picked) continue;
        if (answer.sweepTpotSeconds.size() != result.sweepContexts.size()) continue;
        const QString name = QString::fromStdString(readableModeName(answer.profile.mode));
        QCPGraph* graph = addGraph();
        graph->setName(tr("%1%2 (TTFT %3 ms)")
                           .arg(name, picked ? tr(", the pick") : QString())
                           .arg(answer.ttftSeconds * 1e3, 0, 'g', 3));
        QPen pen(colorForMode(colour++));
        pen.setWidthF(picked ? 3.0 : 1.6);
        graph->setPen(pen);
        for (size_t i = 0; i < result.sweepContexts.size(); ++i) {
            const double ms = answer.sweepTpotSeconds[i] * 1e3;
            graph->addData(double(result.sweepContexts[i]), ms);
            picks.push_back({double(result.sweepContexts[i]), ms, int(samples_.size()), 0});
            samples_.push_back({name, result.sweepContexts[i], ms, result.request.batch});
        }
        drawn_ << name;
    }
    setPickPoints(std::move(picks));
    provenance_ =
        result.modes.empty() ? QString() : QString::fromUtf8(provenanceName(result.modes.front().provenance));
    setTitle(
        tr("TPOT against context at batch %1 (predicted: %2)").arg(result.request.batch).arg(provenance_));
    padLegendItems();
    resetView();
}

void LlmContextPlot::resetView() {
    rescaleAxes();
    const QCPRange y = yAxis->range();
    yAxis->setRange(0, y.upper * 1.08);
    requestReplot();
}

QString LlmContextPlot::hoverText(int id) const {
    if (id < 0 || size_t(id) >= samples_.size()) return {};
    const Sample& s = samples_[size_t(id)];
    return tr("%1 at context %2: %3 ms a token step, %4 tokens/s for %5 sequence(s); predicted (%6)")
        .arg(s.mode)
        .arg(s.context)
        .arg(s.tpotMs, 0, 'g', 4)
        .arg(double(s.batch) * 1e3 / s.tpotMs, 0, 'g', 4)
        .arg(s.batch)
        .arg(provenance_);
}

} // namespace rooftop::plots
