// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/modes_panel.h"

#include "gui/frozen_column_view.h"
#include "models/item_roles.h"
#include "models/mode_row.h"
#include "models/power_mode_table_model.h"
#include "plots/pareto_plot.h"
#include "plots/prediction_check_plot.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace rooftop::gui {

ModesPanel::ModesPanel(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
    model_ = new models::PowerModeTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(models::SortRole);
    // the mode's name stays in view while the clocks, latency and energy columns scroll past it
    view_ = new FrozenColumnView(this);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->setAlternatingRowColors(true);
    view_->setModelAndFrozenColumn(proxy_, models::PowerModeTableModel::Mode);
    view_->setSortingEnabled(true);
    // a predictor's check against its runs is a tab beside the modes plot: stacked under it, at 1280 x 800
    // both were squashed to a strip
    plotTabs_ = new QTabWidget(this);
    plotTabs_->setObjectName(QStringLiteral("modesPlotTabs"));
    plotTabs_->setTabBarAutoHide(true); // one tab until a predictor is loaded: no tab bar
    plotTabs_->setDocumentMode(true);
    auto* plotArea = new QWidget(plotTabs_);
    auto* plotLayout = new QVBoxLayout(plotArea);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->setSpacing(2);
    showAll_ = new QCheckBox(tr("Show all modes (the view fits those that meet the limits)"), plotArea);
    showAll_->setObjectName(QStringLiteral("showAllModes"));
    plot_ = new plots::ParetoPlot(plotArea);
    plot_->setObjectName(QStringLiteral("pareto"));
    plotLayout->addWidget(showAll_);
    plotLayout->addWidget(plot_, 1);
    connect(showAll_, &QCheckBox::toggled, plot_, &plots::ParetoPlot::setShowAll);
    checks_ = new QSplitter(Qt::Horizontal, plotTabs_); // a tab only while there is a predictor
    latencyCheck_ = new plots::PredictionCheckPlot(plots::PredictionCheckPlot::Quantity::Latency, checks_);
    latencyCheck_->setObjectName(QStringLiteral("latencyCheck"));
    powerCheck_ = new plots::PredictionCheckPlot(plots::PredictionCheckPlot::Quantity::Power, checks_);
    powerCheck_->setObjectName(QStringLiteral("powerCheck"));
    checks_->addWidget(latencyCheck_);
    checks_->addWidget(powerCheck_);
    // side by side, their titles' and legends' widths would set the window's narrowest center panel
    for (QWidget* check : {static_cast<QWidget*>(latencyCheck_), static_cast<QWidget*>(powerCheck_)}) {
        check->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        check->setMinimumWidth(180);
    }
    plotTabs_->addTab(plotArea, tr("Latency against energy"));
    checks_->setVisible(false);
    addWidget(view_);
    addWidget(plotTabs_);
    setStretchFactor(0, 1);
    setStretchFactor(1, 3);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ModesPanel::rowSelected);
    connect(plot_, &plots::PlotBase::pointClicked, this, &ModesPanel::candidateClicked);
}

void ModesPanel::resizeEvent(QResizeEvent* event) {
    QSplitter::resizeEvent(event);
    // at its first real size: a quarter for the table (its recommended row is selected and scrolled to), the
    // rest for the plot; later sizes are the user's
    if (sized_ || height() < 200) return;
    sized_ = true;
    setSizes({height() / 4, height() - height() / 4});
}

QTableView* ModesPanel::view() const {
    return view_;
}

void ModesPanel::showResult(std::shared_ptr<const AnalysisResult> result) {
    result_ = std::move(result);
    showMeasured();
}

void ModesPanel::showPredictionCheck() {
    const Predictor* predictor = result_ ? result_->predictor.get() : nullptr;
    const bool shown = predictor && !predictor->heldOut.empty();
    const int tab = plotTabs_->indexOf(checks_);
    if (!shown) {
        if (tab >= 0) plotTabs_->removeTab(tab);
        checks_->setVisible(false);
        return;
    }
    if (tab < 0) plotTabs_->addTab(checks_, tr("Predictor against its runs"));
    const QString source = QFileInfo(QString::fromStdString(result_->request.predictorPath)).fileName();
    latencyCheck_->setPredictor(*predictor, source);
    powerCheck_->setPredictor(*predictor, source);
}

