// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

namespace rooftop {

/// Index into result.stockPredictions of the fastest stock mode (0 when it is not among them).
int fastestStockPrediction(const AnalysisResult& result);

/// The least predicted latency of one batch among the stock modes, in ms; 0 without stock predictions.
double leastStockLatencyMs(const AnalysisResult& result);

/// Index into result.stockPredictions of the stock mode whose layer points every front-end shows by default:
/// the recommended mode when it is stock, else the fastest.
int defaultShownStockPrediction(const AnalysisResult& result);

/// The mode every front-end shows by default: the recommended one, stock or custom, else the fastest stock
/// mode; null without stock modes.
const PowerMode* defaultShownMode(const AnalysisResult& result);

} // namespace rooftop
