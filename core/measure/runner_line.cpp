// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/runner_line.h"

#include "core/common/text_format.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <optional>

namespace rooftop {

namespace {

std::string lastNonEmptyLine(const std::string& output) {
    size_t end = output.size();
    while (end > 0) {
        const size_t start = output.rfind('\n', end - 1);
        const size_t from = start == std::string::npos ? 0 : start + 1;
        const std::string line = output.substr(from, end - from);
        if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
        if (start == std::string::npos) break;
        end = start;
    }
    return {};
}

std::string shortened(std::string text) {
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    return text;
}

/// The key's value when present: a positive finite number, else a reason in *why.
std::optional<double> positive(const QJsonObject& object, const char* key, std::string* why) {
    if (!object.contains(key)) return std::nullopt;
    const QJsonValue value = object.value(key);
    if (!value.isDouble()) {
        *why = std::string(key) + " is not a number";
        return std::nullopt;
    }
    const double number = value.toDouble();
    if (!std::isfinite(number) || number <= 0) *why = std::string(key) + " must be positive and finite";
    return number;
}

/// The output's last line as a JSON object, or the reason it is none (`expected` names the key it needs).
std::optional<QJsonObject> lastObject(const std::string& output, const char* expected, std::string* line,
                                      std::string* why) {
    *line = lastNonEmptyLine(output);
    if (line->empty()) {
        *why = std::string("no output line (expected a JSON object with ") + expected + ")";
        return std::nullopt;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(*line), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        *why = "last line is not a JSON object: " + shortened(*line);
        return std::nullopt;
    }
    return document.object();
}

/// A count the runner says it ran, when it says one, against the one asked for; a reason when they differ.
std::string sameCount(const QJsonObject& object, const char* key, int64_t asked) {
    if (!object.contains(key)) return {};
    const QJsonValue value = object.value(key);
    if (!value.isDouble()) return std::string(key) + " is not a number";
    if (value.toDouble() == double(asked)) return {};
    return std::string("ran ") + key + " " + general(value.toDouble(), 10) + ", asked for " +
           std::to_string(asked);
}

} // namespace

RunResult parseLlmRunnerOutput(const std::string& output, const RunConfig& config) {
    std::string line, why;
    const std::optional<QJsonObject> found = lastObject(output, "ttft_ms and tpot_ms", &line, &why);
    if (!found) return RunResult::failed(why);
    const QJsonObject& object = *found;
    for (const auto& [key, asked] : {std::pair<const char*, int64_t>{"prompt", config.llm.prompt},
                                     {"generate", config.llm.generate},
                                     {"batch", config.batch}})
        if (const std::string differs = sameCount(object, key, asked); !differs.empty())
            return RunResult::failed(differs + ": " + shortened(line));
    const auto ttft = positive(object, "ttft_ms", &why);
    const auto tpot = positive(object, "tpot_ms", &why);
    const auto prefillRate = positive(object, "prefill_tok_s", &why);
    const auto decodeRate = positive(object, "decode_tok_s", &why);
    const auto latency = positive(object, "latency_ms", &why);
    const auto power = positive(object, "power_w", &why);
    const auto energy = positive(object, "energy_j", &why);
    if (!why.empty()) return RunResult::failed(why + ": " + shortened(line));
    if (!ttft && !prefillRate) return RunResult::failed("no ttft_ms or prefill_tok_s: " + shortened(line));
    if (!tpot && !decodeRate) return RunResult::failed("no tpot_ms or decode_tok_s: " + shortened(line));
    const double batch = double(config.batch);
    LlmMetrics metrics;
    metrics.ttftMs = ttft ? *ttft : batch * double(config.llm.prompt) / *prefillRate * 1e3;
    metrics.tpotMs = tpot ? *tpot : batch / *decodeRate * 1e3;
    const double generation = metrics.ttftMs + double(config.llm.generate) * metrics.tpotMs;
    if (latency && *latency < 0.99 * generation)
        return RunResult::failed("latency_ms is below ttft_ms + generate x tpot_ms: " + shortened(line));
    RunResult result;
    result.ok = true;
    result.latencyMs = latency ? *latency : generation;
    result.powerW = power;
    result.energyJ = energy;
    result.llm = metrics;
    return result;
}

RunResult parseRunnerOutput(const std::string& output) {
    std::string line, why;
    const std::optional<QJsonObject> found = lastObject(output, "latency_ms", &line, &why);
    if (!found) return RunResult::failed(why);
    const QJsonObject& object = *found;
    const auto latency = positive(object, "latency_ms", &why);
    const auto p99 = positive(object, "p99_ms", &why);
    const auto power = positive(object, "power_w", &why);
    const auto energy = positive(object, "energy_j", &why);
    if (!why.empty()) return RunResult::failed(why + ": " + shortened(line));
    if (!latency) return RunResult::failed("no latency_ms: " + shortened(line));
    if (p99 && *p99 < *latency) return RunResult::failed("p99_ms is below latency_ms: " + shortened(line));
    RunResult result;
    result.ok = true;
    result.latencyMs = *latency;
    result.p99Ms = p99; // none stays none: a copy of the median would read as a measured tail
    result.powerW = power;
    result.energyJ = energy;
    return result;
}

} // namespace rooftop
