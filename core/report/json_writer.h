// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rooftop {

/// A JSON value that writes the text QJsonDocument::Indented writes for the same value (keys sorted,
/// integral doubles as integers), without QJsonObject's copy per insert: for outputs of thousands of objects.
class JsonValue {
public:
    /// null
    JsonValue() = default;
    /// true or false
    JsonValue(bool value) : kind_(Kind::Bool), bool_(value) {}
    /// an integer
    template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    JsonValue(T value) : kind_(Kind::Integer), integer_(static_cast<int64_t>(value)) {}
    /// a number; one that is integral and within 2^53 is written as an integer, NaN and infinities as null
    JsonValue(double value);
    /// a string (UTF-8)
    JsonValue(std::string value) : kind_(Kind::String), string_(std::move(value)) {}
    /// a string (UTF-8)
    JsonValue(const char* value) : kind_(Kind::String), string_(value) {}

    /// An empty object.
    static JsonValue object();
    /// An empty array.
    static JsonValue array();
    /// An array of strings.
    static JsonValue strings(const std::vector<std::string>& values);

    /// Sets an object's member, replacing one of the same key; returns this object.
    JsonValue& set(const std::string& key, JsonValue value);
    /// Appends to an array; returns this array.
    JsonValue& append(JsonValue value);

    /// The whole document as QJsonDocument(object).toJson(QJsonDocument::Indented) writes it.
    std::string toIndentedJson() const;

private:
    enum class Kind { Null, Bool, Integer, Double, String, Array, Object };
    void write(std::string& out, int indent) const;

    Kind kind_ = Kind::Null;
    bool bool_ = false;
    int64_t integer_ = 0;
    double double_ = 0;
    std::string string_;
    std::vector<JsonValue> items_;
    std::vector<std::pair<std::string, JsonValue>> members_;
};

} // namespace rooftop
