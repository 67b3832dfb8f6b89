// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: menus, the board catalog, files (open, recent, drag-and-drop, profiles), settings and closing.
#include "core/compare/profile_kind.h"
#include "core/device/measured_profile.h"
#include "core/learn/predictor_file.h"
#include "core/measure/runner_spec.h"
#include "core/measure/runs_file.h"
#include "core/measure/trtexec_runner.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/background_job.h"
#include "gui/board_catalog.h"
#include "gui/layer_panel.h"
#include "gui/layer_profile_dialog.h"
#include "gui/layer_profile_import.h"
#include "gui/main_window.h"
#include "gui/measure_device_flow.h"
#include "gui/modes_panel.h"
#include "gui/plan_window.h"
#include "gui/profile_model_flow.h"
#include "gui/recent_files.h"
#include "gui/result_views.h"
#include "gui/tune_model_flow.h"
#include "gui/window_exports.h"
#include "gui/window_geometry.h"
#include "models/layer_filter_proxy_model.h"
#include "models/model_export.h"
#include "plots/plot_base.h"
#include "report/scene_builder.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QSpinBox>
#include <QToolBar>
#include <algorithm>
#include <cmath>

namespace rooftop::gui {

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open model…"), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
    recentFiles_ = new RecentFiles(file->addMenu(tr("Open &recent")));
    connect(recentFiles_, &RecentFiles::openRequested, this,
            [this](const QString& path) { openModel(path); });
    file->addAction(tr("Load measured &profile…"), this, &MainWindow::chooseMeasuredProfile);
    file->addAction(tr("Open r&uns file…"), this, &MainWindow::chooseRunsFile);
    file->addAction(tr("Load pre&dictor…"), this, &MainWindow::choosePredictorFile);
    file->addAction(tr("Load runtime fi&le…"), this, &MainWindow::chooseRuntimeFile);
    file->addAction(layerImport_->importAction());
    connect(layerImport_->importAction(), &QAction::triggered, this, &MainWindow::chooseLayerProfile);
    file->addAction(layerImport_->clearAction());
    file->addSeparator();
    file->addAction(tr("&Export plot…"), QKeySequence(tr("Ctrl+E")), exports_,
                    &WindowExports::chooseAndExportPlot);
    file->addAction(tr("Export layer &table…"), QKeySequence(tr("Ctrl+Shift+E")), exports_,
                    [this] { exports_->chooseAndExportTable(false); });
    file->addAction(tr("Export power &modes table…"), exports_,
                    [this] { exports_->chooseAndExportTable(true); });
    file->addAction(tr("Export &Netron metrics…"), exports_, &WindowExports::chooseAndExportNetron);
    file->addAction(tr("Write &report…"), QKeySequence(tr("Ctrl+R")), exports_,
                    &WindowExports::chooseAndExportReport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset zoom"), QKeySequence(tr("Ctrl+0")), this,
                    [this] { views_->currentPlot()->resetView(); });
    view->addAction(tr("Time roofline"), QKeySequence(tr("Ctrl+1")), this,
                    [this] { showView(QStringLiteral("time")); });
    view->addAction(tr("Energy roofline"), QKeySequence(tr("Ctrl+2")), this,
                    [this] { showView(QStringLiteral("energy")); });
    view->addAction(tr("Power modes"), QKeySequence(tr("Ctrl+3")), this,
                    [this] { showView(QStringLiteral("modes")); });
    view->addSeparator();
    // every dock and toolbar can be hidden and brought back
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    for (QToolBar* bar : {static_cast<QToolBar*>(toolbar_), toolbar_->modeBar()}) {
        QAction* toggle = bar->toggleViewAction();
        toggle->setText(tr("%1 toolbar").arg(bar->windowTitle()));
        view->addAction(toggle);
    }
    view->addSeparator();
    QAction* dark = view->addAction(tr("&Dark palette"));
    dark->setCheckable(true);
    dark->setObjectName(QStringLiteral("DarkPaletteAction"));
    connect(dark, &QAction::toggled, this, [this](bool on) { setTheme(on ? Theme::Dark : Theme::Light); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("Find &layer"), this, [this] { views_->layers()->focusFilter(); });
    edit->addAction(tr("Set &dims…"), this, [this] { toolbar_->editDims(toolbar_->dimsText()); });
    edit->addAction(tr("&Copy table rows"), QKeySequence::Copy, this, [this] {
        QApplication::clipboard()->setText(models::modelToCsv(*layerProxy()));
        status_->setText(tr("Copied %1 rows as CSV").arg(layerProxy()->rowCount()));
    });

    QMenu* device = menuBar()->addMenu(tr("&Device"));
    device->addAction(measurement_->action());
    connect(measurement_->action(), &QAction::triggered, this,
            [this] { measurement_->measure(toolbar_->boardId()); });
    device->addAction(profiling_->action());
    connect(profiling_->action(), &QAction::triggered, this, &MainWindow::profileModel);
    device->addAction(tuning_->action());
    connect(tuning_->action(), &QAction::triggered, this, &MainWindow::tuneModel);
    device->addAction(tr("P&lan training beside inference…"), this, [this] {
        auto* plan = findChild<PlanWindow*>();
        if (!plan) plan = new PlanWindow(this);
        const Constraints limits = advisor_->constraints();
        plan->setDefaults(modelPath_, toolbar_->boardId(),
                          limits.latencySloSeconds ? 1e3 * *limits.latencySloSeconds : 0.0,
                          limits.powerCapWatts ? *limits.powerCapWatts : 0.0);
        plan->show();
        plan->raise();
    });
    device->setToolTipsVisible(true);
    device->addAction(tr("Use &derived ceilings"), this, [this] {
        profilePath_.clear();
        scheduleAnalysis();
    });
    device->addAction(tr("Use Rooftop's &predictions (drop the predictor)"), this,
                      &MainWindow::dropPredictor);
}

void MainWindow::setTheme(Theme theme) {
    theme_ = theme;
    applyTheme(theme);
    if (auto* dark = findChild<QAction*>(QStringLiteral("DarkPaletteAction"))) {
        const QSignalBlocker block(dark);
        dark->setChecked(theme == Theme::Dark);
    }
    refreshViews();
    views_->redrawModesPlot();
}

void MainWindow::boardsLoaded(const BoardCatalogContents& contents) {
    boardsLoaded_ = true;
    if (!contents.error.isEmpty()) showError(tr("Board catalog"), contents.error);
    toolbar_->setBoards(*contents.boards);
    runner_.setCatalog(contents.boards);
    measurement_->setAvailability(contents.canMeasure, contents.whyCannotMeasure);
    if (!pendingDeviceId_.isEmpty())
        selectBoardOrComplain(pendingDeviceId_);
    else
        toolbar_->selectBoard(
            QSettings().value(QStringLiteral("lastDevice"), QStringLiteral("agx-orin-64gb")).toString());
    pendingDeviceId_.clear();
    requestAnalysis(); // a model opened while the catalog was loading
}

bool MainWindow::selectBoardOrComplain(const QString& deviceId) {
    if (toolbar_->selectBoard(deviceId)) return true;
    showError(tr("Unknown board"), tr("There is no board '%1' in the catalog.").arg(deviceId));
    return false;
}

void MainWindow::openModel(const QString& path, const QString& deviceId) {
    if (!deviceId.isEmpty()) {
        if (boardsLoaded_)
            selectBoardOrComplain(deviceId);
        else
            pendingDeviceId_ = deviceId;
    }
    if (path.isEmpty()) return;
    if (!QFileInfo(path).isFile()) {
        showError(tr("Cannot open the model"), tr("%1 is not a file.").arg(path));
        return;
    }
    const QString opened = QFileInfo(path).absoluteFilePath();
    if (opened != modelPath_) clearLayerProfile(); // a measured layer profile is of one model
    if (opened != modelPath_)                      // the dims are of one model: its own, as last typed
        toolbar_->setDimsText(QSettings().value(QStringLiteral("modelDims/") + opened).toString());
    modelPath_ = opened;
    recentFiles_->add(modelPath_);
    profiling_->setModelOpen(true);
    tuning_->setModelOpen(true);
    layerImport_->setModelOpen(true);
    requestAnalysis();
}

void MainWindow::setDims(const QString& dims) {
    if (!AnalysisToolbar::dimsError(dims).isEmpty()) return;
    toolbar_->setDimsText(dims);
    if (!modelPath_.isEmpty())
        QSettings().setValue(QStringLiteral("modelDims/") + modelPath_, dims.trimmed());
    requestAnalysis();
}

void MainWindow::chooseAndOpen() {
    const QString start = modelPath_.isEmpty() ? QString() : QFileInfo(modelPath_).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), start,
                                                      tr("ONNX models (*.onnx);;All files (*)"));
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::chooseMeasuredProfile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load measured profile"), QString(),
                                                      tr("Rooftop profiles (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString deviceId;
    try {
        deviceId = QString::fromStdString(loadMeasuredProfile(path.toStdString()).deviceId);
    } catch (const std::exception& error) {
        return showError(tr("Load measured profile"), QString::fromUtf8(error.what()));
    }
    toolbar_->selectBoard(deviceId); // the profile's board
    useProfile(path, deviceId);
}

