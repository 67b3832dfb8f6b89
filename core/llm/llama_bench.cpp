// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/llm/llama_bench.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace rooftop {
namespace {

constexpr double largestCount = 1e9; // tokens; a whole number of at most this many

[[noreturn]] void fail(const std::string& name, int index, const std::string& message) {
    throw InputError(name + ": record " + std::to_string(index) + ": " + message);
}

int64_t countField(const QJsonObject& object, const char* key, const std::string& name, int index) {
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined()) fail(name, index, std::string(key) + " is missing (not llama-bench output?)");
    const double number = value.toDouble(-1.0);
    if (!value.isDouble() || !std::isfinite(number) || number < 0 || number > largestCount ||
        number != std::floor(number))
        fail(name, index, std::string(key) + " must be a whole number from 0 to 1e9");
    return static_cast<int64_t>(number);
}

double secondsField(const QJsonObject& object, const char* key, const std::string& name, int index,
                    bool positive) {
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined()) fail(name, index, std::string(key) + " is missing (not llama-bench output?)");
    const double ns = value.toDouble(-1.0);
    if (!value.isDouble() || !std::isfinite(ns) || ns < 0 || (positive && ns <= 0) || ns > 1e15)
        fail(name, index,
             std::string(key) + (positive ? " must be a positive" : " must be a non-negative") +
                 " number of nanoseconds");
    return ns * 1e-9;
}

void addRecord(const QJsonValue& value, const std::string& name, int index, LlamaBenchFile& file) {
    if (!value.isObject()) fail(name, index, "expected a JSON object");
    const QJsonObject object = value.toObject();
    LlamaBenchRecord record;
    record.index = index;
    record.prompt = countField(object, "n_prompt", name, index);
    record.generate = countField(object, "n_gen", name, index);
    record.depth = object.contains(QLatin1String("n_depth")) ? countField(object, "n_depth", name, index) : 0;
    record.averageSeconds = secondsField(object, "avg_ns", name, index, true);
    record.stddevSeconds = object.contains(QLatin1String("stddev_ns"))
                               ? secondsField(object, "stddev_ns", name, index, false)
                               : 0.0;
    record.modelType = object.value(QLatin1String("model_type")).toString().toStdString();
    if (const QJsonValue parameters = object.value(QLatin1String("model_n_params"));
        !parameters.isUndefined()) {
        const double n = parameters.toDouble(-1.0);
        if (!parameters.isDouble() || !std::isfinite(n) || n < 1 || n > 1e13 || n != std::floor(n))
            fail(name, index, "model_n_params must be a whole number from 1 to 1e13");
        record.modelParameters = static_cast<int64_t>(n);
    }
    if (record.prompt == 0 && record.generate == 0)
        fail(name, index, "neither n_prompt nor n_gen is above 0");
    if (record.prompt > 0 && record.generate > 0) {
        ++file.mixedSkipped;
        return;
    }
    file.records.push_back(record);
}

} // namespace

LlamaBenchFile parseLlamaBench(const std::string& text, const std::string& name) {
    LlamaBenchFile file;
    const QByteArray bytes = QByteArray::fromStdString(text);
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error == QJsonParseError::NoError && document.isArray()) {
        const QJsonArray array = document.array();
        for (int i = 0; i < array.size(); ++i)
            addRecord(array.at(i), name, i + 1, file);
    } else if (error.error == QJsonParseError::NoError && document.isObject()) {
        addRecord(document.object(), name, 1, file);
    } else {
        // JSON lines: one record a non-empty line.
        int index = 0;
        for (const QByteArray& line : bytes.split('\n')) {
            if (line.trimmed().isEmpty()) continue;
            ++index;
            QJsonParseError lineError{};
            const QJsonDocument record = QJsonDocument::fromJson(line, &lineError);
            if (lineError.error != QJsonParseError::NoError)
                fail(name, index,
                     "not JSON (" + lineError.errorString().toStdString() +
                         "): llama-bench -o json or -o jsonl");
            addRecord(record.isObject() ? QJsonValue(record.object()) : QJsonValue(), name, index, file);
        }
    }
    if (file.records.empty())
        throw InputError(name + ": no prefill (n_prompt) or decode (n_gen) test" +
                         (file.mixedSkipped ? " (only " + std::to_string(file.mixedSkipped) +
                                                  " mixed -pg tests, whose time mixes the phases)"
                                            : std::string()));
    return file;
}

std::string readBenchText(const std::string& path, const std::string& what) {
    return readInputFile(path, what, int64_t{64} << 20);
}

LlamaBenchFile readLlamaBench(const std::string& path) {
    return parseLlamaBench(readBenchText(path, "llama-bench output"), path);
}

} // namespace rooftop
