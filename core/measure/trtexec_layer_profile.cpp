// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/trtexec_layer_profile.h"

#include "core/common/errors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace rooftop {

namespace {

// Bounds that no real profile reaches: a layer slower than a day per inference, or more than 10^12 profiled
// iterations, is a broken file.
constexpr double maxMs = 86400e3;
constexpr double maxCount = 1e12;
constexpr double maxPercent = 100.5; // rounding can push a single layer's share a little past 100

class ProfileReader {
public:
    explicit ProfileReader(const std::string& where) : where_(where + ": trtexec layer profile: ") {}

    [[noreturn]] void fail(const std::string& what) const { throw InputError(where_ + what); }

    double number(const QJsonObject& record, size_t index, const char* key, double maximum) const {
        const QJsonValue value = record.value(key);
        if (value.isUndefined()) fail(at(index) + "no '" + key + "'");
        const double x = value.toDouble(-1.0);
        if (!value.isDouble() || !std::isfinite(x) || x < 0 || x > maximum)
            fail(at(index) + "'" + key + "' must be a number from 0 to " + bound(maximum));
        return x;
    }

    static std::string at(size_t index) { return "record " + std::to_string(index + 1) + ": "; }

private:
    static std::string bound(double maximum) {
        return maximum == maxPercent ? "100" : QString::number(maximum, 'g', 6).toStdString();
    }
    std::string where_;
};

} // namespace

std::vector<LayerTime> parseTrtexecLayerProfile(const std::string& json, const std::string& where) {
    const ProfileReader reader(where);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError)
        reader.fail("not JSON (" + error.errorString().toStdString() + " at byte " +
                    std::to_string(error.offset) + ")");
    if (!document.isArray()) reader.fail("expected a JSON array");
    const QJsonArray records = document.array();
    if (records.isEmpty()) reader.fail("empty array (no {\"count\": N} record)");
    const QJsonValue first = records.first();
    if (!first.isObject() || !first.toObject().contains("count"))
        reader.fail("the first record must be {\"count\": N}");
    const double count = reader.number(first.toObject(), 0, "count", maxCount);
    if (count != std::floor(count)) reader.fail(ProfileReader::at(0) + "'count' must be a whole number");

    std::vector<LayerTime> layers;
    for (qsizetype i = 1; i < records.size(); ++i) {
        const size_t index = static_cast<size_t>(i);
        if (!records[i].isObject()) reader.fail(ProfileReader::at(index) + "expected a layer object");
        const QJsonObject record = records[i].toObject();
        const QJsonValue name = record.value("name");
        if (!name.isString() || name.toString().isEmpty())
            reader.fail(ProfileReader::at(index) + "'name' must be a non-empty string");
        LayerTime layer;
        layer.name = name.toString().toStdString();
        // a line break in a name would split its row of the line-oriented layers file
        std::replace_if(
            layer.name.begin(), layer.name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
        reader.number(record, index, "timeMs", maxMs * maxCount);
        layer.averageMs = reader.number(record, index, "averageMs", maxMs);
        layer.medianMs =
            record.contains("medianMs") ? reader.number(record, index, "medianMs", maxMs) : layer.averageMs;
        layer.percent = reader.number(record, index, "percentage", maxPercent);
        layers.push_back(std::move(layer));
    }
    return layers;
}

} // namespace rooftop
