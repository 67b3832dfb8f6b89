// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/session/analysis_session.h"

#include <QString>

namespace rooftop::models {

/// "predicted from estimates": a prediction and the weakest provenance of its inputs ("predicted" alone when
/// that provenance is itself predicted).
QString predictedFrom(Provenance provenance);
/// predictedFrom a candidate's provenance, and "extrapolated" where a predictor's numbers lie outside the
/// ranges it learned.
QString predictedFrom(const Candidate& candidate);

/// "12.3 % less energy" for a saving, "70.1 % more energy" for a negative one, "the same energy" at 0.0.
QString energyChangeText(double savingPercent);
/// "12.3 % less energy than OTHER", "… more energy than OTHER" or "the same energy as OTHER".
QString energyComparedTo(double savingPercent, const QString& other);

/// A candidate's latency per batch with its upper bound at a confidence: "4.93 ms (≤ 5.10 ms at 90 %)"; the
/// value alone when the bound adds nothing.
QString boundedSeconds(const Candidate& candidate, double confidence);
/// Any predicted time of a log-normal spread so: "6.78 ms (≤ 12.1 ms at 90 %)".
QString boundedSeconds(double seconds, double spread, double confidence);
/// Its average power so.
QString boundedWatts(const Candidate& candidate, double confidence);
/// Its energy per inference so.
QString boundedJoules(const Candidate& candidate, double confidence);

/// "per batch", or "per minibatch" for a training step.
QString perBatchWords(bool training);
/// "per inference", or "per sample" for a training step.
QString perItemWords(bool training);

/// The recommendation's confidenceSentence (brief: its basis in brief) as HTML after a space; empty without
/// one.
QString confidenceHtml(const Recommendation& recommendation, bool brief = false);

/// The close calls (Recommendation::closeCalls) in a line for the card: "MAXN (+6.8 %), MODE_30W (+33.9 %)
/// lie within its 35.0 % error (1 sigma) of its energy per inference: profile them ..."; beyond
/// closeCallsNamed, their count and the nearest; empty without one.
QString closeCallHtml(const Recommendation& recommendation, Objective objective);

/// The advisor's answer in one HTML paragraph body, written once for the window and the report: "Use MODE:
/// latency per batch, energy per inference, average power — saving than BASELINE (predicted, provenance)", or
/// the closest modes when none meets the limits. `headlineStyle` is the inline CSS of the "Use MODE" part.
QString recommendationHeadline(const Recommendation& recommendation, const QString& headlineStyle = {});

/// The grid's better answer beside a stock recommendation, in HTML, for the window's card and the report:
/// "<b>Custom clocks would save 31.8 %</b> against MAXN (the stock answer: 12.0 %): GPU 625 · …, 7.1 ms per
/// batch (predicted from estimates)."; `hint` from AnalysisResult::gridHint.
QString gridHintHtml(const GridHint& hint, const Recommendation& stock);

/// The answer at another precision beside the request's, in HTML: "<b>At FP16</b> (TensorRT engines run FP16
/// or INT8): MODE_15W, 7.1 ms per batch, 27.5 mJ per inference — 40.2 % less energy than the answer at
/// as-model (predicted from estimates)."; INT8 adds that it needs calibration and may cost accuracy.
QString precisionHintHtml(const PrecisionHint& hint, const Recommendation& asked, Precision askedPrecision);

} // namespace rooftop::models
