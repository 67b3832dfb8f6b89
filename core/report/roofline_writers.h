// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <string>

namespace rooftop {

/// The predicted modes of an analysis: a summary, then per mode its clocks, totals, bound mix, roofs and top
/// layers.
std::string rooflineTable(const AnalysisResult& result);

/// One line per mode and layer, the mode's totals repeated on each.
std::string rooflineCsv(const AnalysisResult& result);

/// "rooftop-roofline/4" (docs/json.md): every mode's ceilings and power model with provenance and basis, and
/// every layer.
std::string rooflineJson(const AnalysisResult& result);

} // namespace rooftop
