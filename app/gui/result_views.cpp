// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/result_views.h"

#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "core/roofline/op_time.h"
#include "gui/layer_panel.h"
#include "gui/modes_panel.h"
#include "gui/roofline_options.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "models/selection_state.h"
#include "plots/measured_overlay.h"
#include "plots/op_time_chart.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"

#include <QSet>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace rooftop::gui {

ResultViews::ResultViews(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {
    setObjectName(QStringLiteral("MainSplitter"));
    selection_ = new models::SelectionState(this);
    layers_ = new LayerPanel(this);
    timePlot_ = new plots::RooflinePlot(plots::RooflineKind::Time, this);
    timePlot_->setObjectName(QStringLiteral("time-roofline"));
    energyPlot_ = new plots::RooflinePlot(plots::RooflineKind::Energy, this);
    energyPlot_->setObjectName(QStringLiteral("energy-roofline"));
    modes_ = new ModesPanel(this);
    opTimeChart_ = new plots::OpTimeChart(this);
    opTimeChart_->setObjectName(QStringLiteral("op-time"));

    auto* plotArea = new QWidget(this);
    auto* plotLayout = new QVBoxLayout(plotArea);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->setSpacing(2);
    options_ = new RooflineOptions({timePlot_, energyPlot_}, plotArea);
    tabs_ = new QTabWidget(plotArea);
    tabs_->addTab(timePlot_, tr("Time roofline"));
    tabs_->addTab(energyPlot_, tr("Energy roofline"));
    tabs_->addTab(modes_, tr("Power modes"));
    tabs_->addTab(opTimeChart_, tr("Time by op"));
    plotLayout->addWidget(options_);
    plotLayout->addWidget(tabs_, 1);
    // the rooflines' options are hidden on the other tabs but keep their row: the tab bar stays put
    QSizePolicy keepRow = options_->sizePolicy();
    keepRow.setRetainSizeWhenHidden(true);
    options_->setSizePolicy(keepRow);
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) { options_->setVisible(index < 2); });

    addWidget(layers_);
    addWidget(plotArea);
    setStretchFactor(0, 2);
    setStretchFactor(1, 3);
    setSizes({560, 760});
    connectSelection();
    connect(this, &QSplitter::splitterMoved, this, [this] { sizesBeforeComparison_.clear(); }); // by hand
    connect(modes_, &ModesPanel::modeRowChosen, this, &ResultViews::modeRowChosen);
    QSortFilterProxyModel* proxy = layers_->proxy();
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(proxy, signal, this, &ResultViews::applyTableFilter);
    connect(proxy, &QAbstractItemModel::modelReset, this, &ResultViews::applyTableFilter);
    connect(proxy, &QAbstractItemModel::layoutChanged, this, &ResultViews::applyTableFilter);
}

void ResultViews::applyTableFilter() {
    models::LayerFilterProxyModel* proxy = layers_->proxy();
    plots::RooflinePlot::LayerFilter filter;
    if (proxy->rowCount() < layers_->model()->rowCount()) {
        QSet<int> shown; // the table's own filter decides; the plots only ask it
        for (int row = 0; row < proxy->rowCount(); ++row)
            if (const LayerCount* layer = layers_->model()->layerAt(proxy->sourceRow(row)))
                shown.insert(layer->nodeIndex);
        filter = [shown](const plots::LayerMarker& marker) { return shown.contains(marker.nodeIndex); };
    }
    if (!filter && !tableFiltered_) return; // a sort or a new model: nothing to redraw
    tableFiltered_ = bool(filter);
    for (plots::RooflinePlot* plot : {timePlot_, energyPlot_})
        plot->setLayerFilter(filter);
}

