// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/analysis_runner.h"
#include "gui/theme.h"

#include <QMainWindow>
#include <memory>

class QComboBox;
class QScrollArea;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QTimer;

namespace rooftop::models {
class LayerFilterProxyModel;
class LayerTableModel;
class PowerModeTableModel;
class SelectionState;
} // namespace rooftop::models

namespace rooftop::plots {
class ParetoPlot;
class RooflinePlot;
} // namespace rooftop::plots

namespace rooftop::gui {

class AdvisorPanel;
class AnalysisToolbar;
class AssumedDimsBanner;
class ComparisonCard;
class EmptyState;
class LayerProfileImport;
class MeasureDeviceFlow;
class MeasuringPages;
class ModelAttachments;
class ModelOpener;
class ProfileModelFlow;
class ResultViews;
class ShownModeChooser;
class TuneModelFlow;
class WindowExports;
class WindowStatus;
struct BoardCatalogContents;

/// The main window: wires the analysis toolbar, the result views, the advisor panel, the model's files, the
/// exports and the measuring pages into one window. It builds an AnalysisRequest from them and shows the
/// AnalysisResult; the analyses run off the GUI thread in its AnalysisRunner.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// The pieces the window wires, for the menus, the command line, tests and the screenshot scripts.
    struct Parts {
        AnalysisToolbar* toolbar = nullptr;
        ResultViews* views = nullptr;
        QStackedWidget* central = nullptr; ///< the empty state or the views
        EmptyState* emptyState = nullptr;
        AssumedDimsBanner* banner = nullptr;
        ComparisonCard* comparisonCard = nullptr;
        AdvisorPanel* advisor = nullptr;
        QScrollArea* advisorScroll = nullptr; ///< the advisor's dock: scrolls down, never sideways
        ShownModeChooser* shownModes = nullptr;
        ModelAttachments* attachments = nullptr;
        LayerProfileImport* layerImport = nullptr;
        WindowExports* exports = nullptr;
        MeasuringPages* pages = nullptr;
        MeasureDeviceFlow* measurement = nullptr;
        ProfileModelFlow* profiling = nullptr;
        TuneModelFlow* tuning = nullptr;
        ModelOpener* opener = nullptr;
        WindowStatus* status = nullptr;
        plots::RooflinePlot* timePlot = nullptr;
        plots::RooflinePlot* energyPlot = nullptr;
        plots::ParetoPlot* paretoPlot = nullptr;
        QTableView* layerView = nullptr;
        QTableView* modesView = nullptr;
        models::LayerTableModel* layerModel = nullptr;
        models::LayerFilterProxyModel* layerProxy = nullptr;
        models::PowerModeTableModel* modesModel = nullptr;
        models::SelectionState* selection = nullptr;
        QComboBox* activeModeBox = nullptr; ///< "Points for"
        QComboBox* deviceBox = nullptr;
        QSpinBox* batchBox = nullptr;
    };

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
    /// Opens (or raises) the LLM view of the open model; true when it is a decoder with a KV cache.
    bool showLlmView();
    /// The LLM view of the open model (a decoder) on `board`, analysed.
    void openLlmView(const QString& board);
    /// Switches the light or dark palette and remembers it.
    void setTheme(Theme theme);
    /// The latest finished analysis, or nullptr.
    const AnalysisResult* result() const { return result_.get(); }
    /// The runner, so tests can wait for analyses.
    AnalysisRunner& runner() { return runner_; }
    /// The pieces the window wires.
    const Parts& parts() const { return parts_; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildParts();
    void buildAdvisorDock();
    /// Keeps the advisor's dock at least as wide as the advisor's narrowest layout (it never scrolls
    /// sideways).
    void fitAdvisorDock();
    void wireParts();
    void boardsLoaded(const BoardCatalogContents& contents);
    /// Selects a board now, or once the catalog has loaded; false (and says so) when the catalog lacks it.
    bool chooseBoard(const QString& deviceId, bool complain);
    void requestAnalysis();
    void scheduleAnalysis();
    void analysisFinished(std::shared_ptr<const AnalysisResult> result);
    /// Shows the assumed dims in the banner, the title and the status line.
    void showModelFacts();
    void refreshViews();
    /// "Points for" the stock mode a layer profile was measured in (canonical name).
    void showMeasuredMode(const QString& name);
    void showError(const QString& title, const QString& message);

    AnalysisRunner runner_;
    std::shared_ptr<const AnalysisResult> result_;
    Parts parts_;
    QString modelPath_;
    QString pendingDeviceId_; ///< a board asked for before the catalog had loaded
    bool boardsLoaded_ = false;
    bool shown_ = false; ///< the first show has kept the frame inside the screen
    Theme theme_ = Theme::Light;
    QTimer* analysisDelay_ = nullptr;
};

} // namespace rooftop::gui
