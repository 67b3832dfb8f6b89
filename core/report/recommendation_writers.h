// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/device/runtime_profile.h"
#include "core/session/analysis_session.h"

#include <cstdint>
#include <map>
#include <string>

namespace rooftop {

/// What a recommendation answered: the board, the workload, the limits and objective asked, and what its
/// numbers rest on.
struct RecommendationQuestion {
    std::string deviceId;                    ///< the board's id
    std::string model;                       ///< the model file as given
    std::map<std::string, int64_t> dims;     ///< the symbolic dims bound
    std::string precision = "as-model";      ///< precisionName
    Constraints limits;                      ///< the limits asked
    Objective objective = Objective::Energy; ///< what the answer ranks by
    std::string predictionBasis;             ///< the predictor's basis; empty: Rooftop's roofline prior
    std::string optimizer; ///< a training step's update (optimizerName); empty for inference
};

/// What Rooftop's own roofline predictions rest on with `runtime`: the prior, or the runtime's calibration.
std::string rooflinePredictionBasis(const RuntimeProfile& runtime);

/// What an analysis's predicted numbers rest on, as every JSON document's "prediction_basis" gives it: the
/// predictor's basis, else rooflinePredictionBasis of its runtime.
std::string analysisPredictionBasis(const AnalysisResult& result);

/// JSON of a recommendation (docs/json.md, schema "rooftop-recommend/3"):
/// {"schema", "device", "model", "dims", "precision", "objective", "limits": {"latency_slo_ms",
/// "power_cap_w",
///  "slowdown_pct"}, "prediction_basis", "confidence", "interval_basis", "baseline": {mode fields},
///  "modes": [{mode fields}], "pareto": [names], "recommended": {mode fields, "saving_pct", "explanation",
///  "nvpmodel"} | null, and when nothing is feasible "closest": [{mode fields}] and "message"}.
/// Mode fields: mode, cores, cpu_khz, gpu_hz, emc_hz, batch, latency_ms (per batch), energy_mj (per
/// inference), power_w, each with its *_interval, feasible, provenance. "pareto" lists the front by latency.
std::string recommendationToJson(const RecommendationQuestion& question,
                                 const Recommendation& recommendation);

/// A plain-text report: the recommended mode, the baseline and the Pareto front (not every candidate), the
/// explanation and the nvpmodel instructions; or, when nothing is feasible, a plain statement that the limits
/// cannot be met and the closest candidates.
std::string recommendationToTable(const std::string& deviceName, const Recommendation& recommendation,
                                  const Constraints& constraints, Objective objective);

} // namespace rooftop
