// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/unknown_option.h"

#include "core/common/edit_distance.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace rooftop::cli {

std::vector<std::string> optionsInHelp(const std::string& help) {
    static const std::regex option(R"((^|[\s\[(|,])(--[a-z][a-z0-9-]*[a-z0-9]|-[a-zA-Z])(?=[\s\]=),|.:]|$))");
    std::vector<std::string> found{"--help", "-h"};
    std::istringstream lines(help);
    std::string line;
    while (std::getline(lines, line)) {
        // the usage line, and an option line's option column (up to the gap before its words): the options
        // the prose mentions (another tool's, another command's) are not this command's
        std::string names;
        if (line.rfind("Usage:", 0) == 0) {
            names = line;
        } else {
            const size_t start = line.find_first_not_of(' ');
            if (start == 0 || start == std::string::npos || line[start] != '-') continue;
            const size_t gap = line.find("  ", start);
            names = line.substr(start, gap == std::string::npos ? std::string::npos : gap - start);
        }
        for (auto it = std::sregex_iterator(names.begin(), names.end(), option); it != std::sregex_iterator();
             ++it) {
            const std::string name = (*it)[2];
            if (std::find(found.begin(), found.end(), name) == found.end()) found.push_back(name);
        }
    }
    return found;
}

std::string nearestOption(const std::string& mistyped, const std::vector<std::string>& known) {
    if (std::find(known.begin(), known.end(), mistyped) != known.end()) return {};
    std::string option = mistyped;
    std::transform(option.begin(), option.end(), option.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (option.size() <= 2) // "-x": every other one-letter option is as near; "-O" is "-o"
        return option != mistyped && std::find(known.begin(), known.end(), option) != known.end()
                   ? option
                   : std::string();
    if (std::string near = nearestName(mistyped, known); !near.empty()) return near;
    std::vector<std::string> extending;
    for (const std::string& name : known)
        if (option.size() >= 4 && name.rfind(option, 0) == 0) extending.push_back(name);
    return extending.size() == 1 ? extending.front() : std::string();
}

InputError unknownOption(const std::string& command, const std::string& option, const std::string& help) {
    const std::string near = nearestOption(option, optionsInHelp(help));
    return InputError(command + ": unknown option '" + option + "' (" +
                      (near.empty() ? std::string() : "did you mean " + near + "? ") + "rooftop " + command +
                      " --help lists them)");
}

} // namespace rooftop::cli
