// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/trtexec_layer_info.h"

#include "core/common/errors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace rooftop {

namespace {

// TensorRT writes Metadata's separators as raw bytes, which strict JSON forbids inside strings: escape every
// control character except the whitespace JSON allows between tokens, so any JSON parser reads the file.
QByteArray escapeControlCharacters(const std::string& json) {
    QByteArray out;
    out.reserve(static_cast<qsizetype>(json.size()));
    static const char hex[] = "0123456789abcdef";
    for (const char c : json) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 && byte != '\n' && byte != '\r' && byte != '\t') {
            out.append("\\u00");
            out.append(hex[byte >> 4]);
            out.append(hex[byte & 15]);
        } else {
            out.append(c);
        }
    }
    return out;
}

bool saysReformat(const QJsonObject& layer) {
    for (const char* key : {"LayerType", "ParameterType", "Origin"})
        if (layer.value(key).toString().compare("Reformat", Qt::CaseInsensitive) == 0) return true;
    return false;
}

} // namespace

std::vector<std::string> metadataNodeNames(const std::string& metadata) {
    static const QRegularExpression entry(QStringLiteral("\\[ONNX Layer: ([^\\]\\x1e\\x1f]+)\\]"));
    std::vector<std::string> names;
    const QString text = QString::fromStdString(metadata);
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[\\x1e\\x1f]")))) {
        auto matches = entry.globalMatch(part);
        while (matches.hasNext()) {
            const std::string name = matches.next().captured(1).trimmed().toStdString();
            if (!name.empty()) names.push_back(name);
        }
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
        } else {
            fail(at + "expected a layer name or a layer object");
        }
        if (info.name.empty()) fail(at + "empty layer name");
        result.push_back(std::move(info));
    }
    return result;
}

} // namespace rooftop
