// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"
#include "plots/roofline_scene.h"

#include <optional>
#include <vector>

namespace rooftop::report {

/// What a roofline shows: which stock modes' roofs, whose layer points, and an optional what-if mode.
struct SceneChoice {
    std::vector<int> overlaidStockModes;   ///< indices into AnalysisResult::stockPredictions
    int activeStockMode = 0;               ///< whose layer points are drawn (ignored with a what-if mode)
    std::optional<ModelPrediction> whatIf; ///< a custom mode from the what-if sliders: its roofs and points
    bool whatIfRecommended = false;        ///< the custom mode is the advisor's answer, not the sliders'
};

/// The scene for the roofline plots from an analysis and a choice of modes.
plots::RooflineScene buildRooflineScene(const AnalysisResult& result, const SceneChoice& choice);

/// The prediction whose numbers the layer table and points show for a choice.
const ModelPrediction* activePrediction(const AnalysisResult& result, const SceneChoice& choice);

} // namespace rooftop::report
