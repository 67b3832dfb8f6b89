// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <QToolBar>
#include <vector>

class QComboBox;
class QMenu;
class QSpinBox;
class QToolButton;

namespace rooftop::gui {

/// The analysis toolbar: board, precision, batch, phase, traffic model, runtime and mode set (the request's
/// inputs), and which stock modes the plots overlay and whose points they show (the view's inputs).
class AnalysisToolbar : public QToolBar {
    Q_OBJECT
public:
    explicit AnalysisToolbar(QWidget* parent = nullptr);

    /// Lists these boards, keeping the selected one when it is among them.
    void setBoards(const std::vector<DeviceSpec>& boards);
    /// Selects a board without emitting requestInputsChanged; false when there is no such board.
    bool selectBoard(const QString& deviceId);
    /// The selected board's id; empty while there are no boards.
    QString boardId() const;
    /// Offers the runtimes of a runtime file (rooftop calibrate -o, rooftop compare --calibrate-classes -o)
    /// and selects its first; the reason when the file cannot be read, else empty.
    QString addRuntimeFile(const QString& path);
    /// Writes the toolbar's inputs (board, counting settings, runtime, mode set) into a request.
    void fillRequest(AnalysisRequest& request) const;

    /// Offers the stock modes of an analysis as overlays (all on) and as the mode whose points show (the
    /// fastest stock mode first).
    void showStockModes(const AnalysisResult& result);
    /// Indices into AnalysisResult::stockPredictions whose roofs are overlaid.
    std::vector<int> overlaidStockModes() const;
    /// Index into AnalysisResult::stockPredictions whose points show.
    int activeStockMode() const;

    QComboBox* boardBox() const { return boardBox_; }
    QComboBox* modeSetBox() const { return modeSetBox_; }
    QComboBox* activeModeBox() const { return activeModeBox_; }
    QComboBox* runtimeBox() const { return runtimeBox_; }
    QComboBox* phaseBox() const { return phaseBox_; }
    QSpinBox* batchBox() const { return batchBox_; }

signals:
    /// An input of the analysis request changed: the window asks again.
    void requestInputsChanged();
    /// The overlaid roofs or the mode whose points show changed: the window redraws.
    void shownModesChanged();

private:
    /// Offers "custom grid" only on a board with a grid, falling back to stock modes where it was chosen.
    void updateModeSetChoices();

    QComboBox* boardBox_ = nullptr;
    QComboBox* precisionBox_ = nullptr;
    QComboBox* phaseBox_ = nullptr; ///< inference, or a training step with its optimizer
    QSpinBox* batchBox_ = nullptr;
    QComboBox* trafficBox_ = nullptr;
    QComboBox* runtimeBox_ = nullptr;
    QToolButton* overlayButton_ = nullptr;
    QMenu* overlayMenu_ = nullptr;
    QComboBox* activeModeBox_ = nullptr;
    QComboBox* modeSetBox_ = nullptr;
};

} // namespace rooftop::gui
