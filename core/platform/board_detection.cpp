// SPDX-License-Identifier: GPL-3.0-or-later
// Board identity from the device tree and the L4T release file (reference: jetson.md §3.1, jtop's tables).
#include "core/platform/board_detection.h"

#include <map>
#include <regex>

namespace rooftop {

std::string parseL4tRelease(const std::string& text) {
    static const std::regex pattern(R"(^#\s*R(\d{1,3})\s*\(release\),\s*REVISION:\s*(\d{1,3})\.(\d{1,3}))");
    std::smatch match;
    const std::string firstLine = text.substr(0, std::min<size_t>(text.find('\n'), 512));
    if (!std::regex_search(firstLine, match, pattern)) return {};
    return match[1].str() + "." + match[2].str() + "." + match[3].str();
}

std::string jetpackForL4t(const std::string& l4t) {
    static const std::map<std::string, std::string> table = {
        {"32.7.1", "4.6.1"}, {"32.7.2", "4.6.2"}, {"32.7.3", "4.6.3"}, {"32.7.4", "4.6.4"},
        {"32.7.5", "4.6.5"}, {"32.7.6", "4.6.6"}, {"35.1.0", "5.0.2"}, {"35.2.1", "5.1"},
        {"35.3.1", "5.1.1"}, {"35.4.1", "5.1.2"}, {"35.5.0", "5.1.3"}, {"35.6.0", "5.1.4"},
        {"36.3.0", "6.0"},   {"36.4.0", "6.1"},   {"36.4.3", "6.2"},   {"36.4.4", "6.2.1"},
        {"36.4.7", "6.2.1"}, {"36.5.0", "6.2.2"}};
    const auto it = table.find(l4t);
    return it == table.end() ? std::string() : it->second;
}

BoardIdentity detectBoard(const SysfsRoot& root, const std::vector<DeviceSpec>& catalog) {
    BoardIdentity board;
    board.model = root.read("proc/device-tree/model").value_or("");
    std::string compatible = root.read("proc/device-tree/compatible").value_or("");
    for (char& c : compatible)
        if (c == '\0') c = ',';
    board.compatible = compatible;
    if (const auto release = root.read("etc/nv_tegra_release")) board.l4tRelease = parseL4tRelease(*release);
    board.jetpack = jetpackForL4t(board.l4tRelease);
    board.jetson = !board.l4tRelease.empty() || compatible.find("nvidia,tegra") != std::string::npos;
    // A module part number is the most specific identity: "nvidia,p3701-0000" or "...+p3767-0005" in
    // compatible.
    for (const auto& device : catalog) {
        for (const auto& module : device.modules)
            if (!module.empty() && compatible.find(module) != std::string::npos) {
                board.deviceId = device.id;
                return board;
            }
    }
    for (const auto& device : catalog)
        for (const auto& model : device.modelStrings)
            if (!model.empty() && model == board.model) {
                board.deviceId = device.id;
                return board;
            }
    return board;
}

} // namespace rooftop
