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
            // "45%@318" (JetPack 4-6), "0%@[0,0]" (Orin, JetPack 6.4+), "@[1574,1574,1574]" (Thor, JetPack 7)
            const auto percent = value.find('%');
            if (percent != std::string::npos)
                if (const auto load = parseStrictInteger(value.substr(0, percent)); load && *load <= 100)
                    out.gpuLoadPercent = static_cast<int>(*load);
            const auto at = value.find('@', percent == std::string::npos ? 0 : percent);
            if (at == std::string::npos) continue;
            const std::string clocks = value.substr(at + 1);
            if (!clocks.empty() && clocks.front() == '[') {
                const auto close = clocks.find(']');
                if (close == std::string::npos) continue;
                std::istringstream list(clocks.substr(1, close - 1));
                std::string entry;
                while (std::getline(list, entry, ',') && out.gpcMhz.size() < 64) {
                    const auto mhz = parseStrictInteger(entry);
                    out.gpcMhz.push_back(mhz);
                    if (mhz && (!out.gpuMhz || *mhz > *out.gpuMhz)) out.gpuMhz = *mhz;
                }
            } else if (const auto mhz = parseStrictInteger(clocks)) {
                out.gpuMhz = *mhz;
            }
            continue;
        }
        const auto slash = value.find('/');
        if (slash == std::string::npos || !isRailLabel(label)) continue;
        const auto second = value.find('/', slash + 1);
        const auto now = milliwatts(value.substr(0, slash));
        const auto average = milliwatts(
            value.substr(slash + 1, second == std::string::npos ? std::string::npos : second - slash - 1));
        std::optional<int64_t> peak;
        if (second != std::string::npos) {
            peak = milliwatts(value.substr(second + 1));
            if (!peak) continue; // a fourth field or junk: not a rail reading
        }
        if (now && average) out.rails.push_back({label, *now, *average, peak});
    }
    return out;
}

} // namespace rooftop
