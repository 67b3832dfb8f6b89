// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llama_bench.h"

#include <string>

namespace rooftop {

/// Reads MLC LLM's benchmark output as jetson-containers' `benchmark.py` writes it: its `--save` CSV
/// (timestamp, hostname, api, model, precision, input_tokens, output_tokens, prefill_time, prefill_rate,
/// decode_time, decode_rate, memory) or its printed log (the "AVERAGE OVER N RUNS (input_tokens=I,
/// output_tokens=O)" summary, else each prompt's "input=I output=O prefill_time ... decode_rate ..." line).
/// Each result becomes a prefill test of I tokens and a decode test of O steps after I cached ones (batch
/// 1). Throws InputError naming the file and line (a missing or non-numeric field, a time that disagrees with
/// its rate by more than 5 %, nothing MLC wrote).
LlamaBenchFile readMlcBench(const std::string& path);

/// The same from text already in memory (the fuzz target's entry); `name` appears in messages.
LlamaBenchFile parseMlcBench(const std::string& text, const std::string& name);

} // namespace rooftop
