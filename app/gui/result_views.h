// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"
#include "report/scene_builder.h"

#include <QSplitter>
#include <memory>

class QTabWidget;

namespace rooftop::models {
class SelectionState;
struct ModeRow;
} // namespace rooftop::models

namespace rooftop::plots {
class OpTimeChart;
class PlotBase;
class RooflinePlot;
} // namespace rooftop::plots

namespace rooftop::gui {

class LayerPanel;
class ModesPanel;
class RooflineOptions;

/// The window's central area: the layer panel beside the time roofline, energy roofline, power-modes and
/// time-by-op tabs, with one layer selection shared by the table and both rooflines, and the table's filter
/// applied to the rooflines' points.
class ResultViews : public QSplitter {
    Q_OBJECT
public:
    explicit ResultViews(QWidget* parent = nullptr);

    /// Shows a finished analysis; a new model clears the layer selection.
    void showResult(std::shared_ptr<const AnalysisResult> result, bool newModel);
    /// Shows the chosen modes of an analysis in the layer table and the rooflines.
    void showScene(const AnalysisResult& result, const report::SceneChoice& choice);
    /// Shows an imported profile's comparison (null: none) in the layer table now and on the time roofline
    /// from the next showScene().
    void showComparison(std::shared_ptr<const Comparison> comparison);
    /// The comparison shown, nullptr when none.
    const Comparison* comparison() const { return comparison_.get(); }
    /// Sizes the tables' columns to their contents.
    void fitColumns();
    /// Draws the Pareto plot again (after a palette change).
    void redrawModesPlot();

    /// Shows the "time", "energy", "modes" or "ops" tab.
    void showView(const QString& view);
    /// The plot of the current tab (the Pareto plot on the power-modes tab).
    plots::PlotBase* currentPlot() const;
    /// The current tab's index, for the window's settings.
    int currentTab() const;
    void setCurrentTab(int index);

    LayerPanel* layers() const { return layers_; }
    ModesPanel* modes() const { return modes_; }
    plots::RooflinePlot* timePlot() const { return timePlot_; }
    plots::RooflinePlot* energyPlot() const { return energyPlot_; }
    plots::OpTimeChart* opTimeChart() const { return opTimeChart_; }
    RooflineOptions* rooflineOptions() const { return options_; }
    models::SelectionState* selection() const { return selection_; }

signals:
    /// The user selected a row of the power-modes table.
    void modeRowChosen(const rooftop::models::ModeRow& row);

private:
    void connectSelection();
    /// Passes the layer table's filter (the layers it shows) to the rooflines.
    void applyTableFilter();
    /// Widens the layer panel (the plots keep at least 40 % of the area) so that the measured columns and the
    /// bound are in view; undone when the comparison is cleared, unless the splitter was dragged meanwhile.
    void fitPanelToComparison(bool hadComparison);

    LayerPanel* layers_ = nullptr;
    ModesPanel* modes_ = nullptr;
    plots::RooflinePlot* timePlot_ = nullptr;
    plots::RooflinePlot* energyPlot_ = nullptr;
    plots::OpTimeChart* opTimeChart_ = nullptr;
    RooflineOptions* options_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    models::SelectionState* selection_ = nullptr;
    std::shared_ptr<const Comparison> comparison_;
    bool tableFiltered_ = false;
    QList<int> sizesBeforeComparison_;
};

} // namespace rooftop::gui
