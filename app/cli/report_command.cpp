// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop report MODEL --device ID -o report.pdf|report.html`: the GUI's report, headless.
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/errors.h"
#include "core/session/analysis_session.h"
#include "report/report_builder.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {
namespace {

const char* reportHelp() {
    return "Usage: rooftop report MODEL.onnx --device ID -o report.pdf|report.html [options]\n"
           "Writes the full report (model summary, board and modes with provenance, time and energy "
           "rooflines,\n"
           "modes table, Pareto plot, top layers, recommendation) as HTML (plots embedded) or PDF. Needs no "
           "display.\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  -o, --output FILE         report file, .html or .pdf (required)\n"
           "  --modes M                 stock (default) | grid | all | current | sample:N | a ';'-separated\n"
           "                            list: the modes the advisor chooses among\n"
           "  --latency-slo MS          latency limit per batch, in milliseconds\n"
           "  --power-cap W             average power limit, in watts\n"
           "  --max-slowdown PCT        latency at most PCT percent above the fastest candidate\n"
           "  --confidence P            meet the SLO and cap by the upper bound at P (default\n"
           "                            0.9; 0.5: the prediction itself); bounds from the\n"
           "                            predictor's error, else the prior's\n"
           "  --objective O             energy (default) | latency | efficiency\n"
           "  --profile FILE            measured profile (rooftop bench) instead of derived ceilings\n"
           "  --predictor FILE          latency, energy and power of every mode from rooftop learn -o\n";
}

std::string helpText() {
    std::ostringstream out;
    out << reportHelp() << runtimeOptionsHelp() << analysisOptionsHelp()
        << "  --phase P                 inference (default) | training (one minibatch)\n"
           "  --optimizer O             sgd | momentum | adam (default)\n";
    return out.str();
}

} // namespace

int runReport(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    AnalysisRequest request;
    std::string outputPath;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "report", request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (takeAnalysisOption(option, args, request.settings) ||
            takePhaseOption(option, args, request.settings) || takeBoardOption(option, args, request) ||
            takeAdvisorOption(option, args, request))
            continue;
        if (option == "-o" || option == "--output") {
            outputPath = args.takeValue(option);
        } else if (option == "--modes") {
            request.modes = args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("report", option, helpText());
        }
    }
    if (request.modelPath.empty())
        throw InputError("report needs a model: rooftop report MODEL.onnx --device ID -o FILE");
    if (request.deviceId.empty()) throw InputError("report needs --device ID (rooftop devices lists them)");
    if (outputPath.empty()) throw InputError("report needs -o FILE (.html or .pdf)");
    if (request.settings.samples > 0) throw InputError("report: --samples is for analyze and roofline");
    checkPhaseOptions(request.settings, args);
    report::askForReport(request);
    const AnalysisResult result = runAnalysis(request);
    const QString error = report::writeReport(result, QString::fromStdString(outputPath));
    if (!error.isEmpty()) throw InputError(error.toStdString());
    std::cerr << "rooftop: report written to " << outputPath << "\n";
    return ExitOk;
}

} // namespace rooftop::cli
