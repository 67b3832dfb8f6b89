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

} // namespace rooftop
