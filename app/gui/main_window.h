// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/analysis_runner.h"
#include "report/scene_builder.h"
#include "gui/theme.h"

#include <QMainWindow>

#include <atomic>
#include <memory>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSortFilterProxyModel;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace rooftop::models {
class LayerFilterProxyModel;
class LayerTableModel;
class PowerModeTableModel;
class SelectionState;
} // namespace rooftop::models

namespace rooftop::plots {
class ParetoPlot;
class PlotBase;
class RooflinePlot;
} // namespace rooftop::plots

namespace rooftop::gui {

class AdvisorPanel;

/// The main window: toolbar with model, board and analysis settings; the layer table; time and energy
/// rooflines; the power-modes table with the Pareto plot; the advisor panel. Analyses run off the GUI thread.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a model (empty path: only selects the board); `deviceId` empty keeps the current board.
    void openModel(const QString& path, const QString& deviceId = {});
    /// Shows the "time", "energy" or "modes" view.
    void showView(const QString& view);
    /// Switches the light or dark palette and remembers it.
    void setTheme(Theme theme);
    /// The latest finished analysis, or nullptr.
    const AnalysisResult* result() const { return result_.get(); }
    /// The runner, so tests can wait for analyses.
    AnalysisRunner& runner() { return runner_; }

    // Accessors for tests and the screenshot script.
    plots::RooflinePlot* timePlot() const { return timePlot_; }
    plots::RooflinePlot* energyPlot() const { return energyPlot_; }
    plots::ParetoPlot* paretoPlot() const { return paretoPlot_; }
    QTableView* layerView() const { return layerView_; }
    QTableView* modesView() const { return modesView_; }
    models::LayerTableModel* layerModel() const { return layerModel_; }
    models::LayerFilterProxyModel* layerProxy() const { return layerProxy_; }
    models::PowerModeTableModel* modesModel() const { return modesModel_; }
    models::SelectionState* selection() const { return selection_; }
    AdvisorPanel* advisor() const { return advisor_; }
    QComboBox* activeModeBox() const { return activeModeBox_; }
    QComboBox* deviceBox() const { return deviceBox_; }
    QSpinBox* batchBox() const { return batchBox_; }

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
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildToolbar();
    void buildCentralViews();
    void buildMenus();
    void connectSelection();
    void loadDevices();
    void requestAnalysis();
    void scheduleAnalysis();
    void analysisFinished(std::shared_ptr<const AnalysisResult> result);
    void analysisFailed(const QString& message);
    void fillModeChoices();
    void refreshViews();
    /// Predicts the advisor's what-if mode (if on) for the current result; cheap, no file I/O.
    void updateWhatIfPrediction();
    report::SceneChoice sceneChoice() const;
    plots::PlotBase* currentPlot() const;
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void restoreSettings();
    void saveSettings() const;
    void chooseAndOpen();
    void chooseAndExportPlot();
    void chooseAndExportTable(bool modes);
    void chooseAndExportNetron();
    void chooseAndExportReport();
    void chooseMeasuredProfile();
    void measureDevice();
    void showError(const QString& title, const QString& message);

    AnalysisRunner runner_;
    std::shared_ptr<const AnalysisResult> result_;
    std::optional<ModelPrediction> whatIfPrediction_;
    QString modelPath_;
    QString profilePath_;   ///< measured profile in use, empty: derived ceilings
    QString profileDevice_; ///< the board the profile was measured on (used only for that board)
    Theme theme_ = Theme::Light;

    QComboBox* deviceBox_ = nullptr;
    QComboBox* precisionBox_ = nullptr;
    QComboBox* trafficBox_ = nullptr;
    QComboBox* runtimeBox_ = nullptr;
    QComboBox* modeSetBox_ = nullptr;
    QComboBox* activeModeBox_ = nullptr;
    QSpinBox* batchBox_ = nullptr;
    QToolButton* overlayButton_ = nullptr;
    QMenu* overlayMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;

    QTabWidget* tabs_ = nullptr;
    QLineEdit* nameFilter_ = nullptr;
    QComboBox* opFilter_ = nullptr;
    QLabel* totals_ = nullptr;
    QTableView* layerView_ = nullptr;
    QTableView* modesView_ = nullptr;
    plots::RooflinePlot* timePlot_ = nullptr;
    plots::RooflinePlot* energyPlot_ = nullptr;
    plots::ParetoPlot* paretoPlot_ = nullptr;
    AdvisorPanel* advisor_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QTimer* analysisDelay_ = nullptr;

    models::LayerTableModel* layerModel_ = nullptr;
    models::LayerFilterProxyModel* layerProxy_ = nullptr;
    models::PowerModeTableModel* modesModel_ = nullptr;
    QSortFilterProxyModel* modesProxy_ = nullptr;
    models::SelectionState* selection_ = nullptr;
    bool syncingSelection_ = false;
    QAction* measureAction_ = nullptr;
    std::shared_ptr<std::atomic<bool>> measureCancel_; ///< set while a measurement runs
};

} // namespace rooftop::gui
