// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <string>

namespace rooftop {

/// The modes of an analysis (result.modeProfiles) with id, clocks, TPCs, budget and ceilings with provenance;
/// with a model, its latency, power and energy per inference in each mode (predicted with a predictor).
std::string modesTable(const AnalysisResult& result);

/// One line per mode: clocks, budget and each ceiling with its provenance.
std::string modesCsv(const AnalysisResult& result);

/// "rooftop-modes/8" (docs/json.md): the board, its runtime and every mode with each ceiling's provenance and
/// basis.
std::string modesJson(const AnalysisResult& result);

} // namespace rooftop
