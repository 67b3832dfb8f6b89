// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop compare MODEL --device ID (--trtexec-profile F [--trtexec-layers F] | --ort-profile F | --ncu F)`:
// a measured per-layer profile next to the roofline's prediction of the ONNX nodes each layer covers
// (docs/compare.md). Only builds the request and prints; core/compare does the work.
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/compare/compare_session.h"
#include "core/compare/compare_writers.h"
#include "core/device/runtime_profile.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop compare MODEL.onnx --device ID (--trtexec-profile FILE [--trtexec-layers FILE]\n"
           "                       | --ort-profile FILE | --ncu FILE) [options]\n"
           "Puts a measured per-layer profile next to the roofline: per measured (fused) layer the ONNX\n"
           "nodes it covers, measured and predicted time, error, achieved FLOP/s and intensity, bound;\n"
           "totals with the time on no ONNX node; the worst-predicted layers first.\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --trtexec-profile FILE    trtexec --exportProfile JSON\n"
           "  --trtexec-layers FILE     trtexec --exportLayerInfo JSON (its Metadata names the ONNX nodes)\n"
           "  --trtexec-times FILE      trtexec --exportTimes JSON: GPU time per inference beside the "
           "layers\n"
           "  --ort-profile FILE        ONNX Runtime profiler JSON (enable_profiling)\n"
           "  --ncu FILE                Nsight Compute CSV (--csv, or --csv --page raw)\n"
           "  --mode M                  the one mode to predict in (default: the fastest stock mode)\n"
        << runtimeOptionsHelp()
        << "  --profile FILE            a measured profile (rooftop bench) replacing derived ceilings\n"
        << analysisOptionsHelp()
        << "  --format F                table | csv | json\n"
           "  -o, --output FILE         write to FILE instead of standard output\n"
           "  --calibrate-classes       fit per operator class efficiencies, the dispatch and the fixed cost "
           "to\n"
           "                            the profile and write them as a runtime file to -o (for "
           "--runtime-file)\n";
    return out.str();
}

void setSource(CompareRequest& request, ProfileSource source, const std::string& path, bool& given) {
    if (given)
        throw InputError("compare takes one measured profile: --trtexec-profile, --ort-profile or --ncu");
    given = true;
    request.source = source;
    request.profilePath = path;
}

} // namespace

int runCompare(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    CompareRequest request;
    OutputChoice output;
    bool sourceGiven = false;
    bool calibrate = false;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "compare", request.analysis.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (option != "--predictor" && (takeAnalysisOption(option, args, request.analysis.settings) ||
                                        takeBoardOption(option, args, request.analysis) ||
                                        takeOutputOption(option, args, {"table", "csv", "json"}, output)))
            continue;
        if (option == "--trtexec-profile") {
            setSource(request, ProfileSource::Trtexec, args.takeValue(option), sourceGiven);
        } else if (option == "--trtexec-layers") {
            request.layerInfoPath = args.takeValue(option);
        } else if (option == "--trtexec-times") {
            request.timesPath = args.takeValue(option);
        } else if (option == "--calibrate-classes") {
            calibrate = true;
        } else if (option == "--ort-profile") {
            setSource(request, ProfileSource::OnnxRuntime, args.takeValue(option), sourceGiven);
        } else if (option == "--ncu") {
            setSource(request, ProfileSource::NsightCompute, args.takeValue(option), sourceGiven);
        } else if (option == "--mode") {
            if (!request.mode.empty()) throw InputError("compare takes one --mode");
            request.mode = args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("compare", option, helpText());
        }
    }
    if (request.analysis.modelPath.empty())
        throw InputError(
            "compare needs a model: rooftop compare MODEL.onnx --device ID --trtexec-profile FILE");
    if (request.analysis.deviceId.empty())
        throw InputError("compare needs a board: --device ID (rooftop devices lists them)");
    if (!sourceGiven)
        throw InputError("compare needs a measured profile: --trtexec-profile, --ort-profile or --ncu");
    if (!request.layerInfoPath.empty() && request.source != ProfileSource::Trtexec)
        throw InputError("--trtexec-layers goes with --trtexec-profile");
    if (!request.timesPath.empty() && request.source != ProfileSource::Trtexec)
        throw InputError("--trtexec-times goes with --trtexec-profile");

    if (calibrate) {
        if (output.path.empty())
            throw InputError("--calibrate-classes writes a runtime file: give it with -o RUNTIME.json");
        if (output.format != "table")
            throw InputError("--calibrate-classes writes a runtime file and prints a table: drop --format");
        const ClassCalibration calibration = runClassCalibration(request);
        saveRuntimeFile(output.path, calibration.runtime);
        std::cout << classCalibrationTable(calibration) << "Wrote " << output.path
                  << ": use it with --runtime-file " << output.path << "\n";
        return ExitOk;
    }

    const Comparison comparison = runComparison(request);
    writeOutput(output.path, output.format == "json"  ? comparisonJson(comparison)
                             : output.format == "csv" ? comparisonCsv(comparison)
                                                      : comparisonTable(comparison));
    return ExitOk;
}

} // namespace rooftop::cli
