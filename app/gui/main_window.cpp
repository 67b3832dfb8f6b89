// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/main_window.h"

#include "core/llm/llm_pass.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/assumed_dims_banner.h"
#include "gui/background_job.h"
#include "gui/board_catalog.h"
#include "gui/comparison_card.h"
#include "gui/empty_state.h"
#include "gui/layer_panel.h"
#include "gui/layer_profile_import.h"
#include "gui/llm_window.h"
#include "gui/measure_device_flow.h"
#include "gui/measuring_pages.h"
#include "gui/model_attachments.h"
#include "gui/model_opener.h"
#include "gui/modes_panel.h"
#include "gui/result_views.h"
#include "gui/shown_mode_chooser.h"
#include "gui/window_exports.h"
#include "gui/window_geometry.h"
#include "gui/window_menus.h"
#include "gui/window_settings.h"
#include "gui/window_status.h"
#include "models/mode_row.h"
#include "report/report_builder.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>

namespace rooftop::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Rooftop"));
    setObjectName(QStringLiteral("RooftopMainWindow"));
    setAcceptDrops(true);
    analysisDelay_ = new QTimer(this);
    analysisDelay_->setSingleShot(true);
    analysisDelay_->setInterval(150); // coalesces bursts of setting changes into one analysis
    connect(analysisDelay_, &QTimer::timeout, this, &MainWindow::requestAnalysis);
    buildParts();
    wireParts();
    const WindowSettings settings = restoreWindowSettings(*this);
    parts_.views->setCurrentTab(settings.view);
    setTheme(settings.dark ? Theme::Dark : Theme::Light); // the same style, so the same metrics, in both
    BoardCatalog::instance().whenLoaded(
        this, [this](const BoardCatalogContents& contents) { boardsLoaded(contents); });
}

MainWindow::~MainWindow() = default;

void MainWindow::buildParts() {
    Parts& p = parts_;
    p.toolbar = new AnalysisToolbar(this);
    addToolBar(p.toolbar);
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1920, 1080);
    if (toolbarsNeedTwoRows(initialWindowGeometry(available).width())) addToolBarBreak();
    addToolBar(p.toolbar->modeBar());
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    p.banner = new AssumedDimsBanner(central);
    p.comparisonCard = new ComparisonCard(central);
    p.views = new ResultViews(central);
    centralLayout->addWidget(p.banner);
    centralLayout->addWidget(p.comparisonCard);
    centralLayout->addWidget(p.views, 1);
    p.emptyState = new EmptyState(this);
    p.central = new QStackedWidget(this);
    p.central->addWidget(p.emptyState);
    p.central->addWidget(central);
    setCentralWidget(p.central);
    buildAdvisorDock();
    p.shownModes = new ShownModeChooser(*p.toolbar, *p.advisor, *p.views->selection(), this);
    p.exports = new WindowExports(*p.views, this);
    p.attachments = new ModelAttachments(
        *p.toolbar, [this](const QString& board) { return chooseBoard(board, false); }, this);
    p.layerImport = p.attachments->layerImport();
    p.pages = new MeasuringPages(*p.toolbar, *p.advisor, *p.attachments, this);
    p.measurement = p.pages->measurement();
    p.profiling = p.pages->profiling();
    p.tuning = p.pages->tuning();
    p.status = new WindowStatus(statusBar());
    p.timePlot = p.views->timePlot();
    p.energyPlot = p.views->energyPlot();
    p.paretoPlot = p.views->modes()->plot();
    p.layerView = p.views->layers()->view();
    p.modesView = p.views->modes()->view();
    p.layerModel = p.views->layers()->model();
    p.layerProxy = p.views->layers()->proxy();
    p.modesModel = p.views->modes()->model();
    p.selection = p.views->selection();
    p.activeModeBox = p.toolbar->activeModeBox();
    p.deviceBox = p.toolbar->boardBox();
    p.batchBox = p.toolbar->batchBox();
    p.opener = buildWindowMenus(*this);
}

void MainWindow::buildAdvisorDock() {
    parts_.advisor = new AdvisorPanel(this);
    auto* dock = new QDockWidget(tr("Advisor"), this);
    dock->setObjectName(QStringLiteral("AdvisorDock"));
    // on a short screen the advisor scrolls rather than pushing the window off it
    auto* scroll = new QScrollArea(dock);
    parts_.advisorScroll = scroll;
    scroll->setWidget(parts_.advisor);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    dock->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    fitAdvisorDock();
}

