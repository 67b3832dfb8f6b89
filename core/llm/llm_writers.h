// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_session.h"
#include "core/report/json_writer.h"

#include <string>

namespace rooftop {

/// The counts of both phases, the memory footprint and every mode's TTFT, TPOT, tokens/s and tokens/J.
std::string llmTable(const LlmResult& result);
/// Tokens per second to four digits, whole numbers from 10,000 up (118652, not 1.187e+05).
std::string tokenRate(double perSecond);
/// One row per mode (with the counts' columns repeated per row for spreadsheets); with a context sweep, one
/// row per mode and swept context (its TPOT).
std::string llmCsv(const LlmResult& result);
/// [low, high] of a value at `confidence` for a log-normal error of `spread` (the documents' `_interval`).
JsonValue intervalJson(double value, double spread, double confidence);
/// "rooftop-llm/5" (docs/json.md, docs/llm.md).
std::string llmJson(const LlmResult& result);

} // namespace rooftop
