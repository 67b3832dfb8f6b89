// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/main_window.h"
#include "report/report_builder.h"

#include "core/device/catalog.h"
#include "core/platform/detected_catalog.h"
#include "core/device/runtime_profile.h"
#include "gui/advisor_panel.h"
#include "models/item_roles.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "models/mode_row.h"
#include "models/power_mode_table_model.h"
#include "models/selection_state.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace rooftop::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Rooftop"));
    setObjectName(QStringLiteral("RooftopMainWindow"));
    setAcceptDrops(true);
    selection_ = new models::SelectionState(this);
    analysisDelay_ = new QTimer(this);
    analysisDelay_->setSingleShot(true);
    analysisDelay_->setInterval(150); // coalesces bursts of setting changes into one analysis
    connect(analysisDelay_, &QTimer::timeout, this, &MainWindow::requestAnalysis);

    buildToolbar();
    buildCentralViews();
    buildMenus();
    connectSelection();

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->setVisible(false);
    status_ = new QLabel(tr("Open a model (Ctrl+O) or drop an .onnx file here."), this);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);

    connect(&runner_, &AnalysisRunner::progress, this, [this](const QString& stage) {
        status_->setText(stage);
        progress_->setVisible(true);
    });
    connect(&runner_, &AnalysisRunner::finished, this, &MainWindow::analysisFinished);
    connect(&runner_, &AnalysisRunner::failed, this, &MainWindow::analysisFailed);

    loadDevices();
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildToolbar() {
    QToolBar* bar = addToolBar(tr("Analysis"));
    bar->setObjectName(QStringLiteral("AnalysisToolbar"));
    auto labelled = [&](const QString& text, QWidget* widget) {
        bar->addWidget(new QLabel(QStringLiteral(" %1 ").arg(text), bar));
        bar->addWidget(widget);
    };
    deviceBox_ = new QComboBox(bar);
    deviceBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    labelled(tr("Board"), deviceBox_);
    precisionBox_ = new QComboBox(bar);
    for (const char* name : {"as-model", "fp32", "fp16", "int8"}) precisionBox_->addItem(QString::fromLatin1(name));
    labelled(tr("Precision"), precisionBox_);
    batchBox_ = new QSpinBox(bar);
    batchBox_->setRange(1, 4096);
    labelled(tr("Batch"), batchBox_);
    trafficBox_ = new QComboBox(bar);
    trafficBox_->addItem(tr("per-node"), QStringLiteral("per-node"));
    trafficBox_->addItem(tr("fused"), QStringLiteral("fused"));
    trafficBox_->setToolTip(tr("DRAM traffic model: every node reads and writes DRAM, or TensorRT-like fusion"));
    labelled(tr("Traffic"), trafficBox_);
    runtimeBox_ = new QComboBox(bar);
    for (const RuntimeProfile& runtime : knownRuntimes()) runtimeBox_->addItem(QString::fromStdString(runtime.name));
    labelled(tr("Runtime"), runtimeBox_);
    bar->addSeparator();
    overlayMenu_ = new QMenu(this);
    overlayButton_ = new QToolButton(bar);
    overlayButton_->setText(tr("Roofs"));
    overlayButton_->setToolTip(tr("Power modes whose roofs the plots overlay"));
    overlayButton_->setMenu(overlayMenu_);
    overlayButton_->setPopupMode(QToolButton::InstantPopup);
    bar->addWidget(overlayButton_);
    activeModeBox_ = new QComboBox(bar);
    activeModeBox_->setToolTip(tr("The mode whose predictions the layer table and the points show"));
    labelled(tr("Points for"), activeModeBox_);
    modeSetBox_ = new QComboBox(bar);
    modeSetBox_->addItem(tr("stock modes"), QStringLiteral("stock"));
    modeSetBox_->addItem(tr("custom grid"), QStringLiteral("grid"));
    modeSetBox_->addItem(tr("stock + grid"), QStringLiteral("all"));
    modeSetBox_->setToolTip(tr("The modes the advisor chooses among"));
    labelled(tr("Advise over"), modeSetBox_);

    for (QComboBox* box : {deviceBox_, precisionBox_, trafficBox_, runtimeBox_, modeSetBox_})
        connect(box, &QComboBox::currentIndexChanged, this, &MainWindow::scheduleAnalysis);
    connect(batchBox_, &QSpinBox::valueChanged, this, &MainWindow::scheduleAnalysis);
    connect(activeModeBox_, &QComboBox::currentIndexChanged, this, [this] {
        selection_->setCurrentMode(activeModeBox_->currentIndex());
        refreshViews();
    });
}

