// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tune/tune_search.h"

#include <optional>
#include <string>

namespace rooftop {

/// One sample as a tune's progress shows it, the same in the CLI and the window: "3. MODE batch 4 fp16:
/// 6.1 ms, 32.4 W, 49.7 mJ/inference (simulated, mean of 2 runs, runs file) — latency 6.1 ms > SLO 5 ms", a
/// failed run with its reason; custom modes as the CLI takes them, or with `readableModes` as the window
/// names them. `provenance` is the runner's ("measured", "simulated").
std::string tuneSampleLine(const TuneOutcome& sofar, size_t index, const TuneSpace& space,
                           const TuneOptions& options, const std::string& provenance, bool readableModes);

/// The least measured energy per item (mJ) of the samples within the limits so far; none before one is.
std::optional<double> bestEnergySoFar(const TuneOutcome& sofar);

/// "Run 4 of at most 15; best so far within the limits: 49.7 mJ per inference (simulated)", or "... none
/// yet".
std::string tuneProgressLine(const TuneOutcome& sofar, const TuneOptions& options,
                             const std::string& provenance);

} // namespace rooftop
