// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"

#include <string>

namespace rooftop {

/// The analysis as JSON: {"model", "settings", "totals", "layers"}; counts are exact integers.
std::string workloadToJson(const Workload& workload);

/// One CSV row per layer with a header row; exact integers; quoted where needed.
std::string workloadToCsv(const Workload& workload);

/// A fixed-width per-layer table with SI-scaled numbers and a totals block, for terminals.
std::string workloadToTable(const Workload& workload);

/// 1234567 -> "1.235 M" (SI prefixes, 4 significant digits).
std::string siScaled(double value, const std::string& unit);

/// "Assumed (unbound) dims: seq=1, ...\n" when an input dim was left unbound (empty when none), with the
/// hint that a decoder's generation is `rooftop llm`'s when a KV cache's past length is among them; without
/// the batch dims when the command sets the batch itself (`batchSet`: recommend's and roofline's --batch 1).
std::string assumedDimsLine(const ModelInfo& info, bool batchSet = false);

} // namespace rooftop
