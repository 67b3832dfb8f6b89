// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/runs_file.h"
#include "core/session/analysis_session.h"
#include "models/measured_points.h"

#include <QSplitter>
#include <memory>

class QCheckBox;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace rooftop::models {
class PowerModeTableModel;
struct ModeRow;
} // namespace rooftop::models

namespace rooftop::plots {
class ParetoPlot;
class PredictionCheckPlot;
} // namespace rooftop::plots

namespace rooftop::gui {

class FrozenColumnView;

/// The power-modes view: the advisor's candidates as a table over their Pareto plot; a row selected in
/// either is selected in the other. The runs of a runs file at the analysis's batch and precision are shown
/// as measured points and columns beside the predictions. With a predictor, its runs' cross-validated
/// predictions against the runs are drawn in a tab beside the plot (latency and power). The table is sorted
/// by the objective with the recommended mode selected and scrolled to; the plot fits the modes that meet the
/// limits unless "show all modes" is ticked.
class ModesPanel : public QSplitter {
    Q_OBJECT
public:
    explicit ModesPanel(QWidget* parent = nullptr);

    /// Shows the candidates of an analysis.
    void showResult(std::shared_ptr<const AnalysisResult> result);
    /// Shows these runs (of a runs file named `sourceName`) as measured points; no rows: none.
    void setRuns(std::vector<RunRow> runs, const QString& sourceName);
    /// The measured points shown now (the runs at the analysis's batch and precision).
    const models::MeasuredSet& measured() const { return measured_; }
    /// Draws the Pareto plot again (after a palette change).
    void redrawPlot();
    /// Sizes the table's columns to their contents.
    void fitColumns();

    QTableView* view() const;
    models::PowerModeTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    plots::ParetoPlot* plot() const { return plot_; }
    QCheckBox* showAllBox() const { return showAll_; }
    plots::PredictionCheckPlot* latencyCheck() const { return latencyCheck_; }
    plots::PredictionCheckPlot* powerCheck() const { return powerCheck_; }

signals:
    /// The user selected the row of a mode (in the table or on the plot).
    void modeRowChosen(const rooftop::models::ModeRow& row);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rowSelected(const QModelIndex& current);
    void candidateClicked(int candidate);
    void showMeasured();
    void showPredictionCheck();
    /// Sorts by the objective's column and selects the recommended row without emitting modeRowChosen.
    void selectRecommendation();

    std::shared_ptr<const AnalysisResult> result_;
    std::vector<RunRow> runs_;
    models::MeasuredSet measured_;
    models::PowerModeTableModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    FrozenColumnView* view_ = nullptr;
    plots::ParetoPlot* plot_ = nullptr;
    QCheckBox* showAll_ = nullptr;
    bool selectingRecommendation_ = false;
    QSplitter* checks_ = nullptr;
    QTabWidget* plotTabs_ = nullptr;
    bool sized_ = false; ///< the table and plot were given their first shares
    plots::PredictionCheckPlot* latencyCheck_ = nullptr;
    plots::PredictionCheckPlot* powerCheck_ = nullptr;
};

} // namespace rooftop::gui
