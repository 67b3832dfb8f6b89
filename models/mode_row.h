// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/device/ceilings.h"
#include "core/device/provenance.h"
#include "core/roofline/prediction.h"
#include "models/measured_points.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace rooftop::models {

/// One power mode (or advisor candidate: a mode at a batch size) as PowerModeTableModel shows it.
struct ModeRow {
    QString name;                 ///< the mode's name ("MAXN", "c8-cpu1728-gpu612-emc3199")
    rooftop::ModeProfile profile; ///< ceilings and power model; clocks and cores come from profile.mode
    int64_t batch = 1;
    double latencySeconds = 0.0; ///< per batch
    double energyPerInferenceJoules = 0.0;
    double averageWatts = 0.0;
    rooftop::Provenance provenance = rooftop::Provenance::Estimate;
    rooftop::PredictionSpread spread; ///< how far latency, power and energy may be off
    bool feasible = true;
    bool pareto = false;
    bool recommended = false;
    std::optional<MeasuredPoint> measured; ///< runs of this mode and batch from a runs file, if any

    /// Inferences per joule (1 / energy per inference; 0 when the energy is not positive).
    double inferencesPerJoule() const {
        return energyPerInferenceJoules > 0 ? 1.0 / energyPerInferenceJoules : 0.0;
    }
};

/// A row for one candidate; `recommended` as given.
ModeRow modeRowFrom(const rooftop::Candidate& candidate, bool recommended = false);

/// A row for one whole-model prediction (feasible, not Pareto, not recommended).
ModeRow modeRowFrom(const rooftop::ModelPrediction& prediction);

/// Gives each row the point of its mode and batch (the first when several runners measured it); others none.
void attachMeasured(std::vector<ModeRow>& rows, const std::vector<MeasuredPoint>& points);

/// One row per candidate of a recommendation, in candidate order, with the recommended one flagged.
std::vector<ModeRow> modeRowsFrom(const rooftop::Recommendation& recommendation);

} // namespace rooftop::models
