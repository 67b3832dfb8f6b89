// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rooftop::cli {

/// The program's usage: the window, the commands and the exit codes.
void printUsage();

/// Runs `command` and turns every error into one line on stderr and the documented exit code.
int guarded(const std::function<int()>& command);

/// True for the name of a subcommand (analyze, devices, modes, roofline, recommend, calibrate, bench,
/// report).
bool isCommand(const std::string& name);

/// True when the command draws with QtWidgets (report) and so needs a QApplication, not a QCoreApplication.
bool commandNeedsWidgets(const std::string& name);

/// Runs a subcommand in this process (a Q(Core)Application must exist); returns its exit code.
int runCommand(const std::string& name, const std::vector<std::string>& args);

} // namespace rooftop::cli
