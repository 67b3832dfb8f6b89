// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "core/common/errors.h"
#include "core/report/workload_writers.h"

#include <iostream>

namespace rooftop::cli {

int runAnalyze(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    AnalysisSettings settings;
    std::string model, format = "table", outputPath;
    while (args.more()) {
        if (!args.nextIsOption()) {
            if (!model.empty()) throw InputError("analyze takes one model, got a second: '" + args.takePositional() + "'");
            model = args.takePositional();
            continue;
        }
        const std::string option = args.takeOption();
        if (takeAnalysisOption(option, args, settings)) continue;
        if (option == "--format") {
            format = args.takeValue(option);
            if (format != "table" && format != "csv" && format != "json")
                throw InputError("--format must be table, csv or json, got '" + format + "'");
        } else if (option == "-o" || option == "--output") {
            outputPath = args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            std::cout << "Usage: rooftop analyze MODEL.onnx [options]\n"
                         "Counts MACs, FLOPs, special-function ops and bytes of every layer.\n"
                      << analysisOptionsHelp()
                      << "  --format F                table | csv | json\n"
                         "  -o, --output FILE         write to FILE instead of standard output\n";
            return ExitOk;
        } else {
            throw InputError("analyze: unknown option '" + option + "'");
        }
    }
    if (model.empty()) throw InputError("analyze needs a model: rooftop analyze MODEL.onnx");
    const Workload workload = analyzeModelFile(model, settings);
    const std::string text = format == "json" ? workloadToJson(workload)
                             : format == "csv" ? workloadToCsv(workload)
                                               : workloadToTable(workload);
    writeOutput(outputPath, text);
    return ExitOk;
}

} // namespace rooftop::cli