void MainWindow::fitAdvisorDock() {
    // the advisor scrolls down but never sideways: its dock is never narrower than its narrowest layout
    QScrollArea* scroll = parts_.advisorScroll;
    scroll->setMinimumWidth(parts_.advisor->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth());
}

void MainWindow::wireParts() {
    const Parts& p = parts_;
    connect(p.toolbar, &AnalysisToolbar::requestInputsChanged, this, &MainWindow::scheduleAnalysis);
    connect(p.toolbar, &AnalysisToolbar::dimsEdited, this, [this](const QString& text) {
        if (!modelPath_.isEmpty()) saveModelDims(modelPath_, text);
    });
    connect(p.banner, &AssumedDimsBanner::editRequested, this, [this] {
        if (!result_) return;
        QStringList dims;
        for (const std::string& dim : result_->workload().info.assumedShapeDims())
            dims << QString::fromStdString(dim);
        const QString typed = parts_.toolbar->dimsText();
        parts_.toolbar->editDims(typed.isEmpty()
                                     ? dims.join(QStringLiteral(", "))
                                     : typed + QStringLiteral(", ") + dims.join(QStringLiteral(", ")),
                                 parts_.banner);
    });
    connect(p.emptyState, &EmptyState::openRequested, p.opener, &ModelOpener::choose);
    connect(p.emptyState, &EmptyState::openPath, this, [this](const QString& path) { openModel(path); });
    connect(p.opener, &ModelOpener::openRequested, this, [this](const QString& path) { openModel(path); });
    connect(p.views, &ResultViews::modeRowChosen, p.shownModes,
            [this](const models::ModeRow& row) { parts_.shownModes->chooseMode(row.profile.mode); });
    connect(p.shownModes, &ShownModeChooser::changed, this, &MainWindow::refreshViews);
    connect(p.advisor, &AdvisorPanel::questionChanged, this, &MainWindow::scheduleAnalysis);
    connect(p.advisor, &AdvisorPanel::precisionRequested, this, [this](const QString& precision) {
        parts_.toolbar->precisionBox()->setCurrentText(precision); // asks again
    });
    connect(p.advisor, &AdvisorPanel::adviseOverGridRequested, this, [this] {
        QComboBox* modeSet = parts_.toolbar->modeSetBox();
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("all")));
    });
    p.exports->setSceneChoice(
        [this] { return parts_.shownModes->sceneChoice(); }); // the report plots what the window shows
    connect(p.exports, &WindowExports::failed, this, &MainWindow::showError);
    connect(p.attachments, &ModelAttachments::changed, this, &MainWindow::scheduleAnalysis);
    connect(p.attachments, &ModelAttachments::runsChanged, p.views->modes(),
            [this](const std::vector<RunRow>& rows, const QString& source) {
                parts_.views->modes()->setRuns(rows, source);
            });
    connect(p.attachments, &ModelAttachments::layerProfileChanged, this, [this] {
        parts_.views->showComparison(parts_.layerImport->sharedComparison());
        parts_.comparisonCard->showComparison(parts_.layerImport->sharedComparison().get(),
                                              parts_.attachments->modeChoices(),
                                              parts_.attachments->measuredMode());
        refreshViews();
    });
    connect(p.attachments, &ModelAttachments::measuredModeChosen, this, &MainWindow::showMeasuredMode);
    connect(p.comparisonCard, &ComparisonCard::measuredModeChosen, p.attachments,
            &ModelAttachments::setMeasuredMode);
    connect(p.comparisonCard, &ComparisonCard::clearRequested, p.layerImport, &LayerProfileImport::clear);
    connect(p.attachments, &ModelAttachments::failed, this, &MainWindow::showError);
    connect(p.attachments, &ModelAttachments::statusMessage, p.status, &WindowStatus::setText);
    connect(p.attachments, &ModelAttachments::modesViewWanted, this,
            [this] { showView(QStringLiteral("modes")); });
    connect(p.pages, &MeasuringPages::failed, this, &MainWindow::showError);
    connect(p.pages, &MeasuringPages::statusMessage, p.status, &WindowStatus::setText);
    connect(p.pages, &MeasuringPages::modesViewWanted, this, [this] { showView(QStringLiteral("modes")); });
    connect(&runner_, &AnalysisRunner::progress, this, [this](const QString& stage) {
        parts_.status->setText(stage);
        parts_.status->setBusy(true);
    });
    connect(&runner_, &AnalysisRunner::finished, this, &MainWindow::analysisFinished);
    connect(&runner_, &AnalysisRunner::failed, this, [this](const QString& message) {
        parts_.pages->setMeasurable(false); // a model that cannot be counted cannot be measured either
        parts_.status->setBusy(false);
        parts_.status->setText(tr("Analysis failed: %1").arg(message));
        showError(tr("Cannot analyse the model"), message);
    });
}

