// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: building the window from its parts, asking for analyses and showing their results.
#include "gui/main_window.h"

#include "core/device/power_mode.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/assumed_dims_banner.h"
#include "gui/board_catalog.h"
#include "gui/empty_state.h"
#include "gui/layer_panel.h"
#include "gui/layer_profile_import.h"
#include "gui/measure_device_flow.h"
#include "gui/modes_panel.h"
#include "gui/profile_model_flow.h"
#include "gui/result_views.h"
#include "gui/tune_model_flow.h"
#include "gui/window_exports.h"
#include "gui/window_geometry.h"
#include "models/mode_row.h"
#include "models/selection_state.h"
#include "report/report_builder.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStackedWidget>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace rooftop::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Rooftop"));
    setObjectName(QStringLiteral("RooftopMainWindow"));
    setAcceptDrops(true);
    analysisDelay_ = new QTimer(this);
    analysisDelay_->setSingleShot(true);
    analysisDelay_->setInterval(150); // coalesces bursts of setting changes into one analysis
    connect(analysisDelay_, &QTimer::timeout, this, &MainWindow::requestAnalysis);

    toolbar_ = new AnalysisToolbar(this);
    addToolBar(toolbar_);
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1920, 1080);
    if (toolbarsNeedTwoRows(initialWindowGeometry(available).width())) addToolBarBreak();
    addToolBar(toolbar_->modeBar());
    connect(toolbar_, &AnalysisToolbar::requestInputsChanged, this, &MainWindow::scheduleAnalysis);
    connect(toolbar_, &AnalysisToolbar::shownModesChanged, this, &MainWindow::shownModeChosen);
    connect(toolbar_, &AnalysisToolbar::dimsEdited, this, [this](const QString& text) {
        if (!modelPath_.isEmpty()) QSettings().setValue(QStringLiteral("modelDims/") + modelPath_, text);
    });
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    banner_ = new AssumedDimsBanner(central);
    connect(banner_, &AssumedDimsBanner::editRequested, this, [this] {
        if (!result_) return;
        QStringList dims;
        for (const std::string& dim : result_->workload().info.assumedShapeDims())
            dims << QString::fromStdString(dim);
        const QString typed = toolbar_->dimsText();
        toolbar_->editDims(typed.isEmpty() ? dims.join(QStringLiteral(", "))
                                           : typed + QStringLiteral(", ") + dims.join(QStringLiteral(", ")));
    });
    views_ = new ResultViews(central);
    centralLayout->addWidget(banner_);
    centralLayout->addWidget(views_, 1);
    emptyState_ = new EmptyState(this);
    connect(emptyState_, &EmptyState::openRequested, this, &MainWindow::chooseAndOpen);
    connect(emptyState_, &EmptyState::openPath, this, [this](const QString& path) { openModel(path); });
    central_ = new QStackedWidget(this);
    central_->addWidget(emptyState_);
    central_->addWidget(central);
    setCentralWidget(central_);
    connect(views_, &ResultViews::modeRowChosen, this, &MainWindow::modeRowChosen);
    buildAdvisorDock();
    exports_ = new WindowExports(*views_, this);
    exports_->setSceneChoice([this] { return sceneChoice(); }); // the report plots what the window shows
    connect(exports_, &WindowExports::failed, this, &MainWindow::showError);
    measurement_ = new MeasureDeviceFlow(this);
    connect(measurement_, &MeasureDeviceFlow::failed, this, &MainWindow::showError);
    connect(measurement_, &MeasureDeviceFlow::statusMessage, this,
            [this](const QString& text) { status_->setText(text); });
    connect(measurement_, &MeasureDeviceFlow::profileMeasured, this, &MainWindow::useProfile);
    profiling_ = new ProfileModelFlow(this);
    connect(profiling_, &ProfileModelFlow::failed, this, &MainWindow::showError);
    connect(profiling_, &ProfileModelFlow::statusMessage, this,
            [this](const QString& text) { status_->setText(text); });
    connect(profiling_, &ProfileModelFlow::runsWritten, this, [this](const QString& path) {
        const QString why = loadRunsFile(path);
        if (!why.isEmpty()) return showError(tr("Open runs file"), why);
        showView(QStringLiteral("modes"));
    });
    tuning_ = new TuneModelFlow(this);
    connect(tuning_, &TuneModelFlow::failed, this, &MainWindow::showError);
    connect(tuning_, &TuneModelFlow::statusMessage, this,
            [this](const QString& text) { status_->setText(text); });
    connect(tuning_, &TuneModelFlow::applied, this, &MainWindow::applyTune);
    layerImport_ = new LayerProfileImport(this);
    connect(layerImport_, &LayerProfileImport::failed, this,
            [this](const QString& title, const QString& why) {
                layerProfile_.reset(); // a bad file is not retried on the next analysis
                showError(title, why);
            });
    connect(layerImport_, &LayerProfileImport::statusMessage, this,
            [this](const QString& text) { status_->setText(text); });
    connect(layerImport_, &LayerProfileImport::changed, this, [this] {
        if (!layerImport_->request()) layerProfile_.reset(); // File → Clear measured layer profile
        views_->showComparison(layerImport_->sharedComparison());
        refreshViews();
    });
    buildMenus();
    buildStatusBar();

    connect(&runner_, &AnalysisRunner::progress, this, [this](const QString& stage) {
        status_->setText(stage);
        progress_->setVisible(true);
    });
    connect(&runner_, &AnalysisRunner::finished, this, &MainWindow::analysisFinished);
    connect(&runner_, &AnalysisRunner::failed, this, &MainWindow::analysisFailed);

    restoreSettings();
    BoardCatalog::instance().whenLoaded(
        this, [this](const BoardCatalogContents& contents) { boardsLoaded(contents); });
}

