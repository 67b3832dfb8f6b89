// SPDX-License-Identifier: GPL-3.0-or-later
// The rooftop executable: subcommands run headless; more to come (GUI, roofline, recommend, bench, report).
#include "cli/commands.h"
#include "core/graph/checked_math.h"
#include "core/onnx/input_error.h"
#include "core/platform/unavailable_error.h"

#include <QCoreApplication>

#include <iostream>
#include <string>
#include <vector>

namespace {

void printUsage() {
    std::cout << "Usage: rooftop COMMAND [options]\n"
                 "Rooftop: which Jetson power mode should this model run in, and why.\n\n"
                 "Commands:\n"
                 "  analyze MODEL.onnx   per-layer MACs, FLOPs and bytes (rooftop analyze --help)\n"
                 "  devices              the board catalog\n"
                 "  modes                stock power modes or the custom grid of a board, with ceilings\n"
                 "  roofline MODEL.onnx  per-layer time, energy and bound in each power mode\n"
                 "  recommend MODEL.onnx the power mode to use under latency / power limits, and why\n"
                 "  calibrate MODEL.onnx tune a runtime's efficiencies and dispatch cost to measured runs\n\n"
                 "Exit codes: 0 ok, 1 bad input, 2 unavailable here.\n";
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("rooftop");
    QCoreApplication::setApplicationVersion(ROOFTOP_VERSION);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        printUsage();
        return args.empty() ? rooftop::cli::ExitBadInput : rooftop::cli::ExitOk;
    }
    if (args[0] == "--version") {
        std::cout << "rooftop " << ROOFTOP_VERSION << "\n";
        return rooftop::cli::ExitOk;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    try {
        if (command == "analyze") return rooftop::cli::runAnalyze(args);
        if (command == "devices") return rooftop::cli::runDevices(args);
        if (command == "modes") return rooftop::cli::runModes(args);
        if (command == "roofline") return rooftop::cli::runRoofline(args);
        if (command == "recommend") return rooftop::cli::runRecommend(args);
        if (command == "calibrate") return rooftop::cli::runCalibrate(args);
        std::cerr << "rooftop: error: unknown command '" << command << "' (try rooftop --help)\n";
        return rooftop::cli::ExitBadInput;
    } catch (const rooftop::InputError& error) {
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
