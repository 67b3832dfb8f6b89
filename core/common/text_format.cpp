// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/text_format.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace rooftop {

std::string fixed(double value, int decimals) {
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    // a value that rounds to zero is written 0, not -0.00
    if (buffer[0] == '-' && std::strspn(buffer + 1, "0.") == std::strlen(buffer + 1)) return buffer + 1;
    return buffer;
}

std::string signedFixed(double value, int decimals) {
    const std::string text = fixed(value, decimals);
    return text.front() == '-' ? text : "+" + text;
}

std::string general(double value, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

std::string significant(double value, int digits) {
    if (!std::isfinite(value)) return general(value, digits);
    if (std::abs(value) >= std::pow(10.0, digits) - 0.5) return fixed(value, 0);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%#.*g", digits, value);
    std::string text = buffer;
    if (text.find('e') != std::string::npos) return general(value, digits); // tiny: as general writes it
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

std::string trimmedFixed(double value, int decimals) {
    std::string text = fixed(value, decimals);
    if (text.find('.') == std::string::npos) return text;
    while (text.back() == '0')
        text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

std::string mhz(double hz) {
    return trimmedFixed(hz / 1e6, 3);
}

bool dropUtf8Bom(std::string& text) {
    if (text.compare(0, 3, "\xEF\xBB\xBF") != 0) return false;
    text.erase(0, 3);
    return true;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

double durationScale(double seconds) {
    const double magnitude = seconds < 0 ? -seconds : seconds;
    return magnitude >= 10.0 ? 1.0 : magnitude >= 1e-3 ? 1e3 : 1e6;
}

std::string gibText(int64_t bytes) {
    const double value = static_cast<double>(bytes);
    if (bytes >= (int64_t{1} << 30)) return fixed(value / double(int64_t{1} << 30), 2) + " GiB";
    if (bytes >= (int64_t{1} << 20)) return fixed(value / double(int64_t{1} << 20), 2) + " MiB";
    return fixed(value / 1024.0, 2) + " KiB";
}

int durationDecimals(double seconds) {
    const double scale = durationScale(seconds);
    return scale == 1.0 ? 2 : scale == 1e3 ? 3 : 1;
}

std::string duration(double seconds) {
    if (!(seconds == seconds)) return "?";
    const double scale = durationScale(seconds);
    const std::string unit = scale == 1.0 ? " s" : scale == 1e3 ? " ms" : " \u00b5s";
    return fixed(seconds * scale, durationDecimals(seconds)) + unit;
}

size_t displayWidth(const std::string& text) {
    size_t width = 0;
    for (const char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width; // continuation bytes add nothing
    return width;
}

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string padded(const std::string& text, size_t width, bool right) {
    if (displayWidth(text) >= width) return text;
    const std::string fill(width - displayWidth(text), ' ');
    return right ? fill + text : text + fill;
}

std::vector<std::string> splitCommaList(const std::string& text) {
    std::vector<std::string> items;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return items;
        start = comma + 1;
    }
}

} // namespace rooftop
