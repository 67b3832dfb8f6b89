// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/result_views.h"

#include "gui/layer_panel.h"
#include "gui/modes_panel.h"
#include "models/layer_table_model.h"
#include "models/selection_state.h"
#include "plots/measured_overlay.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"

#include <QTabWidget>

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

    tabs_ = new QTabWidget(this);
    tabs_->addTab(timePlot_, tr("Time roofline"));
    tabs_->addTab(energyPlot_, tr("Energy roofline"));
    tabs_->addTab(modes_, tr("Power modes"));

    addWidget(layers_);
    addWidget(tabs_);
    setStretchFactor(0, 2);
    setStretchFactor(1, 3);
    setSizes({560, 760});
    connectSelection();
    connect(modes_, &ModesPanel::modeRowChosen, this, &ResultViews::modeRowChosen);
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
}

void ResultViews::showComparison(std::shared_ptr<const Comparison> comparison) {
    comparison_ = std::move(comparison);
    layers_->model()->setComparison(comparison_.get());
    layers_->arrangeMeasuredColumns();
}

void ResultViews::fitColumns() {
    layers_->fitColumns();
    modes_->fitColumns();
}

void ResultViews::redrawModesPlot() {
    modes_->redrawPlot();
}

void ResultViews::showView(const QString& view) {
    tabs_->setCurrentIndex(view == QLatin1String("energy") ? 1 : view == QLatin1String("modes") ? 2 : 0);
}

plots::PlotBase* ResultViews::currentPlot() const {
    switch (tabs_->currentIndex()) {
    case 0:
        return timePlot_;
    case 1:
        return energyPlot_;
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
