// SPDX-License-Identifier: GPL-3.0-or-later
// The rooftop executable: with no command (or a model file) it opens the window; subcommands run headless.
#include "cli/commands.h"
#include "core/graph/checked_math.h"
#include "core/common/errors.h"
#include "gui/gui_main.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

void printUsage() {
    std::cout << "Usage: rooftop [MODEL.onnx] [--device ID] [--view time|energy|modes] [--theme light|dark]\n"
                 "       rooftop COMMAND [options]\n"
                 "Rooftop: which Jetson power mode should this model run in, and why.\n"
                 "Without a command it opens the window (on the model, if given).\n\n"
                 "Commands:\n"
                 "  analyze MODEL.onnx   per-layer MACs, FLOPs and bytes (rooftop analyze --help)\n"
                 "  devices              the board catalog\n"
                 "  modes                stock power modes or the custom grid of a board, with ceilings\n"
                 "  roofline MODEL.onnx  per-layer time, energy and bound in each power mode\n"
                 "  recommend MODEL.onnx the power mode to use under latency / power limits, and why\n"
                 "  calibrate MODEL.onnx tune a runtime's efficiencies and dispatch cost to measured runs\n"
                 "  bench                measure the attached GPU per power mode into a profile (needs CUDA)\n"
                 "  report MODEL.onnx    the full report as HTML or PDF, without a display\n\n"
                 "Exit codes: 0 ok, 1 bad input, 2 unavailable here.\n";
}

/// Runs a command and turns every error into one line on stderr and the documented exit code.
int guarded(const std::function<int()>& command) {
    try {
        return command();
    } catch (const rooftop::InputError& error) {
        std::cerr << "rooftop: error: " << error.what() << "\n";
        return rooftop::cli::ExitBadInput;
    } catch (const rooftop::NumericalError& error) {
        std::cerr << "rooftop: error: " << error.what() << "\n";
        return rooftop::cli::ExitBadInput;
    } catch (const rooftop::UnavailableError& error) {
        std::cerr << "rooftop: error: " << error.what() << "\n";
        return rooftop::cli::ExitUnavailable;
    } catch (const rooftop::CountOverflow& error) {
        std::cerr << "rooftop: error: " << error.what() << " (absurd dimensions)\n";
        return rooftop::cli::ExitBadInput;
    } catch (const std::exception& error) {
        std::string message = error.what();
        if (auto eol = message.find('\n'); eol != std::string::npos) message.resize(eol);
        std::cerr << "rooftop: error: " << message << "\n";
        return rooftop::cli::ExitBadInput;
    }
}

bool hasDisplay() {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform && *platform) return true; // the user chose a platform (offscreen, vnc, ...)
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x11 && *x11) || (wayland && *wayland);
}

void setIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("Rooftop"));
    QCoreApplication::setApplicationName(QStringLiteral("rooftop"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ROOFTOP_VERSION));
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && (args[0] == "-h" || args[0] == "--help" || args[0] == "help")) {
        printUsage();
        return rooftop::cli::ExitOk;
    }
    if (!args.empty() && args[0] == "--version") {
        std::cout << "rooftop " << ROOFTOP_VERSION << "\n";
        return rooftop::cli::ExitOk;
    }
    static const std::set<std::string> headless = {"analyze", "devices", "modes", "roofline", "recommend", "calibrate",
                                                   "bench"};
    if (!args.empty() && headless.count(args[0])) {
        QCoreApplication app(argc, argv);
        setIdentity();
        const std::string command = args[0];
        args.erase(args.begin());
        return guarded([&] {
            if (command == "analyze") return rooftop::cli::runAnalyze(args);
            if (command == "devices") return rooftop::cli::runDevices(args);
            if (command == "modes") return rooftop::cli::runModes(args);
            if (command == "roofline") return rooftop::cli::runRoofline(args);
            if (command == "recommend") return rooftop::cli::runRecommend(args);
            if (command == "calibrate") return rooftop::cli::runCalibrate(args);
            return rooftop::cli::runBench(args);
        });
    }
    if (!args.empty() && args[0] == "report") {
        // The report draws its plots with QtWidgets; without a display it renders offscreen.
        if (!hasDisplay()) qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        setIdentity();
        args.erase(args.begin());
        return guarded([&] { return rooftop::cli::runReport(args); });
    }
    rooftop::gui::GuiOptions options;
    const int parsed = guarded([&] {
        options = rooftop::gui::parseGuiOptions(args);
        return rooftop::cli::ExitOk;
    });
    if (parsed != rooftop::cli::ExitOk) return parsed;
    if (!hasDisplay()) {
        std::cerr << "rooftop: error: no display to open the window on (DISPLAY is not set); use a command, e.g. "
                     "rooftop report MODEL.onnx --device ID -o report.html (rooftop --help lists them)\n";
        return rooftop::cli::ExitUnavailable;
    }
    QApplication app(argc, argv);
    setIdentity();
    return guarded([&] { return rooftop::gui::runGui(options); });
}