void ModesPanel::setRuns(std::vector<RunRow> runs, const QString& sourceName) {
    runs_ = std::move(runs);
    measured_.sourceName = sourceName;
    showMeasured();
    if (!runs_.empty()) fitColumns(); // the measured columns appear
}

void ModesPanel::showMeasured() {
    measured_.points.clear();
    if (!result_) return;
    if (!runs_.empty()) {
        const int64_t batch = requestedBatches(result_->request).front();
        const Precision requested = result_->request.settings.precision;
        // "as model" counts the model's own element types; a runs file names one, fp32 for most models.
        const Precision precision = requested == Precision::AsModel ? Precision::FP32 : requested;
        const AnalysisSettings& settings = result_->request.settings;
        measured_.points = models::measuredPointsFrom(runs_, batch, precision, settings.dims.named,
                                                      settings.phase, settings.optimizer);
    }
    std::vector<models::ModeRow> rows = models::modeRowsFrom(result_->recommendation);
    models::attachMeasured(rows, measured_.points);
    model_->setTraining(result_->request.settings.phase == Phase::Training);
    model_->setRows(std::move(rows));
    for (int column : {models::PowerModeTableModel::MeasuredLatency,
                       models::PowerModeTableModel::MeasuredPower, models::PowerModeTableModel::MeasuredBy})
        view_->setColumnHidden(column, runs_.empty()); // the proxy sorts rows only: columns are the model's
    redrawPlot();
    selectRecommendation();
}

void ModesPanel::selectRecommendation() {
    if (!result_) return;
    const Recommendation& recommendation = result_->recommendation;
    using Table = models::PowerModeTableModel;
    switch (result_->request.objective) {
    case Objective::Energy:
        view_->sortByColumn(Table::EnergyPerInference, Qt::AscendingOrder);
        break;
    case Objective::Latency:
        view_->sortByColumn(Table::Latency, Qt::AscendingOrder);
        break;
    case Objective::Efficiency:
        view_->sortByColumn(Table::InferencesPerJoule, Qt::DescendingOrder);
        break;
    }
    if (!recommendation.recommended) return;
    const Candidate& chosen = recommendation.candidates[*recommendation.recommended];
    const int row = model_->rowOfMode(QString::fromStdString(chosen.profile.mode.name), chosen.batch);
    if (row < 0) return;
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    selectingRecommendation_ = true; // showing the advice is not the user choosing a mode
    view_->selectionModel()->setCurrentIndex(index,
                                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    selectingRecommendation_ = false;
    view_->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void ModesPanel::redrawPlot() {
    if (!result_) return;
    showPredictionCheck();
    plot_->setLimits(result_->request.constraints);
    plot_->setRecommendation(result_->recommendation, QString::fromStdString(result_->device.name),
                             measured_);
}

void ModesPanel::fitColumns() {
    view_->resizeColumnsToContents();
}

void ModesPanel::rowSelected(const QModelIndex& current) {
    const models::ModeRow* row =
        current.isValid() ? model_->rowAt(proxy_->mapToSource(current).row()) : nullptr;
    if (!row) return;
    const models::ModeRow chosen = *row; // a receiver may replace the rows
    if (result_) {
        const std::vector<Candidate>& candidates = result_->recommendation.candidates;
        for (size_t i = 0; i < candidates.size(); ++i)
            if (QString::fromStdString(candidates[i].profile.mode.name) == chosen.name &&
                candidates[i].batch == chosen.batch)
                plot_->setSelectedCandidate(int(i));
    }
    if (!selectingRecommendation_) emit modeRowChosen(chosen);
}

void ModesPanel::candidateClicked(int candidate) {
    if (!result_ || size_t(candidate) >= result_->recommendation.candidates.size()) return;
    const Candidate& chosen = result_->recommendation.candidates[size_t(candidate)];
    const int row = model_->rowOfMode(QString::fromStdString(chosen.profile.mode.name), chosen.batch);
    if (row < 0) return;
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    view_->selectionModel()->setCurrentIndex(index,
                                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(index);
}

} // namespace rooftop::gui
