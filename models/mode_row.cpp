// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/mode_row.h"

namespace rooftop::models {

ModeRow modeRowFrom(const Candidate& candidate, bool recommended) {
    ModeRow row;
    row.name = QString::fromStdString(candidate.profile.mode.name);
    row.profile = candidate.profile;
    row.batch = candidate.batch;
    row.latencySeconds = candidate.summary.latencySeconds;
    row.energyPerInferenceJoules = candidate.energyPerInference();
    row.averageWatts = candidate.summary.averageWatts;
    row.provenance = candidate.provenance;
    row.spread = candidate.summary.spread;
    row.feasible = candidate.feasible;
    row.pareto = candidate.pareto;
    row.recommended = recommended;
    return row;
}

ModeRow modeRowFrom(const ModelPrediction& prediction) {
    ModeRow row;
    row.name = QString::fromStdString(prediction.profile.mode.name);
    row.profile = prediction.profile;
    row.batch = prediction.batch;
    row.latencySeconds = prediction.latencySeconds;
    row.energyPerInferenceJoules = prediction.energyPerInference();
    row.averageWatts = prediction.averageWatts;
    row.provenance = prediction.provenance;
    row.spread = prediction.spread;
    return row;
}

std::vector<ModeRow> modeRowsFrom(const Recommendation& recommendation) {
    std::vector<ModeRow> rows;
    rows.reserve(recommendation.candidates.size());
    for (size_t i = 0; i < recommendation.candidates.size(); ++i)
        rows.push_back(modeRowFrom(recommendation.candidates[i], recommendation.recommended == i));
    return rows;
}

void attachMeasured(std::vector<ModeRow>& rows, const std::vector<MeasuredPoint>& points) {
    for (ModeRow& row : rows) {
        row.measured.reset();
        for (const MeasuredPoint& point : points)
            if (point.mode == row.name && point.batch == row.batch) {
                row.measured = point;
                break;
            }
    }
}

} // namespace rooftop::models