void MainWindow::buildCentralViews() {
    layerModel_ = new models::LayerTableModel(this);
    layerProxy_ = new models::LayerFilterProxyModel(this);
    layerProxy_->setSourceModel(layerModel_);
    auto* layerPanel = new QWidget(this);
    auto* layerLayout = new QVBoxLayout(layerPanel);
    layerLayout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    nameFilter_ = new QLineEdit(layerPanel);
    nameFilter_->setPlaceholderText(tr("Filter layers by name"));
    nameFilter_->setClearButtonEnabled(true);
    opFilter_ = new QComboBox(layerPanel);
    opFilter_->addItem(tr("all ops"), QString());
    filterRow->addWidget(nameFilter_, 1);
    filterRow->addWidget(opFilter_);
    layerLayout->addLayout(filterRow);
    layerView_ = new QTableView(layerPanel);
    layerView_->setModel(layerProxy_);
    layerView_->setSortingEnabled(true);
    layerView_->sortByColumn(-1, Qt::AscendingOrder); // graph order until the user sorts
    layerView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    layerView_->setSelectionMode(QAbstractItemView::SingleSelection);
    layerView_->setAlternatingRowColors(true);
    layerView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    layerView_->verticalHeader()->hide();
    layerView_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    layerView_->setWordWrap(false);
    layerLayout->addWidget(layerView_, 1);
    totals_ = new QLabel(layerPanel);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setWordWrap(true);
    layerLayout->addWidget(totals_);
    connect(nameFilter_, &QLineEdit::textChanged, layerProxy_, &models::LayerFilterProxyModel::setNameFilter);
    connect(opFilter_, &QComboBox::currentIndexChanged, this,
            [this] { layerProxy_->setOpFilter(opFilter_->currentData().toString()); });

    timePlot_ = new plots::RooflinePlot(plots::RooflineKind::Time, this);
    timePlot_->setObjectName(QStringLiteral("time-roofline"));
    energyPlot_ = new plots::RooflinePlot(plots::RooflineKind::Energy, this);
    energyPlot_->setObjectName(QStringLiteral("energy-roofline"));

    modesModel_ = new models::PowerModeTableModel(this);
    modesProxy_ = new QSortFilterProxyModel(this);
    modesProxy_->setSourceModel(modesModel_);
    modesProxy_->setSortRole(models::SortRole);
    modesView_ = new QTableView(this);
    modesView_->setModel(modesProxy_);
    modesView_->setSortingEnabled(true);
    modesView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    modesView_->setSelectionMode(QAbstractItemView::SingleSelection);
    modesView_->verticalHeader()->hide();
    modesView_->setAlternatingRowColors(true);
    paretoPlot_ = new plots::ParetoPlot(this);
    paretoPlot_->setObjectName(QStringLiteral("pareto"));
    auto* modesSplitter = new QSplitter(Qt::Vertical, this);
    modesSplitter->addWidget(modesView_);
    modesSplitter->addWidget(paretoPlot_);
    modesSplitter->setStretchFactor(1, 2);

    tabs_ = new QTabWidget(this);
    tabs_->addTab(timePlot_, tr("Time roofline"));
    tabs_->addTab(energyPlot_, tr("Energy roofline"));
    tabs_->addTab(modesSplitter, tr("Power modes"));

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("MainSplitter"));
    splitter->addWidget(layerPanel);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({560, 760});
    setCentralWidget(splitter);

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