MainWindow::~MainWindow() = default;

void MainWindow::buildAdvisorDock() {
    advisor_ = new AdvisorPanel(this);
    auto* dock = new QDockWidget(tr("Advisor"), this);
    dock->setObjectName(QStringLiteral("AdvisorDock"));
    // on a short screen the advisor scrolls rather than pushing the window off it
    auto* scroll = new QScrollArea(dock);
    scroll->setWidget(advisor_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    dock->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    connect(advisor_, &AdvisorPanel::questionChanged, this, &MainWindow::scheduleAnalysis);
    connect(advisor_, &AdvisorPanel::whatIfChanged, this, &MainWindow::whatIfChanged);
    connect(advisor_, &AdvisorPanel::adviseOverGridRequested, this, [this] {
        QComboBox* modeSet = toolbar_->modeSetBox();
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("all")));
    });
}

void MainWindow::buildStatusBar() {
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->setVisible(false);
    status_ = new QLabel(tr("Open a model (Ctrl+O) or drop an .onnx file here."), this);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);
}

void MainWindow::scheduleAnalysis() {
    if (!modelPath_.isEmpty()) analysisDelay_->start();
}

void MainWindow::requestAnalysis() {
    if (modelPath_.isEmpty() || toolbar_->boardId().isEmpty()) return; // the catalog may still be loading
    AnalysisRequest request;
    request.modelPath = modelPath_.toStdString();
    toolbar_->fillRequest(request);
    request.compareWithGrid = true; // the advisor card says when custom clocks would save more
    if (!profilePath_.isEmpty() && profileDevice_ == toolbar_->boardId())
        request.profilePath =
            profilePath_.toStdString(); // a profile is of one board: others use derived ceilings
    if (!predictorPath_.isEmpty() && predictorModel_ == modelPath_ && predictorDevice_ == toolbar_->boardId())
        request.predictorPath = predictorPath_.toStdString(); // a predictor is of one model on one board
    request.constraints = advisor_->constraints();
    request.objective = advisor_->objective();
    report::askForReport(request);
    runner_.start(request);
}

void MainWindow::analysisFinished(std::shared_ptr<const AnalysisResult> result) {
    const bool newBoard = !result_ || result_->device.id != result->device.id;
    const bool newModel = !result_ || result_->request.modelPath != result->request.modelPath;
    result_ = std::move(result);
    exports_->setResult(result_);
    if (newModel && runsModel_ != modelPath_) { // a runs file is of one model
        runsModel_.clear();
        views_->modes()->setRuns({}, {});
    }
    progress_->setVisible(false);
    if (newBoard) {
        advisor_->setDevice(result_->device);
        toolbar_->showStockModes(*result_);
    }
    showModeChoices(newBoard);
    views_->selection()->setCurrentMode(shownStockMode());
    central_->setCurrentIndex(1); // the views, not the empty state
    views_->showResult(result_, newModel);
    updateWhatIfPrediction();
    advisor_->showRecommendation(*result_);
    showModelFacts();
    refreshViews();
    views_->fitColumns();
}

