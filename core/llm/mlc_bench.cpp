// SPDX-License-Identifier: GPL-3.0-or-later
// MLC's benchmark reports, per result, the prompt's tokens and time (prefill) and the generated tokens and
// their time (decode); benchmark.py averages every prompt but the first (a warm-up). The summary is what the
// tool reports, so a log with one is read from it alone.
#include "core/llm/mlc_bench.h"

#include "core/common/decimal_text.h"
#include "core/common/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <vector>

namespace rooftop {
namespace {

constexpr double largestCount = 1e9;   // tokens
constexpr double rateTolerance = 0.25; // time x rate against tokens: averaged prompts differ a little

[[noreturn]] void fail(const std::string& name, int line, const std::string& message) {
    throw InputError(name + ":" + std::to_string(line) + ": " + message);
}

std::string trimmed(const std::string& text) {
    const size_t from = text.find_first_not_of(" \t\r");
    if (from == std::string::npos) return {};
    const size_t to = text.find_last_not_of(" \t\r");
    return text.substr(from, to - from + 1);
}

std::vector<std::string> split(const std::string& text, const std::string& separators) {
    std::vector<std::string> parts;
    std::string part;
    for (char c : text) {
        if (separators.find(c) != std::string::npos) {
            parts.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    }
    parts.push_back(part);
    return parts;
}

std::optional<double> number(const std::string& text) {
    const std::string t = trimmed(text);
    if (t.empty() || t.size() > 40) return std::nullopt;
    return readDecimal(t);
}

/// One result as MLC printed or saved it, before it is checked.
struct RawResult {
    std::map<std::string, std::string> fields; ///< input_tokens, output_tokens, prefill_time, ...
    std::string model;
    int line = 0;
};

int64_t tokens(const RawResult& raw, const char* key, const std::string& name, bool positive) {
    const auto found = raw.fields.find(key);
    if (found == raw.fields.end())
        fail(name, raw.line, std::string(key) + " is missing (not MLC's benchmark?)");
    const std::optional<double> value = number(found->second);
    if (!value || *value < (positive ? 1 : 0) || *value > largestCount || *value != std::floor(*value))
        fail(name, raw.line,
             std::string(key) + " must be a whole number from " + (positive ? "1" : "0") + " to 1e9, got '" +
                 trimmed(found->second).substr(0, 40) + "'");
    return static_cast<int64_t>(*value);
}

std::optional<double> positiveField(const RawResult& raw, const std::string& key, const std::string& name) {
    const auto found = raw.fields.find(key);
    if (found == raw.fields.end() || trimmed(found->second).empty()) return std::nullopt;
    const std::optional<double> value = number(found->second);
    if (!value || *value <= 0 || *value > 1e9)
        fail(name, raw.line,
             key + " must be a positive number, got '" + trimmed(found->second).substr(0, 40) + "'");
    return value;
}

/// A phase's seconds for `count` tokens from its time and rate (tokens/s), which must agree when both are
/// given.
double phaseSeconds(const RawResult& raw, const std::string& phase, int64_t count, const std::string& name) {
    const std::optional<double> time = positiveField(raw, phase + "_time", name);
    const std::optional<double> rate = positiveField(raw, phase + "_rate", name);
    if (!time && !rate) fail(name, raw.line, phase + "_time and " + phase + "_rate are missing");
    if (time && rate) {
        const double implied = double(count) / *rate;
        if (std::fabs(*time / implied - 1.0) > rateTolerance)
            fail(name, raw.line,
                 phase + "_time " + std::to_string(*time) + " s disagrees with " + std::to_string(count) +
                     " tokens at " + phase + "_rate " + std::to_string(*rate) + " tokens/s");
    }
    return time ? *time : double(count) / *rate;
}

void addResult(const RawResult& raw, const std::string& name, LlamaBenchFile& file) {
    const int64_t input = tokens(raw, "input_tokens", name, true);
    const int64_t output = tokens(raw, "output_tokens", name, false);
    LlamaBenchRecord prefill;
    prefill.prompt = input;
    prefill.averageSeconds = phaseSeconds(raw, "prefill", input, name);
    prefill.modelType = raw.model;
    prefill.index = raw.line;
    file.records.push_back(prefill);
    if (output == 0) return;
    LlamaBenchRecord decode;
    decode.generate = output;
    decode.depth = input;
    decode.averageSeconds = phaseSeconds(raw, "decode", output, name);
    decode.modelType = raw.model;
    decode.index = raw.line;
    file.records.push_back(decode);
}

bool isCsvHeader(const std::vector<std::string>& cells) {
    bool input = false, prefill = false;
    for (const std::string& cell : cells) {
        input |= trimmed(cell) == "input_tokens";
        prefill |= trimmed(cell) == "prefill_time" || trimmed(cell) == "prefill_rate";
    }
    return input && prefill;
}

/// The key-number pairs of a printed line ("input=16 output=128 prefill_time 0.025 sec, ..."), keys as the
/// CSV names them.
RawResult printedResult(const std::string& line, int number) {
    RawResult raw;
    raw.line = number;
    // the model's name may hold colons of its own ("HF://mlc-ai/..."): the last one before the first key
    const size_t firstKey = std::min(line.find("input="), line.find("prefill_time"));
    const size_t colon = firstKey == std::string::npos ? std::string::npos : line.rfind(':', firstKey);
    if (colon != std::string::npos) raw.model = trimmed(line.substr(0, colon));
    const std::vector<std::string> words =
        split(line.substr(colon == std::string::npos ? 0 : colon + 1), " \t,=()");
    std::vector<std::string> nonEmpty;
    for (const std::string& word : words)
        if (!word.empty()) nonEmpty.push_back(word);
    for (size_t i = 0; i + 1 < nonEmpty.size(); ++i) {
        std::string key = nonEmpty[i];
        if (key == "input") key = "input_tokens";
        if (key == "output") key = "output_tokens";
        static const char* known[] = {"input_tokens", "output_tokens", "prefill_time",
                                      "prefill_rate", "decode_time",   "decode_rate"};
        for (const char* k : known)
            if (key == k && !raw.fields.count(key)) raw.fields[key] = nonEmpty[i + 1];
    }
    return raw;
}

} // namespace

LlamaBenchFile parseMlcBench(const std::string& text, const std::string& name) {
    std::string body = text;
    if (body.rfind("\xEF\xBB\xBF", 0) == 0) body.erase(0, 3);
    const std::vector<std::string> lines = split(body, "\n");

    LlamaBenchFile file;
    std::vector<std::string> header;
    std::vector<RawResult> averages, prompts;
    std::optional<RawResult>
        averageTokens; // the "AVERAGE OVER N RUNS (input_tokens=...)" line before a summary
    for (size_t i = 0; i < lines.size(); ++i) {
        const int number = int(i) + 1;
        const std::string line = trimmed(lines[i]);
        if (line.empty()) continue;
        const std::vector<std::string> cells = split(line, ",");
        if (isCsvHeader(cells)) {
            header = cells;
            continue;
        }
        if (!header.empty()) {
            if (cells.size() != header.size())
                fail(name, number,
                     std::to_string(cells.size()) + " fields where the header has " +
                         std::to_string(header.size()));
            RawResult raw;
            raw.line = number;
            for (size_t c = 0; c < cells.size(); ++c)
                raw.fields[trimmed(header[c])] = cells[c];
            raw.model = raw.fields.count("model") ? trimmed(raw.fields["model"]) : std::string();
            addResult(raw, name, file);
            continue;
        }
        if (line.rfind("AVERAGE OVER", 0) == 0) {
            averageTokens = printedResult(line, number);
            continue;
        }
        if (line.find("prefill_time") == std::string::npos || line.find("decode_time") == std::string::npos)
            continue; // the log's other lines: versions, the prompt, the generated text
        RawResult raw = printedResult(line, number);
        if (!raw.fields.count("input_tokens") && averageTokens) {
            for (const char* key : {"input_tokens", "output_tokens"})
                if (averageTokens->fields.count(key)) raw.fields[key] = averageTokens->fields.at(key);
            averages.push_back(raw);
            averageTokens.reset();
        } else {
            prompts.push_back(raw);
        }
    }
    for (const RawResult& raw : averages.empty() ? prompts : averages)
        addResult(raw, name, file);
    if (file.records.empty())
        throw InputError(name + ": no MLC benchmark result (the --save CSV's header with input_tokens and "
                                "prefill_time, or lines with prefill_time and decode_time)");
    return file;
}

LlamaBenchFile readMlcBench(const std::string& path) {
    return parseMlcBench(readBenchText(path, "MLC's benchmark"), path);
}

} // namespace rooftop
