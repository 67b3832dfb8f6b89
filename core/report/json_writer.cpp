// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/json_writer.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QString>
#include <algorithm>
#include <charconv>
#include <cmath>

namespace rooftop {
namespace {

constexpr double exactIntegerRange = 9007199254740992.0; // 2^53: every integer up to it is a double

bool isAscii(const std::string& text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

void writeString(std::string& out, const std::string& text) {
    if (!isAscii(text)) {
        // Qt's own writer for what UTF-8 decoding (and its replacement of invalid bytes) decides.
        const QByteArray quoted =
            QJsonDocument(QJsonArray{QString::fromStdString(text)}).toJson(QJsonDocument::Compact);
        out.append(quoted.constData() + 1, static_cast<size_t>(quoted.size() - 2));
        return;
    }
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += "\\u00";
                out += hex[(c >> 4) & 0xf];
                out += hex[c & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void writeIndent(std::string& out, int indent) {
    out.append(4 * static_cast<size_t>(indent), ' ');
}

} // namespace

JsonValue::JsonValue(double value) {
    if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) <= exactIntegerRange) {
        kind_ = Kind::Integer;
        integer_ = static_cast<int64_t>(value);
    } else if (std::isfinite(value)) {
        kind_ = Kind::Double;
        double_ = value;
    }
}

JsonValue JsonValue::object() {
    JsonValue value;
    value.kind_ = Kind::Object;
    return value;
}

JsonValue JsonValue::array() {
    JsonValue value;
    value.kind_ = Kind::Array;
    return value;
}

JsonValue JsonValue::strings(const std::vector<std::string>& values) {
    JsonValue value = array();
    value.items_.reserve(values.size());
    for (const auto& text : values)
        value.items_.emplace_back(text);
    return value;
}

JsonValue& JsonValue::set(const std::string& rawKey, JsonValue value) {
    // A key is what Qt decodes it to (invalid UTF-8 replaced), so keys equal in Qt are equal here.
    const std::string key = isAscii(rawKey) ? rawKey : QString::fromStdString(rawKey).toStdString();
    for (auto& member : members_)
        if (member.first == key) {
            member.second = std::move(value);
            return *this;
        }
    members_.emplace_back(key, std::move(value));
    return *this;
}

JsonValue& JsonValue::append(JsonValue value) {
    items_.push_back(std::move(value));
    return *this;
}

std::string JsonValue::toIndentedJson() const {
    std::string out;
    out.reserve(4096);
    write(out, 0);
    out += '\n';
    return out;
}

void JsonValue::write(std::string& out, int indent) const {
    switch (kind_) {
    case Kind::Null:
        out += "null";
        return;
    case Kind::Bool:
        out += bool_ ? "true" : "false";
        return;
    case Kind::Integer: {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, integer_).ptr;
        out.append(digits, static_cast<size_t>(end - digits));
        return;
    }
    case Kind::Double:
        out += QByteArray::number(double_, 'g', QLocale::FloatingPointShortest).toStdString();
        return;
    case Kind::String:
        writeString(out, string_);
        return;
    case Kind::Array:
        out += "[\n";
        for (size_t i = 0; i < items_.size(); ++i) {
            writeIndent(out, indent + 1);
            items_[i].write(out, indent + 1);
            out += i + 1 < items_.size() ? ",\n" : "\n";
        }
        writeIndent(out, indent);
        out += ']';
        return;
    case Kind::Object: {
        // QJsonObject keeps its keys sorted in UTF-16 order.
        std::vector<const std::pair<std::string, JsonValue>*> sorted;
        sorted.reserve(members_.size());
        for (const auto& member : members_)
            sorted.push_back(&member);
        const bool asciiKeys =
            std::all_of(members_.begin(), members_.end(), [](const auto& m) { return isAscii(m.first); });
        if (asciiKeys)
            std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
        else
            std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) {
                return QString::fromStdString(a->first) < QString::fromStdString(b->first);
            });
        out += "{\n";
        for (size_t i = 0; i < sorted.size(); ++i) {
            writeIndent(out, indent + 1);
            writeString(out, sorted[i]->first);
            out += ": ";
            sorted[i]->second.write(out, indent + 1);
            out += i + 1 < sorted.size() ? ",\n" : "\n";
        }
        writeIndent(out, indent);
        out += '}';
        return;
    }
    }
}

} // namespace rooftop