void MainWindow::showModelFacts() {
    const WorkloadTotals& totals = result_->workload().totals;
    const QString modelName = QFileInfo(modelPath_).fileName();
    QStringList assumed;
    for (const std::string& dim : result_->workload().info.assumedShapeDims())
        assumed << QString::fromStdString(dim);
    banner_->setAssumedDims(assumed);
    const QString assumedText =
        assumed.isEmpty() ? QString() : tr("; assumed %1").arg(assumed.join(QStringLiteral(", ")));
    const QString ceilings =
        result_->request.profilePath.empty()
            ? tr(" (derived ceilings)")
            : tr(" (profile %1; modes it lacks are predicted)")
                  .arg(QFileInfo(QString::fromStdString(result_->request.profilePath)).fileName());
    const QString predictor =
        result_->predictorBasis.empty()
            ? QString()
            : tr("; latency, energy and power predicted by %1: %2")
                  .arg(QFileInfo(QString::fromStdString(result_->request.predictorPath)).fileName(),
                       QString::fromStdString(result_->predictorBasis));
    status_->setText(
        tr("%1: %2 layers, %3 GMACs on %4%5%6%7")
            .arg(modelName)
            .arg(totals.layers)
            .arg(double(totals.macs) / 1e9, 0, 'f', 3)
            .arg(QString::fromStdString(result_->device.name), ceilings, predictor, assumedText));
    setWindowTitle(assumed.isEmpty()
                       ? tr("%1 — Rooftop").arg(modelName)
                       : tr("%1 (assumed %2) — Rooftop").arg(modelName, assumed.join(QStringLiteral(", "))));
}

QString MainWindow::statusText() const {
    return status_->text();
}

namespace {

const QString kWhatIfKey = QStringLiteral("whatif");

QString stockKey(const std::string& name) {
    return QStringLiteral("stock:") + QString::fromStdString(name);
}

QString customKey(const std::string& name) {
    return QStringLiteral("custom:") + QString::fromStdString(name);
}

QString modeKey(const PowerMode& mode) {
    return mode.stock ? stockKey(mode.name) : customKey(mode.name);
}

} // namespace

void MainWindow::showModeChoices(bool newBoard) {
    std::vector<ShownModeChoice> choices;
    const Recommendation& recommendation = result_->recommendation;
    const PowerMode* recommended = recommendation.recommended
                                       ? &recommendation.candidates[*recommendation.recommended].profile.mode
                                       : nullptr;
    for (const ModelPrediction& prediction : result_->stockPredictions)
        choices.push_back(
            {stockKey(prediction.profile.mode.name), QString::fromStdString(prediction.profile.mode.name)});
    customPredictions_.clear();
    auto addCustom = [&](const PowerMode& mode, const QString& why) {
        if (mode.stock || customPredictions_.count(mode.name)) return;
        const auto found =
            std::find_if(result_->predictions.begin(), result_->predictions.end(),
                         [&](const ModelPrediction& p) { return p.profile.mode.name == mode.name; });
        customPredictions_.emplace(
            mode.name, found != result_->predictions.end() ? *found : predictMode(*result_, mode));
        choices.push_back(
            {customKey(mode.name), tr("%1 (%2)").arg(QString::fromStdString(readableModeName(mode)), why)});
    };
    if (recommended) addCustom(*recommended, tr("recommended"));
    if (result_->gridHint) addCustom(result_->gridHint->best.profile.mode, tr("custom clocks"));
    choices.push_back({kWhatIfKey, tr("what-if clocks (sliders)")});

    const QString fastest =
        result_->device.stockModes.empty() ? QString() : stockKey(result_->device.fastestStockMode().name);
    const QString recommendedKey = recommended ? modeKey(*recommended) : fastest;
    QString selected = toolbar_->shownModeKey();
    const bool known = std::any_of(choices.begin(), choices.end(),
                                   [&](const ShownModeChoice& choice) { return choice.key == selected; });
    if (newBoard || recommendedKey != recommendedKey_ || !known) selected = recommendedKey;
    if (advisor_->whatIfMode()) selected = kWhatIfKey;
    recommendedKey_ = recommendedKey;
    toolbar_->setShownModeChoices(choices, selected);
    // the recommended stock mode reads as such in the list, its name unchanged
    if (recommended && recommended->stock)
        if (const int index = toolbar_->activeModeBox()->findData(recommendedKey); index >= 0) {
            QFont bold = toolbar_->activeModeBox()->font();
            bold.setBold(true);
            toolbar_->activeModeBox()->setItemData(index, bold, Qt::FontRole);
            toolbar_->activeModeBox()->setItemData(index, tr("The recommended mode"), Qt::ToolTipRole);
        }
}

int MainWindow::shownStockMode() const {
    if (!result_) return 0;
    const QString key = toolbar_->shownModeKey();
    const std::string fastest =
        result_->device.stockModes.empty() ? std::string() : result_->device.fastestStockMode().name;
    int fallback = 0;
    for (size_t i = 0; i < result_->stockPredictions.size(); ++i) {
        const std::string& name = result_->stockPredictions[i].profile.mode.name;
        if (key == stockKey(name)) return int(i);
        if (name == fastest) fallback = int(i);
    }
    return fallback;
}

