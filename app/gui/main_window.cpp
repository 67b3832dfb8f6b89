// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: building the window from its parts, asking for analyses and showing their results.
#include "gui/main_window.h"

#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
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
#include "models/mode_row.h"
#include "models/selection_state.h"
#include "report/report_builder.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>

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
    connect(toolbar_, &AnalysisToolbar::requestInputsChanged, this, &MainWindow::scheduleAnalysis);
    connect(toolbar_, &AnalysisToolbar::shownModesChanged, this, [this] {
        views_->selection()->setCurrentMode(toolbar_->activeStockMode());
        refreshViews();
    });
    views_ = new ResultViews(this);
    emptyState_ = new EmptyState(this);
    connect(emptyState_, &EmptyState::openRequested, this, &MainWindow::chooseAndOpen);
    connect(emptyState_, &EmptyState::openPath, this, [this](const QString& path) { openModel(path); });
    central_ = new QStackedWidget(this);
    central_->addWidget(emptyState_);
    central_->addWidget(views_);
    setCentralWidget(central_);
    connect(views_, &ResultViews::modeRowChosen, this, &MainWindow::modeRowChosen);
    buildAdvisorDock();
    exports_ = new WindowExports(*views_, this);
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
    dock->setWidget(advisor_);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    connect(advisor_, &AdvisorPanel::questionChanged, this, &MainWindow::scheduleAnalysis);
    connect(advisor_, &AdvisorPanel::whatIfChanged, this, [this] {
        updateWhatIfPrediction();
        refreshViews();
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
    const WorkloadTotals& totals = result_->workload().totals;
    const QString modelName = QFileInfo(modelPath_).fileName();
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
    status_->setText(tr("%1: %2 layers, %3 GMACs on %4%5%6")
                         .arg(modelName)
                         .arg(totals.layers)
                         .arg(double(totals.macs) / 1e9, 0, 'f', 3)
                         .arg(QString::fromStdString(result_->device.name), ceilings, predictor));
    setWindowTitle(tr("%1 — Rooftop").arg(modelName));
    if (newBoard) {
        advisor_->setDevice(result_->device);
        toolbar_->showStockModes(*result_);
        views_->selection()->setCurrentMode(toolbar_->activeStockMode());
    }
    central_->setCurrentWidget(views_);
    views_->showResult(result_, newModel);
    updateWhatIfPrediction();
    advisor_->showRecommendation(result_->device, result_->recommendation, result_->advisorError);
    refreshViews();
    views_->fitColumns();
}

void MainWindow::analysisFailed(const QString& message) {
    progress_->setVisible(false);
    status_->setText(tr("Analysis failed: %1").arg(message));
    showError(tr("Cannot analyse the model"), message);
}

void MainWindow::modeRowChosen(const models::ModeRow& row) {
    const int stockIndex = toolbar_->activeModeBox()->findText(row.name);
    if (row.profile.mode.stock && stockIndex >= 0) {
        toolbar_->activeModeBox()->setCurrentIndex(stockIndex);
        advisor_->setWhatIf(false);
    } else {
        advisor_->setWhatIf(true, row.profile.mode.gpuHz, row.profile.mode.emcHz);
    }
}

void MainWindow::updateWhatIfPrediction() {
    whatIfPrediction_.reset();
    if (!result_) return;
    const std::optional<PowerMode> mode = advisor_->whatIfMode();
    if (!mode) return;
    whatIfPrediction_ = predictMode(*result_, *mode);
    if (predictorExtrapolates(*result_, *mode))
        statusBar()->showMessage(
            tr("The what-if clocks lie outside the predictor's profiled ranges: its numbers "
               "there are extrapolated"),
            10000);
}

report::SceneChoice MainWindow::sceneChoice() const {
    report::SceneChoice choice;
    choice.overlaidStockModes = toolbar_->overlaidStockModes();
    choice.activeStockMode = toolbar_->activeStockMode();
    choice.whatIf = whatIfPrediction_;
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
