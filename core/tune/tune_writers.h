// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tune/tune_session.h"

#include <string>

namespace rooftop {

/// The tune as text: every sample (measured, with Rooftop's prediction beside it), the recommendation or
/// the closest samples, the baseline, the saving and the nvpmodel commands; custom modes by the name the CLI
/// takes (c8-cpu1728-gpu612-emc3199), or with `readableModes` as the window names them (readableModeName).
std::string tuneTable(const TuneReport& report, bool readableModes = false);

/// The tune as JSON: {"device", "model", "budget", "search", "objective", "limits", "runner", "stop",
/// "samples": [...], "recommended": {..., "saving_pct", "nvpmodel"} or null, "closest": [...],
/// "baseline": {...} or null}; numbers per sample are measured, "predicted_*" Rooftop's roofline.
std::string tuneJson(const TuneReport& report);

} // namespace rooftop
