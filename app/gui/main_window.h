// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/compare_session.h"
#include "gui/analysis_runner.h"
#include "gui/theme.h"
#include "report/scene_builder.h"

#include <QMainWindow>
#include <map>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QTimer;

namespace rooftop::models {
class LayerFilterProxyModel;
class LayerTableModel;
class PowerModeTableModel;
class SelectionState;
struct ModeRow;
} // namespace rooftop::models

namespace rooftop::plots {
class ParetoPlot;
class RooflinePlot;
} // namespace rooftop::plots

namespace rooftop::gui {

class AdvisorPanel;
class AnalysisToolbar;
class EmptyState;
class AssumedDimsBanner;
class LayerProfileImport;
class MeasureDeviceFlow;
class ProfileModelFlow;
class TuneModelFlow;
class RecentFiles;
class ResultViews;
class WindowExports;
struct BoardCatalogContents;

/// The main window: wires the analysis toolbar, the result views, the advisor panel, the exports and the
/// measurement into one window. It builds an AnalysisRequest from them and shows the AnalysisResult; the
/// analyses run off the GUI thread in its AnalysisRunner.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a model (empty path: only selects the board); `deviceId` empty keeps the current board. Before
    /// the board catalog has loaded, the board is chosen and the analysis starts once it has.
    void openModel(const QString& path, const QString& deviceId = {});
    /// Binds the open model's symbolic dims ("sequence=128, past=4"), remembers them for it and analyses
    /// again; empty: the model's own (unbound ones assumed 1). Malformed dims are ignored.
    void setDims(const QString& dims);
    /// Shows the "time", "energy" or "modes" view.
    void showView(const QString& view);
    /// Switches the light or dark palette and remembers it.
    void setTheme(Theme theme);
    /// The latest finished analysis, or nullptr.
    const AnalysisResult* result() const { return result_.get(); }
    /// The runner, so tests can wait for analyses.
    AnalysisRunner& runner() { return runner_; }

    // Accessors for tests and the screenshot script.
    AnalysisToolbar* toolbar() const { return toolbar_; }
    ResultViews* views() const { return views_; }
    /// What the window shows before a model's analysis has finished.
    EmptyState* emptyState() const { return emptyState_; }
    bool showsEmptyState() const;
    MeasureDeviceFlow* measurement() const { return measurement_; }
    ProfileModelFlow* profiling() const { return profiling_; }
    TuneModelFlow* tuning() const { return tuning_; }
    LayerProfileImport* layerImport() const { return layerImport_; }
    plots::RooflinePlot* timePlot() const;
    plots::RooflinePlot* energyPlot() const;
    plots::ParetoPlot* paretoPlot() const;
    QTableView* layerView() const;
    QTableView* modesView() const;
    models::LayerTableModel* layerModel() const;
    models::LayerFilterProxyModel* layerProxy() const;
    models::PowerModeTableModel* modesModel() const;
    models::SelectionState* selection() const;
    AdvisorPanel* advisor() const { return advisor_; }
    AssumedDimsBanner* assumedDimsBanner() const { return banner_; }
    /// The status line's text.
    QString statusText() const;
    QComboBox* activeModeBox() const;
    QComboBox* deviceBox() const;
    QSpinBox* batchBox() const;

    /// Shows the runs of a runs file for the open model as measured points; empty on success, else the
    /// reason.
    QString loadRunsFile(const QString& path);
    /// Offers a runtime file's runtimes in the toolbar and analyses with its first; the reason when it
    /// cannot.
    QString useRuntimeFile(const QString& path);
    /// Takes latency, energy and power of every mode from a predictor (rooftop learn -o) of the open model,
    /// on the predictor's board; empty on success, else the reason (another model, a bad file).
    QString loadPredictorFile(const QString& path);
    /// Goes back to Rooftop's own predictions.
    void dropPredictor();
    /// Compares a measured per-layer profile (trtexec --exportProfile with an optional --exportLayerInfo,
    /// ONNX Runtime profile, Nsight Compute CSV; `source` none: read from the file) with the open model's
    /// roofline in the mode the points are shown for, and keeps it in step with that mode, board, batch and
    /// precision. Empty when the comparison started (its errors come later, in a message box), else why not.
    QString importLayerProfile(const QString& path, const QString& layerInfoPath = {},
                               std::optional<ProfileSource> source = std::nullopt);
    /// Drops the imported layer profile.
    void clearLayerProfile();