void MainWindow::shownModeChosen() {
    const bool whatIf = toolbar_->shownModeKey() == kWhatIfKey;
    if (whatIf != advisor_->whatIfMode().has_value()) {
        advisor_->setWhatIfEnabled(whatIf); // whatIfChanged() redraws
        return;
    }
    views_->selection()->setCurrentMode(shownStockMode());
    refreshViews();
}

void MainWindow::whatIfChanged() {
    updateWhatIfPrediction();
    if (advisor_->whatIfMode())
        toolbar_->selectShownMode(kWhatIfKey);
    else if (toolbar_->shownModeKey() == kWhatIfKey)
        toolbar_->selectShownMode(recommendedKey_);
    views_->selection()->setCurrentMode(shownStockMode());
    refreshViews();
}

void MainWindow::analysisFailed(const QString& message) {
    progress_->setVisible(false);
    status_->setText(tr("Analysis failed: %1").arg(message));
    showError(tr("Cannot analyse the model"), message);
}

void MainWindow::modeRowChosen(const models::ModeRow& row) {
    const PowerMode& mode = row.profile.mode;
    const QString key = modeKey(mode);
    if (toolbar_->activeModeBox()->findData(key) >= 0) {
        advisor_->setWhatIf(false);
        toolbar_->selectShownMode(key);
        shownModeChosen();
    } else {
        advisor_->setWhatIf(true, mode.gpuHz, mode.emcHz);
    }
}

void MainWindow::updateWhatIfPrediction() {
    whatIfPrediction_.reset();
    if (!result_) return advisor_->showWhatIfOutcome(nullptr);
    const std::optional<PowerMode> mode = advisor_->whatIfMode();
    if (!mode) return advisor_->showWhatIfOutcome(nullptr);
    const WhatIfOutcome outcome = weighWhatIf(*result_, *mode);
    whatIfPrediction_ = outcome.prediction;
    advisor_->showWhatIfOutcome(&outcome);
}

report::SceneChoice MainWindow::sceneChoice() const {
    report::SceneChoice choice;
    choice.overlaidStockModes = toolbar_->overlaidStockModes();
    choice.activeStockMode = shownStockMode();
    choice.whatIf = whatIfPrediction_;
    const QString key = toolbar_->shownModeKey();
    if (!choice.whatIf && key.startsWith(QStringLiteral("custom:"))) {
        const auto found = customPredictions_.find(key.mid(7).toStdString());
        if (found != customPredictions_.end()) choice.whatIf = found->second;
    }
    return choice;
}

void MainWindow::refreshViews() {
    if (result_) views_->showScene(*result_, sceneChoice());
    syncLayerProfile();
}

bool MainWindow::showsEmptyState() const {
    return central_->currentWidget() == emptyState_;
}

void MainWindow::showView(const QString& view) {
    views_->showView(view);
}

plots::RooflinePlot* MainWindow::timePlot() const {
    return views_->timePlot();
}
plots::RooflinePlot* MainWindow::energyPlot() const {
    return views_->energyPlot();
}
plots::ParetoPlot* MainWindow::paretoPlot() const {
    return views_->modes()->plot();
}
QTableView* MainWindow::layerView() const {
    return views_->layers()->view();
}
QTableView* MainWindow::modesView() const {
    return views_->modes()->view();
}
models::LayerTableModel* MainWindow::layerModel() const {
    return views_->layers()->model();
}
models::LayerFilterProxyModel* MainWindow::layerProxy() const {
    return views_->layers()->proxy();
}
models::PowerModeTableModel* MainWindow::modesModel() const {
    return views_->modes()->model();
}
models::SelectionState* MainWindow::selection() const {
    return views_->selection();
}
QComboBox* MainWindow::activeModeBox() const {
    return toolbar_->activeModeBox();
}
QComboBox* MainWindow::deviceBox() const {
    return toolbar_->boardBox();
}
QSpinBox* MainWindow::batchBox() const {
    return toolbar_->batchBox();
}

QString MainWindow::exportCurrentPlot(const QString& path, int width, int height) {
    return exports_->exportCurrentPlot(path, width, height);
}
QString MainWindow::exportLayerTable(const QString& path) {
    return exports_->exportLayerTable(path);
}
QString MainWindow::exportModesTable(const QString& path) {
    return exports_->exportModesTable(path);
}
QString MainWindow::exportNetronMetrics(const QString& path) {
    return exports_->exportNetronMetrics(path);
}
QString MainWindow::exportReport(const QString& path) {
    return exports_->exportReport(path);
}

} // namespace rooftop::gui
