// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/unknown_option.h"
#include "core/common/errors.h"
#include "core/report/netron_metrics.h"
#include "core/report/workload_writers.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop analyze MODEL.onnx [options]\n"
           "Counts MACs, FLOPs, special-function ops and bytes of every layer.\n"
        << analysisOptionsHelp() << phaseOptionsHelp()
        << "  --format F                table | csv | json | netron (Netron's metrics attachment: per-node\n"
           "                            counts to open beside the model)\n"
           "  -o, --output FILE         write to FILE instead of standard output\n";
    return out.str();
}

} // namespace

int runAnalyze(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    AnalysisSettings settings;
    std::string model;
    OutputChoice output;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "analyze", model);
            continue;
        }
        const std::string option = args.takeOption();
        if (takeAnalysisOption(option, args, settings) || takePhaseOption(option, args, settings) ||
            takeOutputOption(option, args, {"table", "csv", "json", "netron"}, output))
            continue;
        if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("analyze", option, helpText());
        }
    }
    if (model.empty()) throw InputError("analyze needs a model: rooftop analyze MODEL.onnx");
    checkPhaseOptions(settings, args);
    const Workload workload = analyzeModelFile(model, settings);
    writeOutput(output.path, output.format == "json"     ? workloadToJson(workload)
                             : output.format == "csv"    ? workloadToCsv(workload)
                             : output.format == "netron" ? netronMetricsJson(workload, nullptr)
                                                         : workloadToTable(workload));
    return ExitOk;
}

} // namespace rooftop::cli
