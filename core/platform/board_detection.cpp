// SPDX-License-Identifier: GPL-3.0-or-later
// Board identity from the device tree and the L4T release file (reference: jetson.md §3.1, jtop's tables;
// Thor and JetPack 7: thor.md).
#include "core/platform/board_detection.h"

#include <algorithm>
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
        {"36.4.7", "6.2.1"}, {"36.5.0", "6.2.2"}, {"38.2.0", "7.0"},   {"38.2.1", "7.0"},
        {"38.2.2", "7.0"},   {"38.4.0", "7.1"},   {"39.2.0", "7.2"}};
    const auto it = table.find(l4t);
    return it == table.end() ? std::string() : it->second;
}

bool isJetPack7(const std::string& l4t) {
    const auto dot = l4t.find('.');
    const auto major = parseStrictInteger(l4t.substr(0, dot));
    return major && *major >= 38;
}

namespace {

/// The module part numbers ("p3834-0008") in a compatible string, in order.
std::vector<std::string> partNumbers(const std::string& compatible) {
    static const std::regex part("p[0-9]{4}-[0-9]{4}");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(compatible.begin(), compatible.end(), part);
         it != std::sregex_iterator(); ++it)
        if (std::find(out.begin(), out.end(), it->str()) == out.end()) out.push_back(it->str());
    return out;
}

} // namespace

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
                board.module = module;
                board.jetson =
                    true; // a Jetson module's part number, even without nvidia,tegra* or a release file
                return board;
            }
    }
    // A part number of a module family the catalog knows, in a variant it does not (p3834-0005 beside
    // p3834-0000 and -0008): name it instead of guessing from the model string, whose text siblings share.
    for (const std::string& part : partNumbers(compatible)) {
        std::vector<std::string> siblings;
        for (const auto& device : catalog)
            for (const auto& module : device.modules)
                if (module.compare(0, 5, part, 0, 5) == 0)
                    siblings.push_back(module + " (" + device.id + ")");
        if (siblings.empty()) continue; // a carrier board's number (p3737, p4071): not a module
        board.module = part;
        board.jetson = true;
        std::sort(siblings.begin(), siblings.end());
        std::string known;
        for (const auto& sibling : siblings)
            known += (known.empty() ? "" : ", ") + sibling;
        board.unknownReason = "module " + part + (board.model.empty() ? "" : " (" + board.model + ")") +
                              " is not in the catalog; its known siblings are " + known;
        return board;
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