void MainWindow::boardsLoaded(const BoardCatalogContents& contents) {
    boardsLoaded_ = true;
    if (!contents.error.isEmpty()) showError(tr("Board catalog"), contents.error);
    parts_.toolbar->setBoards(*contents.boards);
    runner_.setCatalog(contents.boards);
    parts_.measurement->setAvailability(contents.canMeasure, contents.whyCannotMeasure);
    if (!pendingDeviceId_.isEmpty())
        chooseBoard(pendingDeviceId_, true);
    else
        parts_.toolbar->selectBoard(savedBoard());
    pendingDeviceId_.clear();
    requestAnalysis(); // a model opened while the catalog was loading
}

bool MainWindow::chooseBoard(const QString& deviceId, bool complain) {
    if (!boardsLoaded_) {
        pendingDeviceId_ = deviceId; // chosen once the catalog has loaded
        return true;
    }
    if (parts_.toolbar->selectBoard(deviceId)) return true;
    if (complain) {
        // the ids that are, those like the one asked first (agx-thor: agx-thor-t4000, agx-thor-t5000)
        QStringList like, others;
        const QComboBox* boards = parts_.toolbar->boardBox();
        for (int i = 0; i < boards->count(); ++i) {
            const QString id = boards->itemData(i).toString();
            (id.startsWith(deviceId) || deviceId.startsWith(id) ? like : others) << id;
        }
        showError(tr("Unknown board"), tr("There is no board '%1' in the catalog; the window stays on %2. "
                                          "Board ids: %3.")
                                           .arg(deviceId, boards->currentText(), (like + others).join(", ")));
    }
    return false;
}

void MainWindow::openModel(const QString& path, const QString& deviceId) {
    if (!deviceId.isEmpty()) chooseBoard(deviceId, true);
    if (path.isEmpty()) return;
    if (!QFileInfo(path).isFile())
        return showError(tr("Cannot open the model"), tr("%1 is not a file.").arg(path));
    const QString opened = QFileInfo(path).absoluteFilePath();
    if (opened != modelPath_) // the dims are of one model: its own, as last typed
        parts_.toolbar->setDimsText(savedModelDims(opened));
    modelPath_ = opened;
    parts_.attachments->setModel(opened);
    parts_.opener->remember(opened);
    parts_.pages->setModelOpen(true);
    requestAnalysis();
    // a decoder's questions are per token: its own page, beside the model's rooflines (recognised off the
    // window's thread: it loads the model once more)
    QPointer<MainWindow> self(this);
    const QString board = deviceId.isEmpty() ? parts_.toolbar->boardId() : deviceId;
    QThreadPool::globalInstance()->start([self, opened, board] {
        if (!isLlmDecoder(opened.toStdString()) || !self) return;
        postTo(self.data(), [self, opened, board] {
            if (self && self->modelPath_ == opened) self->openLlmView(board);
        });
    });
}

bool MainWindow::showLlmView() {
    if (modelPath_.isEmpty() || !isLlmDecoder(modelPath_.toStdString())) return false;
    openLlmView(parts_.toolbar->boardId());
    return true;
}

void MainWindow::openLlmView(const QString& board) {
    auto* page = findChild<LlmWindow*>();
    if (!page) page = new LlmWindow(this);
    page->setModel(modelPath_, board.isEmpty() ? parts_.toolbar->boardId() : board);
    page->show();
    page->raise();
    page->analyse();
}

void MainWindow::setDims(const QString& dims) {
    if (!AnalysisToolbar::dimsError(dims).isEmpty()) return;
    parts_.toolbar->setDimsText(dims);
    if (!modelPath_.isEmpty()) saveModelDims(modelPath_, dims);
    requestAnalysis();
}

void MainWindow::scheduleAnalysis() {
    if (!modelPath_.isEmpty()) analysisDelay_->start();
}

void MainWindow::requestAnalysis() {
    if (modelPath_.isEmpty() || parts_.toolbar->boardId().isEmpty())
        return; // the catalog may still be loading
    AnalysisRequest request;
    parts_.toolbar->fillRequest(request);
    parts_.attachments->fillRequest(request);
    request.compareWithGrid = true;   // the advisor card says when custom clocks would save more
    request.comparePrecisions = true; // and when FP16 or INT8 would
    request.constraints = parts_.advisor->constraints();
    request.objective = parts_.advisor->objective();
    report::askForReport(request);
    runner_.start(request);
}

