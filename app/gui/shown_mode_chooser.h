// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"
#include "report/scene_builder.h"

#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace rooftop::models {
class SelectionState;
}

namespace rooftop::gui {

class AdvisorPanel;
class AnalysisToolbar;

/// "Points for": whose predictions the layer table and points show. Keeps the toolbar's list (stock modes,
/// the recommended and the grid's custom modes, the what-if clocks) and the advisor's what-if sliders in
/// step, and says what the plots and the report draw (SceneChoice).
class ShownModeChooser : public QObject {
    Q_OBJECT
public:
    ShownModeChooser(AnalysisToolbar& toolbar, AdvisorPanel& advisor, models::SelectionState& selection,
                     QObject* parent = nullptr);

    /// A finished analysis: fills "Points for" (the recommended mode when the recommendation changed or the
    /// board is new) and predicts the what-if mode.
    void showResult(std::shared_ptr<const AnalysisResult> result, bool newBoard);
    /// A mode picked elsewhere (a row of the power-modes table): its entry in "Points for", else the what-if
    /// mode with all four of its settings (cores, CPU, GPU and EMC clocks).
    void chooseMode(const PowerMode& mode);
    /// What the plots and the report show: overlaid roofs, the stock mode of the points, the custom or
    /// what-if mode.
    report::SceneChoice sceneChoice() const;
    /// The index in AnalysisResult::stockPredictions of the stock mode "Points for" names, else of the
    /// fastest stock mode.
    int shownStockMode() const;

signals:
    /// The mode shown changed: the views redraw.
    void changed();

private:
    void showModeChoices(bool newBoard);
    /// "Points for" changed: the what-if sliders follow it, then the views.
    void shownModeChosen();
    /// The what-if sliders changed: "Points for" follows them, then the views.
    void whatIfChanged();
    /// Predicts the advisor's what-if mode (if on) for the current result; cheap, no file I/O.
    void updateWhatIfPrediction();

    AnalysisToolbar& toolbar_;
    AdvisorPanel& advisor_;
    models::SelectionState& selection_;
    std::shared_ptr<const AnalysisResult> result_;
    std::optional<ModelPrediction> whatIfPrediction_;
    std::map<std::string, ModelPrediction> customPredictions_; ///< custom modes "Points for" offers, by name
    QString recommendedKey_; ///< the "Points for" key of the recommendation last shown
};

} // namespace rooftop::gui
