// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/prediction_spread.h"
#include "core/session/analysis_session.h"

#include <QJsonArray>
#include <string>

namespace rooftop {

/// The confidence of the bounds printed beside a table's predicted numbers: recommend's default.
inline constexpr double tableBoundsConfidence = 0.9;

/// "[2.44–2.64]": the bounds at tableBoundsConfidence of a value with a log-normal spread, in the value's
/// unit times `scale`, three significant digits; empty without a spread.
std::string boundsText(double value, double spread, double scale);

/// [low, high] at tableBoundsConfidence, times `scale`.
QJsonArray boundsJson(double value, double spread, double scale);

/// What the bounds of an analysis's predicted numbers rest on: its predictor's cross-validated error, or the
/// roofline's (the calibration's on the classes it fitted, the prior's elsewhere).
std::string predictionBoundsBasis(const AnalysisResult& result);

/// The line under a table of predicted numbers: what the bracketed bounds mean and rest on.
std::string boundsLegend(const AnalysisResult& result);

} // namespace rooftop
