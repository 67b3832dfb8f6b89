// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// One llama.cpp `llama-bench` test: a prefill of n_prompt tokens, or n_gen decode steps, after n_depth
/// cached tokens (batch 1).
struct LlamaBenchRecord {
    int64_t prompt = 0;   ///< n_prompt
    int64_t generate = 0; ///< n_gen
    int64_t depth = 0;    ///< n_depth: tokens in the cache before the test
    int64_t batch = 1;    ///< sequences at once (llama-bench and MLC: 1; a profile --llm run: its batch)
    double averageSeconds = 0.0; ///< avg_ns: the whole test (the prompt, or all n_gen steps)
    double stddevSeconds = 0.0;  ///< stddev_ns
    std::string modelType;       ///< model_type ("llama 7B Q4_K - Medium"), for messages
    int64_t modelParameters = 0; ///< model_n_params; 0 when the file does not say
    int index = 0;               ///< 1-based record number in the file
    /// True for a prefill test (n_prompt > 0, n_gen 0).
    bool prefill() const { return prompt > 0 && generate == 0; }
};

/// What a llama-bench file holds: its prefill and decode tests, and how many mixed (-pg) tests were left out.
struct LlamaBenchFile {
    std::vector<LlamaBenchRecord> records;
    int mixedSkipped =
        0; ///< tests with both n_prompt and n_gen (llama-bench -pg): their time mixes the phases
};

/// Reads `llama-bench -o json` (an array of records) or `-o jsonl` (one record a line); throws InputError
/// naming the file and the record at fault (not JSON, a field missing or not a whole number, a time not
/// positive, no prefill or decode test at all).
LlamaBenchFile readLlamaBench(const std::string& path);

/// The whole text of a benchmark file; throws InputError when it cannot be read or holds more than 64 MiB
/// (`what`: whose output it should be, for the message).
std::string readBenchText(const std::string& path, const std::string& what);

/// The same from text already in memory (the fuzz target's entry); `name` appears in messages.
LlamaBenchFile parseLlamaBench(const std::string& text, const std::string& name);

} // namespace rooftop
