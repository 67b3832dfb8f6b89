// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/trtexec_layer_info.h"

#include "core/common/errors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace rooftop {

namespace {

// TensorRT writes Metadata's separators as raw bytes, which strict JSON forbids inside strings: escape every
// control character except the whitespace JSON allows between tokens, so any JSON parser reads the file.
QByteArray escapeControlCharacters(const std::string& json) {
    static const char hex[] = "0123456789abcdef";
    QByteArray out;
    out.reserve(static_cast<qsizetype>(json.size()) + static_cast<qsizetype>(json.size() / 16));
    size_t copied = 0; // json[0, copied) is in out
    for (size_t i = 0; i < json.size(); ++i) {
        const auto byte = static_cast<unsigned char>(json[i]);
        if (byte >= 0x20 || byte == '\n' || byte == '\r' || byte == '\t') continue;
        out.append(json.data() + copied, static_cast<qsizetype>(i - copied));
        const char escaped[] = {'\\', 'u', '0', '0', hex[byte >> 4], hex[byte & 15]};
        out.append(escaped, 6);
        copied = i + 1;
    }
    out.append(json.data() + copied, static_cast<qsizetype>(json.size() - copied));
    return out;
}

bool saysReformat(const QJsonObject& layer) {
    for (const char* key : {"LayerType", "ParameterType", "Origin"})
        if (layer.value(key).toString().compare("Reformat", Qt::CaseInsensitive) == 0) return true;
    return false;
}

/// Each output's "Dimensions" (empty when an output gives none); `fail` for a malformed "Outputs".
template <typename Fail>
std::vector<std::vector<int64_t>> outputDimensions(const QJsonObject& layer, const Fail& fail) {
    std::vector<std::vector<int64_t>> outputs;
    const QJsonValue value = layer.value("Outputs");
    if (value.isUndefined()) return outputs;
    if (!value.isArray()) fail("'Outputs' must be an array");
    for (const QJsonValue output : value.toArray()) {
        if (!output.isObject()) fail("'Outputs' must hold objects");
        std::vector<int64_t> dims;
        const QJsonValue dimensions = output.toObject().value("Dimensions");
        if (!dimensions.isUndefined()) {
            if (!dimensions.isArray()) fail("'Dimensions' must be an array of integers");
            for (const QJsonValue dim : dimensions.toArray()) {
                const double d = dim.toDouble(-2.0);
                if (!dim.isDouble() || d != std::floor(d) || d < -1 || d > 9.0e15)
                    fail("'Dimensions' must be an array of integers (-1 where dynamic)");
                dims.push_back(static_cast<int64_t>(d));
            }
        }
        outputs.push_back(std::move(dims));
    }
    return outputs;
}

} // namespace

std::vector<std::string> metadataNodeNames(const std::string& metadata) {
    // entries `[ONNX Layer: NAME]`, whatever separates them (\x1E, \x1F, '+'): a name ends at ']' or a
    // separator
    static const std::string open = "[ONNX Layer: ";
    std::vector<std::string> names;
    size_t at = metadata.find(open);
    while (at != std::string::npos) {
        const size_t begin = at + open.size();
        const size_t end = metadata.find_first_of("]\x1e\x1f", begin);
        if (end != std::string::npos && metadata[end] == ']') {
            const size_t first = metadata.find_first_not_of(' ', begin);
            const size_t last = metadata.find_last_not_of(' ', end - 1);
            if (first != std::string::npos && first < end)
                names.push_back(metadata.substr(first, last - first + 1));
        }
        at = metadata.find(open, end == std::string::npos ? metadata.size() : end);
    }
    return names;
}

std::vector<EngineLayerInfo> parseTrtexecLayerInfo(const std::string& json, const std::string& where) {
    const std::string prefix = where + ": trtexec layer info: ";
    auto fail = [&](const std::string& what) { throw InputError(prefix + what); };
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(escapeControlCharacters(json), &error);
    if (error.error != QJsonParseError::NoError)
        fail("not JSON (" + error.errorString().toStdString() + " at byte " + std::to_string(error.offset) +
             ")");
    if (!document.isObject()) fail("expected an object {\"Layers\": [...]}");
    const QJsonValue layersValue = document.object().value("Layers");
    if (!layersValue.isArray()) fail("'Layers' must be an array");
    const QJsonArray layers = layersValue.toArray();

    std::vector<EngineLayerInfo> result;
    result.reserve(static_cast<size_t>(layers.size()));
    for (qsizetype i = 0; i < layers.size(); ++i) {
        const std::string at = "layer " + std::to_string(i + 1) + ": ";
        EngineLayerInfo info;
        if (layers[i].isString()) {
            info.name = layers[i].toString().toStdString();
        } else if (layers[i].isObject()) {
            const QJsonObject layer = layers[i].toObject();
            const QJsonValue name = layer.value("Name");
            if (!name.isString()) fail(at + "'Name' must be a string");
            info.name = name.toString().toStdString();
            const QJsonValue type = layer.value("LayerType");
            if (!type.isUndefined() && !type.isString()) fail(at + "'LayerType' must be a string");
            info.type = type.toString().toStdString();
            const QJsonValue metadata = layer.value("Metadata");
            if (!metadata.isUndefined() && !metadata.isString()) fail(at + "'Metadata' must be a string");
            info.onnxNodes = metadataNodeNames(metadata.toString().toStdString());
            info.reformat = saysReformat(layer);
            info.outputDims = outputDimensions(layer, [&](const std::string& what) { fail(at + what); });
        } else {
            fail(at + "expected a layer name or a layer object");
        }
        if (info.name.empty()) fail(at + "empty layer name");
        result.push_back(std::move(info));
    }
    return result;
}

} // namespace rooftop
