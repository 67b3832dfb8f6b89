// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/tegrastats.h"

#include "core/platform/sysfs_root.h"

#include <sstream>

namespace rooftop {

namespace {

bool isRailLabel(const std::string& word) {
    if (word.empty() || word.size() > 64 || word[0] < 'A' || word[0] > 'Z') return false;
    for (char c : word)
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return word != "RAM" && word != "SWAP" && word != "NC" && word != "IRAM";
}

// "4541mW" or "4541" -> 4541.
std::optional<int64_t> milliwatts(std::string text) {
    if (text.size() > 2 && text.compare(text.size() - 2, 2, "mW") == 0) text.resize(text.size() - 2);
    return parseStrictInteger(text);
}

} // namespace

TegrastatsLine parseTegrastatsLine(const std::string& line) {
    TegrastatsLine out;
    if (line.size() > 65536) return out;
    std::istringstream in(line);
    std::vector<std::string> words;
    std::string word;
    while (in >> word)
        words.push_back(word);
    for (size_t i = 1; i < words.size(); ++i) {
        const std::string& label = words[i - 1];
        const std::string& value = words[i];
        if (label == "GR3D_FREQ") {
            const auto percent = value.find('%');
            if (percent == std::string::npos) continue;
            if (const auto load = parseStrictInteger(value.substr(0, percent)); load && *load <= 100)
                out.gpuLoadPercent = static_cast<int>(*load);
            if (const auto at = value.find('@', percent); at != std::string::npos)
                if (const auto mhz = parseStrictInteger(value.substr(at + 1))) out.gpuMhz = *mhz;
            continue;
        }
        const auto slash = value.find('/');
        if (slash == std::string::npos || !isRailLabel(label)) continue;
        const auto now = milliwatts(value.substr(0, slash));
        const auto average = milliwatts(value.substr(slash + 1));
        if (now && average) out.rails.push_back({label, *now, *average});
    }
    return out;
}

} // namespace rooftop
