// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop roofline MODEL --device ID`: every layer's time, energy and bound, and the model's latency, energy
// and average power, in each requested power mode (stock modes by default), with the provenance of every
// number (docs/design.md).
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/report/roofline_writers.h"
#include "core/session/analysis_session.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop roofline MODEL.onnx --device ID [options]\n"
           "Predicts every layer's time (max(W/peak, Q/BW) + t0), energy (eps_flop W + eps_byte Q + pi0 T)\n"
           "and bound, and the model's latency, energy and average power, in each power mode.\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --mode M                  a stock mode name or id, a custom mode "
           "cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ from\n"
           "                            the board's ladders (clocks in MHz), or a mode set: stock "
           "(default),\n"
           "                            grid, all, current, sample:N (repeatable; ';' separates several in\n"
           "                            one; --modes is the same)\n"
        << runtimeOptionsHelp()
        << "  --profile FILE            a measured profile (rooftop bench) replacing derived ceilings\n"
           "  --predictor FILE          latency, energy and power of every mode from rooftop learn -o\n"
           "  --confidence P            the predictions' bounds hold at P, 0.5 to 0.999 (default 0.9)\n"
        << analysisOptionsHelp() << phaseOptionsHelp()
        << "  --format F                table | csv | json\n"
           "  -o, --output FILE         write to FILE instead of standard output\n";
    return out.str();
}

} // namespace

int runRoofline(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    args.allowRepeated({"--mode", "--modes"});
    AnalysisRequest request;
    OutputChoice output;
    std::string modes;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "roofline", request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (takeAnalysisOption(option, args, request.settings) ||
            takePhaseOption(option, args, request.settings) || takeBoardOption(option, args, request) ||
            takeOutputOption(option, args, {"table", "csv", "json"}, output) ||
            takeConfidenceOption(option, args, request.constraints.confidence))
            continue;
        if (option == "--mode" || option == "--modes") { // a mode set, as the other commands' --modes
            modes += (modes.empty() ? "" : ";") + args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("roofline", option, helpText());
        }
    }
    if (request.modelPath.empty())
        throw InputError("roofline needs a model: rooftop roofline MODEL.onnx --device ID");
    if (request.deviceId.empty())
        throw InputError("roofline needs a board: --device ID (rooftop devices lists them)");
    if (!modes.empty()) request.modes = modes;
    checkPhaseOptions(request.settings, args);

    const AnalysisResult result = runAnalysis(request);
    writeOutput(output.path, output.format == "json"  ? rooflineJson(result)
                             : output.format == "csv" ? rooflineCsv(result)
                                                      : rooflineTable(result));
    return ExitOk;
}

} // namespace rooftop::cli