void MainWindow::analysisFinished(std::shared_ptr<const AnalysisResult> result) {
    const bool newBoard = !result_ || result_->device.id != result->device.id;
    const bool newModel = !result_ || result_->request.modelPath != result->request.modelPath;
    result_ = std::move(result);
    parts_.exports->setResult(result_);
    parts_.pages->setResult(result_);
    parts_.pages->setMeasurable(true);
    if (newModel) parts_.attachments->modelAnalysed();
    parts_.status->setBusy(false);
    if (newBoard) {
        parts_.advisor->setDevice(result_->device);
        parts_.toolbar->showStockModes(*result_);
    }
    parts_.shownModes->showResult(result_, newBoard);
    QList<ModeChoice> modes;
    for (const ModelPrediction& stock : result_->stockPredictions)
        modes.push_back({QString::fromStdString(readableModeName(stock.profile.mode)),
                         QString::fromStdString(stock.profile.mode.name)});
    parts_.attachments->setModeChoices(modes);
    parts_.central->setCurrentIndex(1); // the views, not the empty state
    parts_.views->showResult(result_, newModel);
    parts_.advisor->showRecommendation(*result_);
    fitAdvisorDock();
    showModelFacts();
    refreshViews();
    parts_.views->fitColumns();
}

void MainWindow::showModelFacts() {
    QStringList assumed;
    for (const std::string& dim : result_->workload().info.assumedShapeDims())
        assumed << QString::fromStdString(dim);
    parts_.banner->setAssumedDims(assumed);
    parts_.status->showModelFacts(*result_, modelPath_);
    const QString modelName = QFileInfo(modelPath_).fileName();
    setWindowTitle(assumed.isEmpty()
                       ? tr("%1 — Rooftop").arg(modelName)
                       : tr("%1 (assumed %2) — Rooftop").arg(modelName, assumed.join(QStringLiteral(", "))));
}

void MainWindow::refreshViews() {
    if (!result_) return;
    const report::SceneChoice shown = parts_.shownModes->sceneChoice();
    parts_.views->showScene(*result_, shown);
    parts_.attachments->syncLayerProfile(*result_, shown);
}

void MainWindow::showMeasuredMode(const QString& name) {
    if (!result_) return;
    for (const ModelPrediction& stock : result_->stockPredictions)
        if (QString::fromStdString(stock.profile.mode.name).compare(name, Qt::CaseInsensitive) == 0)
            return parts_.shownModes->chooseMode(
                stock.profile.mode); // the points of the mode it was taken in
}

void MainWindow::showView(const QString& view) {
    parts_.views->showView(view);
}

void MainWindow::setTheme(Theme theme) {
    theme_ = theme;
    applyTheme(theme);
    if (auto* dark = findChild<QAction*>(QStringLiteral("DarkPaletteAction"))) {
        const QSignalBlocker block(dark);
        dark->setChecked(theme == Theme::Dark);
    }
    refreshViews();
    parts_.views->redrawModesPlot();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (shown_ || !screen()) return;
    shown_ = true;
    keepFrameInsideScreen(*this);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    parts_.pages->stopAll();
    saveWindowSettings(*this, {parts_.views->currentTab(), theme_ == Theme::Dark, parts_.toolbar->boardId()});
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (ModelOpener::acceptsDrag(event->mimeData())) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = ModelOpener::droppedFiles(event->mimeData());
    if (files.isEmpty()) return;
    event->acceptProposedAction();
    // The first model opens here, each further one in a window of its own on the same board.
    for (int i = 1; i < files.size(); ++i) {
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->openModel(files[i], parts_.toolbar->boardId());
    }
    openModel(files.front());
}

void MainWindow::showError(const QString& title, const QString& message) {
    // over the dialog that is open, if one is: a box behind a modal dialog cannot be clicked
    QWidget* dialog = QApplication::activeModalWidget();
    // the same failure reported twice (the model and an attachment of it both failing on one file) is one box
    for (QMessageBox* shown : findChildren<QMessageBox*>())
        if (shown->isVisible() && shown->windowTitle() == title && shown->text() == message) {
            shown->raise();
            return;
        }
    auto* box =
        new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, dialog ? dialog : this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (dialog)
        box->setWindowModality(Qt::WindowModal);
    else
        box->setModal(false);
    box->show();
}

} // namespace rooftop::gui
