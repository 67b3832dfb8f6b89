// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop modes [MODEL] --device ID`: the stock modes (or the custom grid, or given custom modes) of a board
// with the ceilings deriveCeilings() gives each, and the provenance of every ceiling; with a model its
// latency, power and energy in each mode (from --predictor when given).
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/device/mode_set.h"
#include "core/report/modes_writers.h"
#include "core/session/analysis_session.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop modes [MODEL.onnx] --device ID [--grid | --custom SPEC ... | --modes SET] "
           "[options]\n"
           "Lists a board's nvpmodel stock modes (or its custom-mode grid, or the custom modes given) with\n"
           "id, name, online cores, CPU/GPU/EMC clocks, active TPCs, the budget the name states, and the\n"
           "derived ceilings: FP32 and tensor FP16 peaks, DRAM bandwidth and per-layer dispatch overhead,\n"
           "each followed by its provenance (datasheet, estimate, ...). With MODEL, also its latency,\n"
           "power and energy per inference in every mode (--predictor: the learned ones).\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --grid                    the custom-mode grid instead of the stock modes (4,368 on "
           "agx-orin-64gb)\n"
           "  --custom SPEC             a custom mode, cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ with values from the\n"
           "                            board's ladders (repeatable)\n"
           "  --modes SET               any mode set, as every command takes it (--grid is --modes grid):\n"
           "                            "
        << modeSetSyntax()
        << "\n"
           "  --predictor FILE          MODEL's latency, power and energy from rooftop learn -o\n"
           "  --confidence P            the predictions' bounds hold at P, 0.5 to 0.999 (default 0.9)\n"
        << analysisOptionsHelp() << runtimeOptionsHelp()
        << "  --format F                table | csv | json\n"
           "  -o, --output FILE         write to FILE instead of standard output\n";
    return out.str();
}

} // namespace

int runModes(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    args.allowRepeated({"--modes", "--custom"});
    AnalysisRequest request;
    OutputChoice output;
    std::string customModes;
    bool grid = false;
    std::string modeSet;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "modes", request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (takeOutputOption(option, args, {"table", "csv", "json"}, output)) continue;
        if (takeAnalysisOption(option, args, request.settings)) continue;
        if (takeConfidenceOption(option, args, request.constraints.confidence)) continue;
        if (option == "--device") {
            request.deviceId = args.takeValue(option);
        } else if (option == "--predictor") {
            request.predictorPath = args.takeValue(option);
        } else if (option == "--grid") {
            grid = true;
        } else if (option == "--modes") {
            modeSet += (modeSet.empty() ? "" : ";") + args.takeValue(option);
        } else if (option == "--custom") {
            customModes += (customModes.empty() ? "" : ";") + args.takeValue(option);
        } else if (isRuntimeOption(option)) {
            takeRuntimeOption(option, args.takeValue(option), request.runtime);
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("modes", option, helpText());
        }
    }
    if (request.deviceId.empty())
        throw InputError("modes needs a board: rooftop modes --device ID (rooftop devices lists them)");
    if (int(grid) + int(!customModes.empty()) + int(!modeSet.empty()) > 1)
        throw InputError("modes: give one of --grid, --custom and --modes");
    if (!request.predictorPath.empty() && request.modelPath.empty())
        throw InputError(
            "modes --predictor needs the model it was learned for: rooftop modes MODEL.onnx --device ID "
            "--predictor FILE");
    if (args.wasGiven("--confidence") && request.modelPath.empty())
        throw InputError("modes --confidence sets the bounds of a model's numbers: rooftop modes MODEL.onnx "
                         "--device ID --confidence P");
    request.modes = !modeSet.empty() ? modeSet : grid ? "grid" : customModes.empty() ? "stock" : customModes;

    const AnalysisResult result = runAnalysis(request);
    writeOutput(output.path, output.format == "json"  ? modesJson(result)
                             : output.format == "csv" ? modesCsv(result)
                                                      : modesTable(result));
    return ExitOk;
}

} // namespace rooftop::cli