void MainWindow::chooseFileOfTheModel(const QString& title, const QString& filter,
                                      QString (MainWindow::*load)(const QString&)) {
    if (modelPath_.isEmpty()) return showError(title, tr("Open the model it is of first."));
    const QString path =
        QFileDialog::getOpenFileName(this, title, QFileInfo(modelPath_).absolutePath(), filter);
    if (path.isEmpty()) return;
    const QString why = (this->*load)(path);
    if (!why.isEmpty()) return showError(title, why);
    showView(QStringLiteral("modes"));
}

void MainWindow::chooseRunsFile() {
    chooseFileOfTheModel(tr("Open runs file"), tr("Runs files (*.csv);;All files (*)"),
                         &MainWindow::loadRunsFile);
}

QString MainWindow::loadRunsFile(const QString& path) {
    std::vector<RunRow> rows;
    try {
        rows = readRunsFile(path.toStdString());
        if (!modelPath_.isEmpty())
            checkRunsAreOf(rows, path.toStdString(), runsModelKey(modelPath_.toStdString()));
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    runsModel_ = modelPath_;
    views_->modes()->setRuns(std::move(rows), QFileInfo(path).fileName());
    return {};
}

void MainWindow::chooseRuntimeFile() {
    const QString title = tr("Load runtime file");
    const QString path = QFileDialog::getOpenFileName(
        this, title, modelPath_.isEmpty() ? QString() : QFileInfo(modelPath_).absolutePath(),
        tr("Rooftop runtime files (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    const QString why = useRuntimeFile(path);
    if (!why.isEmpty()) showError(title, why);
}

QString MainWindow::useRuntimeFile(const QString& path) {
    return toolbar_->addRuntimeFile(path);
}

void MainWindow::choosePredictorFile() {
    chooseFileOfTheModel(tr("Load predictor"), tr("Rooftop predictors (*.json);;All files (*)"),
                         &MainWindow::loadPredictorFile);
}

QString MainWindow::loadPredictorFile(const QString& path) {
    if (modelPath_.isEmpty()) return tr("Open the model the predictor was learned for first.");
    QString board;
    Predictor predictor;
    try {
        predictor = loadPredictor(path.toStdString());
        checkPredictorFits(predictor, path.toStdString(), predictor.board, modelPath_.toStdString());
        board = QString::fromStdString(predictor.board);
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    if (!boardsLoaded_)
        pendingDeviceId_ = board; // chosen once the catalog has loaded
    else if (!toolbar_->selectBoard(board))
        return tr("%1: the predictor's board %2 is not in the catalog").arg(path, board);
    predictorPath_ = path;
    predictorModel_ = modelPath_;
    predictorDevice_ = board;
    if (runsModel_ != modelPath_) showPredictorRuns(predictor, QFileInfo(path).fileName());
    scheduleAnalysis();
    return {};
}

void MainWindow::showPredictorRuns(const Predictor& predictor, const QString& source) {
    std::vector<RunRow> rows;
    for (const HeldOutRun& run : predictor.heldOut) {
        if (run.runner.empty()) return; // an older file cannot say whether its runs were measured
        RunResult result; // the run as its runner measured it: no p99, so the median (RunResult::p99Ms)
        result.ok = true;
        result.latencyMs = result.p99Ms = run.measuredSeconds * 1e3;
        if (std::isfinite(run.measuredWatts)) result.powerW = run.measuredWatts;
        const RunRow row =
            runRowFrom(RunConfig{run.mode, run.batch, run.precision, "inference"}, result, run.runner);
        rows.push_back(row);
    }
    if (rows.empty()) return;
    runsModel_ = modelPath_;
    views_->modes()->setRuns(std::move(rows), tr("%1, its runs").arg(source));
}

void MainWindow::dropPredictor() {
    if (predictorPath_.isEmpty()) return;
    predictorPath_.clear();
    scheduleAnalysis();
}

void MainWindow::chooseLayerProfile() {
    const QString title = tr("Import measured layer profile");
    if (modelPath_.isEmpty()) return showError(title, tr("Open the model the profile is of first."));
    const QString path = QFileDialog::getOpenFileName(
        this, title, QFileInfo(modelPath_).absolutePath(),
        tr("Layer profiles (*.json *.csv);;trtexec --exportProfile or ONNX Runtime profile (*.json);;"
           "Nsight Compute CSV (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    ProfileKindGuess guess;
    try {
        guess = guessProfileKind(path.toStdString());
    } catch (const std::exception& error) {
        return showError(title, firstLine(error.what()));
    }
    if (guess.layerInfo)
        return showError(title, tr("%1 is a trtexec --exportLayerInfo file: choose the --exportProfile file "
                                   "and give this one as its layer info.")
                                    .arg(QFileInfo(path).fileName()));
    LayerProfileDialog dialog(path, guess, this);
    if (dialog.exec() != QDialog::Accepted) return;
    const QString why = importLayerProfile(path, dialog.layerInfoPath(), dialog.source());
    if (!why.isEmpty()) showError(title, why);
}

QString MainWindow::importLayerProfile(const QString& path, const QString& layerInfoPath,
                                       std::optional<ProfileSource> source) {
    if (modelPath_.isEmpty()) return tr("Open the model the profile is of first.");
    if (!source) {
        ProfileKindGuess guess;
        try {
            guess = guessProfileKind(path.toStdString());
        } catch (const std::exception& error) {
            return firstLine(error.what());
        }
        if (guess.layerInfo)
            return tr("%1 is a trtexec --exportLayerInfo file, not a profile")
                .arg(QFileInfo(path).fileName());
        if (!guess.source)
            return tr("%1: cannot tell which tool wrote it (trtexec --exportProfile, ONNX Runtime profile or "
                      "Nsight Compute CSV)")
                .arg(QFileInfo(path).fileName());
        source = guess.source;
    }
    if (!layerInfoPath.isEmpty() && *source != ProfileSource::Trtexec)
        return tr("a layer info file goes with a trtexec profile only");
    CompareRequest files;
    files.source = *source;
    files.profilePath = path.toStdString();
    files.layerInfoPath = layerInfoPath.toStdString();
    layerImport_->clear();
    layerProfile_ = files;
    syncLayerProfile(); // now, or once the model's analysis has finished
    return {};
}

void MainWindow::clearLayerProfile() {
    layerProfile_.reset();
    layerImport_->clear();
}

std::optional<CompareRequest> MainWindow::layerProfileRequest() const {
    // until the open model's analysis has finished, the result is of the model before
    if (!layerProfile_ || !result_ || result_->request.modelPath != modelPath_.toStdString())
        return std::nullopt;
    const report::SceneChoice choice = sceneChoice(); // the what-if prediction lives in it
    const ModelPrediction* shown = report::activePrediction(*result_, choice);
    if (!shown) return std::nullopt;
    CompareRequest request = *layerProfile_;
    request.analysis = result_->request;
    const PowerMode& mode = shown->profile.mode;
    request.mode = mode.stock
                       ? mode.name
                       : "cores=" + std::to_string(mode.onlineCores) + ",cpu=" + std::to_string(mode.cpuKhz) +
                             ",gpu=" + std::to_string(mode.gpuHz) + ",emc=" + std::to_string(mode.emcHz);
    return request;
}

void MainWindow::syncLayerProfile() {
    const std::optional<CompareRequest> wanted = layerProfileRequest();
    if (!wanted) return;
    const std::optional<CompareRequest>& current = layerImport_->request();
    if (current && comparisonKey(*current) == comparisonKey(*wanted)) return;
    layerImport_->start(*wanted);
}

void MainWindow::profileModel() {
    if (modelPath_.isEmpty()) return;
    ProfileDialogDefaults defaults;
    defaults.modelPath = modelPath_;
    defaults.deviceId = toolbar_->boardId();
    defaults.deviceName = toolbar_->boardBox()->currentText();
    defaults.batch = std::max(1, batchBox()->value());
    if (result_ && result_->request.settings.precision != Precision::AsModel)
        defaults.precision = QString::fromStdString(precisionName(result_->request.settings.precision));
    defaults.trtexecPath = QString::fromStdString(findTrtexec());
    profiling_->profile(defaults);
}

void MainWindow::tuneModel() {
    if (modelPath_.isEmpty()) return;
    ProfileDialogDefaults defaults;
    defaults.modelPath = modelPath_;
    defaults.deviceId = toolbar_->boardId();
    defaults.deviceName = toolbar_->boardBox()->currentText();
    defaults.batch = std::max(1, batchBox()->value());
    if (result_ && result_->request.settings.precision != Precision::AsModel)
        defaults.precision = QString::fromStdString(precisionName(result_->request.settings.precision));
    defaults.trtexecPath = QString::fromStdString(findTrtexec());
    tuning_->tune(defaults, advisor_->constraints(), advisor_->objective());
}

void MainWindow::applyTune() {
    const std::optional<TuneReport>& report = tuning_->lastReport();
    if (!report || !report->outcome.recommended) return;
    const TuneConfig& best =
        report->space.configs[report->outcome.samples[*report->outcome.recommended].config];
    const PowerMode& mode = best.mode;
    const int64_t batch = best.batch;
    const QString runsPath = QString::fromStdString(report->options.runsPath);
    const Constraints& limits = report->options.limits;
    const Objective objective = report->options.objective;
    batchBox()->setValue(int(batch));
    if (mode.stock)
        advisor_->setWhatIf(false); // an earlier what-if would hide the stock answer
    else
        advisor_->setWhatIf(true, mode.gpuHz, mode.emcHz);
    advisor_->setQuestion(limits, objective);
    const QString why = loadRunsFile(runsPath);
    if (!why.isEmpty()) return showError(tr("Open runs file"), why);
    showView(QStringLiteral("modes"));
    status_->setText(tr("Applied the tune: %1 (%2 cores at %3 MHz) at batch %4, %5 (%6)")
                         .arg(QString::fromStdString(mode.name))
                         .arg(mode.onlineCores)
                         .arg(double(mode.cpuKhz) / 1e3, 0, 'f', 0)
                         .arg(batch)
                         .arg(QString::fromStdString(best.precision),
                              QString::fromStdString(runProvenance(report->runner))));
}

void MainWindow::useProfile(const QString& path, const QString& deviceId) {
    profilePath_ = path;
    profileDevice_ = deviceId;
    scheduleAnalysis();
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    views_->setCurrentTab(settings.value(QStringLiteral("window/view"), 0).toInt());
    if (settings.value(QStringLiteral("theme")).toString() == QLatin1String("dark")) setTheme(Theme::Dark);
    fitToScreen(settings.contains(QStringLiteral("window/geometry")));
}

void MainWindow::fitToScreen(bool restored) {
    const QScreen* where = screen();
    if (!where) return;
    const QRect available = where->availableGeometry();
    if (restored) {
        const QRect fitted = fitInside(geometry(), available);
        if (fitted != geometry()) setGeometry(fitted);
        return;
    }
    setGeometry(initialWindowGeometry(available));
    if (isSmallScreen(available)) setWindowState(windowState() | Qt::WindowMaximized);
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/view"), views_->currentTab());
    if (!toolbar_->boardId().isEmpty()) settings.setValue(QStringLiteral("lastDevice"), toolbar_->boardId());
    settings.setValue(QStringLiteral("theme"),
                      theme_ == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light"));
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (shown_ || !screen()) return;
    shown_ = true;
    // the frame is known only now: keep it, not just the client area, inside the available area
    const QRect available = screen()->availableGeometry();
    const QRect frame = frameGeometry();
    if (available.contains(frame)) return;
    const QRect client = geometry();
    const QMargins margins(client.left() - frame.left(), client.top() - frame.top(),
                           frame.right() - client.right(), frame.bottom() - client.bottom());
    setGeometry(fitInside(frame, available).marginsRemoved(margins));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (measurement_->running()) {
        // The sweep restores the board's original mode when it stops: wait for that (and only that) first.
        status_->setText(tr("Stopping the measurement and restoring the power mode…"));
        measurement_->stopAndWait();
    }
    if (profiling_->running()) {
        status_->setText(tr("Stopping the profile and restoring the power mode…"));
        profiling_->stopAndWait();
    }
    if (tuning_->running()) {
        status_->setText(tr("Stopping the tune and restoring the power mode…"));
        tuning_->stopAndWait();
    }
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    const bool allLocal =
        std::all_of(urls.begin(), urls.end(), [](const QUrl& url) { return url.isLocalFile(); });
    if (!urls.isEmpty() && allLocal) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty()) return;
    event->acceptProposedAction();
    // The first model opens here, each further one in a window of its own on the same board.
    for (int i = 1; i < urls.size(); ++i) {
        if (!urls[i].isLocalFile()) continue;
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->openModel(urls[i].toLocalFile(), toolbar_->boardId());
    }
    if (urls.front().isLocalFile()) openModel(urls.front().toLocalFile());
}

void MainWindow::showError(const QString& title, const QString& message) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

} // namespace rooftop::gui
