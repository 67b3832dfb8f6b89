// SPDX-License-Identifier: GPL-3.0-or-later
// The rooftop executable: the headless subcommands run here, with Qt Core only; the window (no command, or a
// model file) and the report, which draw with QtWidgets, are handed to rooftop-window with the same
// arguments.
#include "cli/command_line.h"
#include "cli/commands.h"
#include "window_program.h"

#include <QCoreApplication>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <strings.h>
#include <unistd.h>
#include <vector>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (rooftop::cli::answerInfoOption(args)) return rooftop::cli::ExitOk;
    if (!args.empty() && rooftop::cli::isCommand(args[0]) && !rooftop::cli::isWindowCommand(args[0])) {
        const std::string command = args[0];
        args.erase(args.begin());
        QCoreApplication app(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("Rooftop"));
        QCoreApplication::setApplicationName(QStringLiteral("rooftop"));
        QCoreApplication::setApplicationVersion(QStringLiteral(ROOFTOP_VERSION));
        return rooftop::cli::runCommand(command, args);
    }
    const std::string window = rooftop::windowProgramPath();
    // a word that is no command, no file and no model name: a mistyped command, answered here with the
    // command it meant (the window would only say it is unknown)
    const auto endsWithOnnx = [](const std::string& arg) {
        return arg.size() > 5 && strcasecmp(arg.c_str() + arg.size() - 5, ".onnx") == 0;
    };
    if (!args.empty() && !rooftop::cli::isWindowCommand(args[0]) && !args[0].empty() && args[0][0] != '-' &&
        access(args[0].c_str(), F_OK) != 0 && (window.empty() || !endsWithOnnx(args[0]))) {
        std::cerr << "rooftop: error: " << rooftop::cli::unknownCommandMessage(args[0]) << "\n";
        return rooftop::cli::ExitBadInput;
    }
    if (window.empty()) {
        std::cerr
            << "rooftop: error: rooftop-window is not installed next to rooftop or in ../libexec/rooftop; "
               "the headless commands work without it (rooftop --help)\n";
        return rooftop::cli::ExitUnavailable;
    }
    execv(window.c_str(), argv);
    std::cerr << "rooftop: error: cannot run " << window << ": " << std::strerror(errno) << "\n";
    return rooftop::cli::ExitUnavailable;
}
