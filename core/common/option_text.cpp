// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/option_text.h"

namespace rooftop {

OptionText splitOption(const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos || arg.rfind("--", 0) != 0) return {arg, std::nullopt};
    return {arg.substr(0, eq), arg.substr(eq + 1)};
}

std::string longOptionName(const std::string& name) {
    if (name == "-o" || name == "--out") return "--output";
    if (name == "-h") return "--help";
    return name;
}

} // namespace rooftop
