// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"

#include <QString>

namespace rooftop::models {

/// "predicted, estimate": a prediction and the weakest provenance of its inputs ("predicted" alone when
/// that provenance is itself predicted).
QString predictedFrom(Provenance provenance);

/// The advisor's answer in one HTML paragraph body, written once for the window and the report: "Use MODE:
/// latency per batch, energy per inference, average power — saving than BASELINE (predicted, provenance)", or
/// the closest modes when none meets the limits. `headlineStyle` is the inline CSS of the "Use MODE" part.
QString recommendationHeadline(const Recommendation& recommendation, const QString& headlineStyle = {});

} // namespace rooftop::models
