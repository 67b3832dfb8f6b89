// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/runner_line.h"

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

} // namespace

RunResult parseRunnerOutput(const std::string& output) {
    const std::string line = lastNonEmptyLine(output);
    if (line.empty()) return RunResult::failed("no output line (expected a JSON object with latency_ms)");
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(line), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return RunResult::failed("last line is not a JSON object: " + shortened(line));
    const QJsonObject object = document.object();
    std::string why;
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
