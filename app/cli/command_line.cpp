// SPDX-License-Identifier: GPL-3.0-or-later
// The subcommands by name, and the one place that turns their errors into one line and an exit code.
#include "cli/command_line.h"

#include "cli/commands.h"
#include "cli/unknown_option.h"
#include "core/common/errors.h"
#include "core/graph/checked_math.h"
#include "core/measure/runner_journal.h"
#include "core/platform/board_session.h"

#include <iostream>
#include <map>

namespace rooftop::cli {

namespace {

using Command = int (*)(const std::vector<std::string>&);

const std::map<std::string, Command>& commands() {
    static const std::map<std::string, Command> table = {{"analyze", runAnalyze},
                                                         {"devices", runDevices},
                                                         {"modes", runModes},
                                                         {"roofline", runRoofline},
                                                         {"recommend", runRecommend},
                                                         {"calibrate", runCalibrate},
                                                         {"bench", runBench},
                                                         {"profile", runProfile},
                                                         {"learn", runLearn},
                                                         {"tune", runTune},
                                                         {"compare", runCompare},
                                                         {"plan", runPlan},
                                                         {"llm", runLlm}};
    return table;
}

} // namespace

void printUsage() {
    std::cout
        << "Usage: rooftop [MODEL.onnx] [--device ID] [--view time|energy|modes|ops] [--theme light|dark]\n"
           "               [--dim NAME=VALUE]... [--runs RUNS.csv] [--predictor PREDICTOR.json]\n"
           "               [--layer-profile PROFILE [--layer-info LAYERS.json] [--measured-mode MODE]]\n"
           "               [--runtime-file RUNTIME.json]\n"
           "               [--modes stock|grid|all] [--latency-slo MS] [--power-cap W]\n"
           "               [--objective energy|latency|efficiency] [--batch N]\n"
           "               [--phase inference|training [--optimizer sgd|momentum|adam]]\n"
           "       rooftop COMMAND [options]\n"
           "Rooftop: which Jetson power mode should this model run in, and why.\n"
           "Without a command it opens the window (on the model, if given).\n\n"
           "Commands:\n"
           "  analyze MODEL.onnx   per-layer MACs, FLOPs and bytes (rooftop analyze --help)\n"
           "  devices              the board catalog\n"
           "  modes [MODEL.onnx]   stock power modes or the custom grid of a board, with ceilings (and the "
           "model's\n"
           "                       latency, power and energy in each, learned with --predictor)\n"
           "  roofline MODEL.onnx  per-layer time, energy and bound in each power mode\n"
           "  recommend MODEL.onnx the power mode to use under latency / power limits, and why\n"
           "  calibrate MODEL.onnx tune a runtime's efficiencies and dispatch cost to measured runs\n"
           "  bench                measure the attached GPU per power mode into a profile (needs CUDA)\n"
           "  profile MODEL.onnx   run the model itself per power mode through a runner into a runs file\n"
           "  learn MODEL.onnx     learn time and power of every mode from a few profiled runs\n"
           "  tune MODEL.onnx      find the best measured mode, batch and precision in a few runs\n"
           "  plan --inference A.onnx --training B.onnx\n"
           "                       the mode and inference batch for training beside inference\n"
           "  compare MODEL.onnx   a measured per-layer profile (trtexec, ONNX Runtime, Nsight Compute)\n"
           "                       against the roofline's per-layer predictions\n"
           "  llm MODEL.onnx       a decoder with a KV cache: prefill, decode per token, KV cache and "
           "memory,\n"
           "                       TTFT, TPOT and tokens per joule in every power mode\n"
           "  report MODEL.onnx    the full report as HTML or PDF, without a display\n\n"
           "Exit codes: 0 ok, 1 bad input, 2 unavailable here, 3 every run profile, tune or plan made\n"
           "failed.\n";
}

bool answerInfoOption(const std::vector<std::string>& args) {
    if (args.empty()) return false;
    if (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        printUsage();
        return true;
    }
    if (args[0] == "--version") {
        std::cout << "rooftop " << ROOFTOP_VERSION << "\n";
        return true;
    }
    return false;
}

int guarded(const std::function<int()>& command) {
    try {
        return command();
    } catch (const InputError& error) {
        std::cerr << "rooftop: error: " << error.what() << "\n";
        return ExitBadInput;
    } catch (const NumericalError& error) {
        std::cerr << "rooftop: error: " << error.what() << "\n";
        return ExitBadInput;
    } catch (const UnavailableError& error) {
        std::cerr << "rooftop: error: " << error.what() << "\n";
        return ExitUnavailable;
    } catch (const CountOverflow& error) {
        std::cerr << "rooftop: error: " << error.what() << " (absurd dimensions)\n";
        return ExitBadInput;
    } catch (const std::exception& error) {
        std::string message = error.what();
        if (auto eol = message.find('\n'); eol != std::string::npos) message.resize(eol);
        std::cerr << "rooftop: error: " << message << "\n";
        return ExitBadInput;
    }
}

bool isCommand(const std::string& name) {
    return commands().count(name) != 0 || isWindowCommand(name);
}

std::string unknownCommandMessage(const std::string& name) {
    std::vector<std::string> known{"report"};
    for (const auto& [command, run] : commands())
        known.push_back(command);
    const std::string near = nearestOption(name, known);
    return "unknown command '" + name + "' (" +
           (near.empty() ? std::string() : "did you mean " + near + "? ") + "rooftop --help lists them)";
}

bool isWindowCommand(const std::string& name) {
    return name == "report";
}

void restoreInterruptedModeAtStart() {
    try {
        if (const int killed = reapInterruptedRunners(); killed > 0)
            std::cerr << "rooftop: killed " << killed
                      << " runner process(es) an interrupted measurement left\n";
        if (restoreInterruptedMode())
            std::cerr << "rooftop: restored the power mode an interrupted measurement left\n";
    } catch (const std::exception& error) {
        std::cerr << "rooftop: warning: " << error.what() << "\n";
    }
}

int runCommand(const std::string& name, const std::vector<std::string>& args) {
    const auto found = commands().find(name); // the window's commands run in rooftop-window
    if (found == commands().end()) {
        std::cerr << "rooftop: error: " << unknownCommandMessage(name) << "\n";
        return ExitBadInput;
    }
    restoreInterruptedModeAtStart();
    return guarded([&] {
        rememberCommandArguments(args);
        return found->second(args);
    });
}

} // namespace rooftop::cli
