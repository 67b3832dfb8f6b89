// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tune/tune_session.h"

#include <string>

namespace rooftop {

/// The tune as text: every sample (measured, with Rooftop's prediction beside it), the recommendation or
/// the closest samples, the baseline, the saving and the nvpmodel commands; custom modes by the name the CLI
/// takes (c8-cpu1728-gpu612-emc3199), or with `readableModes` as the window names them (readableModeName).
std::string tuneTable(const TuneReport& report, bool readableModes = false);

/// The tune's answer in one line: "Recommended (simulated, within the limits): MODE batch 1 fp32: 6.8 ms,
/// 32.2 W, 219.5 mJ per inference; 11.8 % less energy than the baseline", or that no configuration met them.
std::string tuneAnswerLine(const TuneReport& report, bool readableModes = false);

/// The tune as JSON: {"device", "model", "budget", "search", "objective", "limits", "runner", "stop",
/// "samples": [...], "recommended": {..., "saving_pct", "nvpmodel"} or null, "closest": [...],
/// "baseline": {...} or null}; numbers per sample are measured, "predicted_*" Rooftop's roofline.
std::string tuneJson(const TuneReport& report);

} // namespace rooftop
