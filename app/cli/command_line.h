// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rooftop::cli {

/// The program's usage: the window, the commands and the exit codes.
void printUsage();

/// Answers `rooftop --help` / `help` / `-h` and `--version` on stdout; false for any other first argument.
bool answerInfoOption(const std::vector<std::string>& args);

/// Runs `command` and turns every error into one line on stderr and the documented exit code.
int guarded(const std::function<int()>& command);

/// True for the name of a subcommand (analyze, devices, modes, roofline, recommend, calibrate, bench,
/// report).
bool isCommand(const std::string& name);

/// "unknown command 'analyse' (did you mean analyze? rooftop --help lists them)".
std::string unknownCommandMessage(const std::string& name);

/// True for a command that draws with QtWidgets (report): rooftop-window runs it (runReport) in a
/// QApplication.
bool isWindowCommand(const std::string& name);

/// Restores the power mode a killed measurement left (its restore journal), with one line on stderr; a
/// failed restore is a warning line. Nothing to do (no journal, not a Jetson) costs a failed open().
void restoreInterruptedModeAtStart();

/// Runs a headless subcommand in this process (restoreInterruptedModeAtStart() first; a QCoreApplication
/// must exist); returns its exit code.
int runCommand(const std::string& name, const std::vector<std::string>& args);

} // namespace rooftop::cli