void MainWindow::connectSelection() {
    connect(layerView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (syncingSelection_ || !current.isValid()) return;
                const LayerCount* layer = layerModel_->layerAt(layerProxy_->sourceRow(current.row()));
                selection_->setCurrentLayer(layer ? layer->nodeIndex : -1);
            });
    for (plots::RooflinePlot* plot : {timePlot_, energyPlot_})
        connect(plot, &plots::PlotBase::pointClicked, selection_, &models::SelectionState::setCurrentLayer);
    connect(selection_, &models::SelectionState::layerSelected, this, [this](int nodeIndex) {
        timePlot_->setSelectedLayer(nodeIndex);
        energyPlot_->setSelectedLayer(nodeIndex);
        const int sourceRow = layerModel_->rowOfNode(nodeIndex);
        if (sourceRow < 0) return;
        const QModelIndex proxyIndex = layerProxy_->mapFromSource(layerModel_->index(sourceRow, 0));
        if (!proxyIndex.isValid()) return;
        syncingSelection_ = true;
        layerView_->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                                      QItemSelectionModel::Rows);
        layerView_->scrollTo(proxyIndex);
        syncingSelection_ = false;
    });
    connect(modesView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const models::ModeRow* row =
                    current.isValid() ? modesModel_->rowAt(modesProxy_->mapToSource(current).row()) : nullptr;
                if (!row) return;
                const int stockIndex = activeModeBox_->findText(row->name);
                if (row->profile.mode.stock && stockIndex >= 0) {
                    activeModeBox_->setCurrentIndex(stockIndex);
                    advisor_->setWhatIf(false);
                } else {
                    advisor_->setWhatIf(true, row->profile.mode.gpuHz, row->profile.mode.emcHz);
                }
                if (result_)
                    for (size_t i = 0; i < result_->recommendation.candidates.size(); ++i)
                        if (QString::fromStdString(result_->recommendation.candidates[i].profile.mode.name) == row->name &&
                            result_->recommendation.candidates[i].batch == row->batch)
                            paretoPlot_->setSelectedCandidate(int(i));
            });
    connect(paretoPlot_, &plots::PlotBase::pointClicked, this, [this](int candidate) {
        if (!result_ || size_t(candidate) >= result_->recommendation.candidates.size()) return;
        const Candidate& chosen = result_->recommendation.candidates[size_t(candidate)];
        const int row = modesModel_->rowOfMode(QString::fromStdString(chosen.profile.mode.name), chosen.batch);
        if (row < 0) return;
        const QModelIndex index = modesProxy_->mapFromSource(modesModel_->index(row, 0));
        modesView_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        modesView_->scrollTo(index);
    });
}

void MainWindow::loadDevices() {
    const QSignalBlocker block(deviceBox_);
    deviceBox_->clear();
    try {
        for (const DeviceSpec& device : loadCatalogWithDetected(defaultCatalogFolder()))
            deviceBox_->addItem(QString::fromStdString(device.name), QString::fromStdString(device.id));
    } catch (const std::exception& error) {
        showError(tr("Board catalog"), QString::fromUtf8(error.what()));
    }
}

void MainWindow::scheduleAnalysis() {
    if (!modelPath_.isEmpty()) analysisDelay_->start();
}

void MainWindow::requestAnalysis() {
    if (modelPath_.isEmpty() || deviceBox_->currentIndex() < 0) return;
    AnalysisRequest request;
    request.modelPath = modelPath_.toStdString();
    request.deviceId = deviceBox_->currentData().toString().toStdString();
    parsePrecision(precisionBox_->currentText().toStdString(), request.settings.precision);
    parseTrafficView(trafficBox_->currentData().toString().toStdString(), request.settings.traffic);
    if (batchBox_->value() > 1) request.settings.dims.batch = batchBox_->value();
    request.runtime.name = runtimeBox_->currentText().toStdString();
    if (!profilePath_.isEmpty() && profileDevice_ == deviceBox_->currentData().toString())
        request.profilePath = profilePath_.toStdString(); // a profile is of one board: others use derived ceilings
    request.modes = modeSetBox_->currentData().toString().toStdString();
    request.constraints = advisor_->constraints();
    request.objective = advisor_->objective();
    report::askForReport(request);
    runner_.start(request);
}

