// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/errors.h"

#include <string>
#include <vector>

namespace rooftop::cli {

/// The options a command's help text names ("--batch", "-o"), in order, each once.
std::vector<std::string> optionsInHelp(const std::string& help);

/// The option of `known` nearest to a mistyped one (at most a third of its letters off, or it a prefix of
/// exactly one of them); empty when none is near or `option` itself is known.
std::string nearestOption(const std::string& option, const std::vector<std::string>& known);

/// The one-line error for an option a command does not take: "learn: unknown option '--batchh' (did you
/// mean --batch? rooftop learn --help lists them)". `help` is the command's help text.
InputError unknownOption(const std::string& command, const std::string& option, const std::string& help);

/// A command's help text, as `run({"--help"})` prints it.
std::string helpOf(int (*run)(const std::vector<std::string>&));

} // namespace rooftop::cli
