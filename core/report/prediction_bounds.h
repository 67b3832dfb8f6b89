// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/prediction_spread.h"
#include "core/session/analysis_session.h"

#include <QJsonArray>
#include <string>

namespace rooftop {

/// The confidence of the bounds printed beside a table's predicted numbers: recommend's default.
inline constexpr double tableBoundsConfidence = 0.9;

/// A number with about three significant digits and no exponent ("0.221", "23.0", "1610").
std::string compactNumber(double value);

/// "[15.5–29.5]": the bounds at `confidence` of a value times `scale`; empty without a spread or at 0.5.
std::string boundsText(double value, double spread, double scale, double confidence = tableBoundsConfidence);

/// "23.20 [15.5–29.5]": `text` (the value as written, times `scale`) and its bounds; `text` alone without
/// them.
std::string withBounds(const std::string& text, double value, double spread, double scale,
                       double confidence = tableBoundsConfidence);

/// "392.9 µs [221–699]": duration() of a time and its bounds at `confidence` in the same unit.
std::string durationWithBounds(double seconds, double spread, double confidence = tableBoundsConfidence);

/// [low, high] at `confidence`, times `scale`.
QJsonArray boundsJson(double value, double spread, double scale, double confidence = tableBoundsConfidence);

/// ",low,high" at `confidence`, times `scale`: two CSV fields, empty without a spread.
std::string boundsCsv(double value, double spread, double scale, double confidence = tableBoundsConfidence);

/// ",0.9": the CSV field naming the confidence the row's bounds hold at (the last column of a table with
/// bounds).
std::string boundsConfidenceCsv(double confidence);

/// "[low–high]: in the number's unit, each bound holding at 90 % …, from BASIS.": a table's legend line.
std::string boundsLegendText(const std::string& basis, double confidence = tableBoundsConfidence);

/// What an analysis's bounds rest on: its predictor's error, or the roofline's (calibration's or prior's).
std::string predictionBoundsBasis(const AnalysisResult& result);

/// The line under a table of predicted numbers: what the bracketed bounds mean (at the request's confidence)
/// and rest on.
std::string boundsLegend(const AnalysisResult& result);

} // namespace rooftop