void MainWindow::analysisFinished(std::shared_ptr<const AnalysisResult> result) {
    const bool newBoard = !result_ || result_->device.id != result->device.id;
    const bool newModel = !result_ || result_->request.modelPath != result->request.modelPath;
    result_ = std::move(result);
    progress_->setVisible(false);
    const WorkloadTotals& totals = result_->workload.totals;
    status_->setText(tr("%1: %2 layers, %3 GMACs on %4%5")
                         .arg(QFileInfo(modelPath_).fileName())
                         .arg(totals.layers)
                         .arg(double(totals.macs) / 1e9, 0, 'f', 3)
                         .arg(QString::fromStdString(result_->device.name),
                              result_->request.profilePath.empty()
                                  ? tr(" (derived ceilings)")
                                  : tr(" (profile %1; modes it lacks are predicted)")
                                        .arg(QFileInfo(QString::fromStdString(result_->request.profilePath)).fileName())));
    setWindowTitle(tr("%1 — Rooftop").arg(QFileInfo(modelPath_).fileName()));
    if (newBoard) {
        advisor_->setDevice(result_->device);
        fillModeChoices();
    }
    layerModel_->setWorkload(result_->workload);
    if (newModel) {
        const QSignalBlocker block(opFilter_);
        const QString keep = opFilter_->currentData().toString();
        opFilter_->clear();
        opFilter_->addItem(tr("all ops"), QString());
        for (const QString& op : layerProxy_->opTypes()) opFilter_->addItem(op, op);
        opFilter_->setCurrentIndex(std::max(0, opFilter_->findData(keep)));
        layerProxy_->setOpFilter(opFilter_->currentData().toString());
        selection_->clear();
    }
    updateWhatIfPrediction();
    modesModel_->setRows(models::modeRowsFrom(result_->recommendation));
    paretoPlot_->setRecommendation(result_->recommendation, QString::fromStdString(result_->device.name));
    advisor_->showRecommendation(result_->device, result_->recommendation, result_->advisorError);
    refreshViews();
    layerView_->resizeColumnsToContents();
    layerView_->setColumnWidth(0, std::min(layerView_->columnWidth(0), 240));
    modesView_->resizeColumnsToContents();
}

void MainWindow::analysisFailed(const QString& message) {
    progress_->setVisible(false);
    status_->setText(tr("Analysis failed: %1").arg(message));
    showError(tr("Cannot analyse the model"), message);
}

void MainWindow::fillModeChoices() {
    overlayMenu_->clear();
    const QSignalBlocker block(activeModeBox_);
    activeModeBox_->clear();
    const std::string fastest = result_->device.stockModes.empty() ? std::string() : result_->device.fastestStockMode().name;
    int fastestIndex = 0;
    for (size_t i = 0; i < result_->stockPredictions.size(); ++i) {
        const QString name = QString::fromStdString(result_->stockPredictions[i].profile.mode.name);
        QAction* action = overlayMenu_->addAction(name);
        action->setCheckable(true);
        action->setChecked(true);
        action->setData(int(i));
        connect(action, &QAction::toggled, this, &MainWindow::refreshViews);
        activeModeBox_->addItem(name);
        if (result_->stockPredictions[i].profile.mode.name == fastest) fastestIndex = int(i);
    }
    activeModeBox_->setCurrentIndex(fastestIndex);
    selection_->setCurrentMode(fastestIndex);
}

void MainWindow::updateWhatIfPrediction() {
    whatIfPrediction_.reset();
    if (!result_) return;
    if (const std::optional<PowerMode> mode = advisor_->whatIfMode())
        whatIfPrediction_ = predict(result_->workload, profileForMode(*result_, *mode));
}

report::SceneChoice MainWindow::sceneChoice() const {
    report::SceneChoice choice;
    for (QAction* action : overlayMenu_->actions())
        if (action->isChecked()) choice.overlaidStockModes.push_back(action->data().toInt());
    choice.activeStockMode = activeModeBox_->currentIndex();
    choice.whatIf = whatIfPrediction_;
    return choice;
}

void MainWindow::refreshViews() {
    if (!result_) return;
    const report::SceneChoice choice = sceneChoice();
    layerModel_->setPrediction(report::activePrediction(*result_, choice));
    totals_->setText(layerModel_->totalsText());
    const plots::RooflineScene scene = report::buildRooflineScene(*result_, choice);
    timePlot_->setScene(scene);
    energyPlot_->setScene(scene);
    timePlot_->setSelectedLayer(selection_->currentLayer());
    energyPlot_->setSelectedLayer(selection_->currentLayer());
}

plots::PlotBase* MainWindow::currentPlot() const {
    switch (tabs_->currentIndex()) {
    case 0: return timePlot_;
    case 1: return energyPlot_;
    default: return paretoPlot_;
    }
}

void MainWindow::showView(const QString& view) {
    tabs_->setCurrentIndex(view == QLatin1String("energy") ? 1 : view == QLatin1String("modes") ? 2 : 0);
}

} // namespace rooftop::gui