void ResultViews::connectSelection() {
    connect(layers_, &LayerPanel::layerChosen, selection_, &models::SelectionState::setCurrentLayer);
    for (plots::RooflinePlot* plot : {timePlot_, energyPlot_})
        connect(plot, &plots::PlotBase::pointClicked, this, [this, plot](int id) {
            const int node = plot->nodeOfPoint(id); // a measured layer selects its first node
            if (node >= 0) selection_->setCurrentLayer(node);
        });
    connect(selection_, &models::SelectionState::layerSelected, this, [this](int nodeIndex) {
        timePlot_->setSelectedLayer(nodeIndex);
        energyPlot_->setSelectedLayer(nodeIndex);
        layers_->selectLayer(nodeIndex);
    });
}

void ResultViews::showResult(std::shared_ptr<const AnalysisResult> result, bool newModel) {
    layers_->showWorkload(result->workload(), newModel);
    if (newModel) selection_->clear();
    modes_->showResult(std::move(result));
}

void ResultViews::showScene(const AnalysisResult& result, const report::SceneChoice& choice) {
    layers_->showPrediction(report::activePrediction(result, choice));
    plots::RooflineScene scene = report::buildRooflineScene(result, choice);
    if (comparison_) scene.measured = plots::measuredOverlay(*comparison_, result.workload());
    for (plots::RooflinePlot* plot : {timePlot_, energyPlot_}) {
        plot->setScene(scene);
        plot->setSelectedLayer(selection_->currentLayer());
    }
    options_->showAutomaticChoice();
    opTimeChart_->setOpTypes(scene.opTypes); // the colours of the points
    if (const ModelPrediction* prediction = report::activePrediction(result, choice))
        opTimeChart_->setTimes(
            timeByOpType(result.workload(), *prediction),
            result.predictorBasis.empty()
                ? tr("%1 (predicted from %2 inputs)")
                      .arg(QString::fromStdString(readableModeName(prediction->profile.mode)),
                           QString::fromUtf8(provenanceName(prediction->provenance)))
                // the predictor gives the model's latency; the layers stay the roofline's
                : tr("%1 (the roofline's layer times, an estimate; the predictor predicts the whole model)")
                      .arg(QString::fromStdString(readableModeName(prediction->profile.mode))));
}

void ResultViews::showComparison(std::shared_ptr<const Comparison> comparison) {
    const bool hadComparison = comparison_ != nullptr;
    comparison_ = std::move(comparison);
    layers_->model()->setComparison(comparison_.get());
    layers_->arrangeMeasuredColumns();
    fitPanelToComparison(hadComparison);
}

void ResultViews::fitPanelToComparison(bool hadComparison) {
    if (!comparison_) {
        if (hadComparison && !sizesBeforeComparison_.isEmpty()) setSizes(sizesBeforeComparison_);
        sizesBeforeComparison_.clear();
        return;
    }
    if (hadComparison) return;
    const QList<int> now = sizes();
    if (now.size() != 2) return;
    const int total = now[0] + now[1];
    constexpr double kPanelShareAtMost = 0.6;
    const int wanted = std::min(layers_->widthShowingBound(), int(kPanelShareAtMost * total));
    if (wanted <= now[0]) return;
    sizesBeforeComparison_ = now;
    setSizes({wanted, total - wanted});
}

void ResultViews::fitColumns() {
    layers_->fitColumns();
    modes_->fitColumns();
}

void ResultViews::redrawModesPlot() {
    modes_->redrawPlot();
}

void ResultViews::showView(const QString& view) {
    tabs_->setCurrentIndex(view == QLatin1String("energy")  ? 1
                           : view == QLatin1String("modes") ? 2
                           : view == QLatin1String("ops")   ? 3
                                                            : 0);
}

plots::PlotBase* ResultViews::currentPlot() const {
    switch (tabs_->currentIndex()) {
    case 0:
        return timePlot_;
    case 1:
        return energyPlot_;
    case 3:
        return opTimeChart_;
    default:
        return modes_->plot();
    }
}

int ResultViews::currentTab() const {
    return tabs_->currentIndex();
}

void ResultViews::setCurrentTab(int index) {
    tabs_->setCurrentIndex(index);
}

} // namespace rooftop::gui
