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

/// The result of an LLM run of `config` (config.llm active): its last non-empty line as a JSON object with
/// the time to first token (ttft_ms, or prefill_tok_s: batch x prompt tokens a second) and the time per
/// output token (tpot_ms, or decode_tok_s: batch tokens a second), optional power_w and energy_j (of the
/// whole generation), latency_ms (the whole generation; else TTFT + generate x TPOT), and the prompt,
/// generate and batch it ran, which must be those asked for. Anything else is a failed result naming what is
/// wrong.
RunResult parseLlmRunnerOutput(const std::string& output, const RunConfig& config);

} // namespace rooftop
