// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop-window: the window (no command, or a model file) and `rooftop report`, the parts of rooftop that
// draw with QtWidgets. rooftop hands them over with its own arguments; the other commands also run here.
#include "cli/command_line.h"
#include "cli/commands.h"
#include "gui/gui_main.h"

#include <QApplication>
#include <QCoreApplication>
#include <cstdlib>
#include <iostream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

bool hasDisplay() {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform && *platform) return true; // the user chose a platform (offscreen, vnc, ...)
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x11 && *x11) || (wayland && *wayland);
}

/// Without a session (a headless report, as in CI) Qt warns that XDG_RUNTIME_DIR is unset and uses
/// TMPDIR/runtime-USER; a private folder of our own, set beforehand, keeps a report's stderr to its own
/// lines.
void provideRuntimeDir() {
    const char* set = std::getenv("XDG_RUNTIME_DIR");
    if (set && *set) return;
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/rooftop-runtime-" + std::to_string(::getuid());
    ::mkdir(dir.c_str(), 0700);
    struct stat info {};
    if (::lstat(dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == ::getuid() &&
        (info.st_mode & 0777) == 0700)
        ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
}

void setIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("Rooftop"));
    QCoreApplication::setApplicationName(QStringLiteral("rooftop"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ROOFTOP_VERSION));
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (rooftop::cli::answerInfoOption(args)) return rooftop::cli::ExitOk;
    if (!args.empty() && rooftop::cli::isCommand(args[0])) {
        const std::string command = args[0];
        args.erase(args.begin());
        if (!rooftop::cli::isWindowCommand(command)) {
            QCoreApplication app(argc, argv);
            setIdentity();
            return rooftop::cli::runCommand(command, args);
        }
        // The report draws its plots with QtWidgets; without a display it renders offscreen.
        if (!hasDisplay()) qputenv("QT_QPA_PLATFORM", "offscreen");
        provideRuntimeDir();
        QApplication app(argc, argv);
        setIdentity();
        rooftop::cli::restoreInterruptedModeAtStart();
        return rooftop::cli::guarded([&] { return rooftop::cli::runReport(args); });
    }
    rooftop::gui::GuiOptions options;
    const int parsed = rooftop::cli::guarded([&] {
        options = rooftop::gui::parseGuiOptions(args);
        return rooftop::cli::ExitOk;
    });
    if (parsed != rooftop::cli::ExitOk) return parsed;
    if (!hasDisplay()) {
        std::cerr
            << "rooftop: error: no display to open the window on (DISPLAY is not set); use a command, e.g. "
               "rooftop report MODEL.onnx --device ID -o report.html (rooftop --help lists them)\n";
        return rooftop::cli::ExitUnavailable;
    }
    QApplication app(argc, argv);
    setIdentity();
    rooftop::cli::restoreInterruptedModeAtStart(); // a crashed measurement's power mode, put back first
    return rooftop::cli::guarded([&] { return rooftop::gui::runGui(options); });
}
