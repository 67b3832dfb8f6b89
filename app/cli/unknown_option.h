// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/errors.h"

#include <string>
#include <vector>

namespace rooftop::cli {

/// The options a command's help lists (its usage line and option column, not its prose), and --help.
std::vector<std::string> optionsInHelp(const std::string& help);

/// The known option a mistyped one meant: the same but for case, a few letters off, or the only one it
/// begins (4+ letters); empty for a known option, a one-letter one or none near.
std::string nearestOption(const std::string& option, const std::vector<std::string>& known);

/// The one-line error for an option a command does not take: "learn: unknown option '--batchh' (did you
/// mean --batch? rooftop learn --help lists them)". `help` is the command's help text.
InputError unknownOption(const std::string& command, const std::string& option, const std::string& help);

} // namespace rooftop::cli
