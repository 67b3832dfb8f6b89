// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"

#include <string>

namespace rooftop {

/// JSON of a recommendation:
/// {"device", "baseline": {mode fields}, "modes": [{mode fields}], "pareto": [names],
///  "recommended": {mode fields, "saving_pct", "explanation", "nvpmodel"} | null,
///  and when nothing is feasible "closest": [{mode fields}] and "message"}.
/// Mode fields: name, cores, cpu_mhz, gpu_mhz, emc_mhz, batch, latency_ms (per batch), energy_mj (per
/// inference), avg_power_w, feasible, provenance. "pareto" lists the front in order of latency.
std::string recommendationToJson(const std::string& deviceId, const Recommendation& recommendation);

/// A plain-text report: the recommended mode, the baseline and the Pareto front (not every candidate), the
/// explanation and the nvpmodel instructions; or, when nothing is feasible, a plain statement that the limits
/// cannot be met and the closest candidates.
std::string recommendationToTable(const std::string& deviceName, const Recommendation& recommendation,
                                  const Constraints& constraints, Objective objective);

} // namespace rooftop
