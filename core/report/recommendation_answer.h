// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <string>

namespace rooftop {

/// `rooftop recommend`'s answer to one analysis: JSON (recommendationToJson) when json, else the lines that
/// say what the numbers are (dims assumed, a training step's units, a predictor's basis) and the table.
std::string recommendationAnswer(const AnalysisResult& result, bool json);

} // namespace rooftop
