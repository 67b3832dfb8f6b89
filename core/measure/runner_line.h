// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/run_config.h"

#include <string>

namespace rooftop {

/// The result a command's output reports: its last non-empty line as a JSON object with latency_ms
/// (required, positive and finite), p99_ms (>= latency_ms), power_w and energy_j (positive and finite).
/// Anything else (no line, not an object, a missing, negative or non-finite value, p99 below the median) is a
/// failed result naming what is wrong.
RunResult parseRunnerOutput(const std::string& output);

} // namespace rooftop