    /// Exports the current view's plot (PNG, PDF or SVG by suffix); empty on success, else the reason.
    QString exportCurrentPlot(const QString& path, int width, int height);
    /// Exports the layer table as the view shows it (CSV or JSON by suffix).
    QString exportLayerTable(const QString& path);
    /// Exports the power-modes table as the view shows it (CSV or JSON by suffix).
    QString exportModesTable(const QString& path);
    /// Writes the Netron metrics attachment of the current analysis.
    QString exportNetronMetrics(const QString& path);
    /// Writes the HTML or PDF report of the current analysis.
    QString exportReport(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildAdvisorDock();
    void buildStatusBar();
    void buildMenus();
    void boardsLoaded(const BoardCatalogContents& contents);
    bool selectBoardOrComplain(const QString& deviceId);
    void requestAnalysis();
    void scheduleAnalysis();
    void analysisFinished(std::shared_ptr<const AnalysisResult> result);
    void analysisFailed(const QString& message);
    void modeRowChosen(const models::ModeRow& row);
    /// Fills "Points for" from the result: the stock modes, the recommended and the grid's custom modes and
    /// the what-if clocks; selects the recommended mode when the recommendation changed.
    void showModeChoices(bool newBoard);
    /// "Points for" changed: the what-if sliders follow it, then the views.
    void shownModeChosen();
    /// The what-if sliders changed: "Points for" follows them, then the views.
    void whatIfChanged();
    /// The index in AnalysisResult::stockPredictions of the stock mode "Points for" names, else of the
    /// fastest stock mode.
    int shownStockMode() const;
    /// Shows the assumed dims in the banner, the title and the status line.
    void showModelFacts();
    void refreshViews();
    /// Predicts the advisor's what-if mode (if on) for the current result; cheap, no file I/O.
    void updateWhatIfPrediction();
    report::SceneChoice sceneChoice() const;
    void restoreSettings();
    /// Sizes a window without saved geometry to its screen, and one restored from a larger screen into it.
    void fitToScreen(bool restored);
    void saveSettings() const;
    void chooseAndOpen();
    void chooseMeasuredProfile();
    /// Asks for a file of the open model (a runs file, a predictor), loads it and shows the power modes; says
    /// why when there is no model or the file is refused.
    void chooseFileOfTheModel(const QString& title, const QString& filter,
                              QString (MainWindow::*load)(const QString&));
    void chooseRunsFile();
    void chooseLayerProfile();
    /// The comparison the window's current analysis and mode ask for, none without a finished analysis.
    std::optional<CompareRequest> layerProfileRequest() const;
    /// Starts the comparison again when the analysis or mode it was for has changed.
    void syncLayerProfile();
    void choosePredictorFile();
    void chooseRuntimeFile();
    /// Shows the runs a predictor learned from as measured points (when their runners are known).
    void showPredictorRuns(const Predictor& predictor, const QString& source);
    void profileModel();
    void tuneModel();
    void applyTune();
    void useProfile(const QString& path, const QString& deviceId);
    void showError(const QString& title, const QString& message);

    AnalysisRunner runner_;
    std::shared_ptr<const AnalysisResult> result_;
    std::optional<ModelPrediction> whatIfPrediction_;
    std::map<std::string, ModelPrediction> customPredictions_; ///< custom modes "Points for" offers, by name
    QString recommendedKey_; ///< the "Points for" key of the recommendation last shown
    QString modelPath_;
    QString profilePath_;     ///< measured profile in use, empty: derived ceilings
    QString profileDevice_;   ///< the board the profile was measured on (used only for that board)
    QString pendingDeviceId_; ///< a board asked for before the catalog had loaded
    QString runsModel_;       ///< the model the runs file shown was loaded for
    QString predictorPath_;   ///< predictor in use, empty: Rooftop's predictions
    QString predictorModel_;  ///< the model the predictor was loaded for (used only for that model)
    QString predictorDevice_; ///< the predictor's board (used only on that board)
    std::optional<CompareRequest> layerProfile_; ///< the imported files (analysis and mode filled per run)
    bool boardsLoaded_ = false;
    bool shown_ = false; ///< the first show has kept the frame inside the screen
    Theme theme_ = Theme::Light;

    AnalysisToolbar* toolbar_ = nullptr;
    ResultViews* views_ = nullptr;
    QStackedWidget* central_ = nullptr;
    EmptyState* emptyState_ = nullptr;
    AdvisorPanel* advisor_ = nullptr;
    WindowExports* exports_ = nullptr;
    MeasureDeviceFlow* measurement_ = nullptr;
    ProfileModelFlow* profiling_ = nullptr;
    TuneModelFlow* tuning_ = nullptr;
    LayerProfileImport* layerImport_ = nullptr;
    RecentFiles* recentFiles_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    AssumedDimsBanner* banner_ = nullptr;
    QTimer* analysisDelay_ = nullptr;
};

} // namespace rooftop::gui
