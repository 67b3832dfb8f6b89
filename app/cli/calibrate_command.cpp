// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop calibrate MODEL --device ID --runs RUNS.csv`: tunes a runtime's latency terms and power model to a
// user's measured runs (runCalibration, docs/calibration.md), reports the fit, and writes the tuned runtime
// for --runtime-file.
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/llm/llm_calibration.h"
#include "core/llm/llm_session.h"
#include "core/measure/llm_runs.h"
#include "core/report/calibration_writers.h"
#include "core/session/calibration_session.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

struct Options {
    CalibrationRequest request;
    std::vector<LlamaBenchInput> llamaBench; ///< a decoder's llama-bench files, each with its mode
    bool trafficGiven = false, llm = false;
    std::string outputPath, format = "table";
};

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop calibrate MODEL.onnx --device ID --runs RUNS.csv [options]\n"
           "Tunes a runtime to runs you measured: fits latency = a x roofline time + (b x dispatching\n"
           "layers + c) x CPU clock ratio (efficiencies / a; b per layer and c per inference at the top CPU\n"
           "clock) with as many coefficients as the runs identify (runs of one model keep b's estimate), "
           "and\n"
           "multipliers of the estimated power model from the runs that measured power. Prints the fit, its\n"
           "quality (an exact fit says so), what it could not fit and every run's residual; -o writes the\n"
           "calibrated runtime, power model included (docs/calibration.md).\n\n"
           "RUNS.csv: header mode,batch,latency_ms,power_w, one measured run per line (power_w may be "
           "empty);\n"
           "a precision column (a runs file of rooftop profile has one) counts each run at its own "
           "precision,\n"
           "and rows of another phase column than inference are left out.\n"
           "mode is a stock name or id (rooftop modes --device ID), a custom mode's name as rooftop modes\n"
           "--grid prints it (c8-cpu1728-gpu612-emc3199), or a quoted \"cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ\".\n"
           "Runs at 2+ batch sizes or CPU clocks fit the fixed cost; spare runs test the fit.\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --runs FILE               the measured runs (CSV)\n"
           "  --llama-bench FILE --mode MODE\n"
           "                            a decoder (rooftop llm) instead: llama.cpp's llama-bench -o "
           "json|jsonl\n"
           "                            output measured in MODE (repeatable); prefill (pp) and decode (tg) "
           "tests\n"
           "                            fit a runtime each, written together by -o (NAME-prefill, "
           "NAME-decode)\n"
           "  --llm --runs RUNS.csv     a decoder's LLM runs (rooftop profile --llm): each run's TTFT a "
           "prefill\n"
           "                            test and its TPOT a decode test, in the run's own mode\n"
           "  --mlc-bench FILE --mode MODE\n"
           "                            the same from MLC's benchmark (jetson-containers benchmark.py: its "
           "--save\n"
           "                            CSV or its printed log); each result is a prefill and a decode test\n"
        << runtimeOptionsHelp()
        << "                            (the runtime to start from and whose model is tuned)\n"
           "  --name NAME               name of the calibrated runtime (default: <runtime>-calibrated)\n"
           "  --dim NAME=VALUE          bind a symbolic input dimension (repeatable)\n"
           "  --precision P             as-model | fp32 | fp16 | int8 | fp8 | fp4: the runs' precision "
           "where\n"
           "                            the file has no precision column (fp4 = NVFP4)\n"
           "  --convention C            default | pagoda (per-op FLOPs and bytes of the Pagoda study)\n"
           "  --traffic T               per-node | fused (DRAM traffic model)\n"
           "  -o, --output FILE         write the calibrated runtime (JSON) to FILE\n"
           "  --format F                table | json (the report on standard output)\n";
    return out.str();
}

} // namespace

int runCalibrate(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    args.allowRepeated({"--mode"});
    Options o;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "calibrate", o.request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (option == "--batch")
            throw InputError(
                "calibrate: the batch sizes come from the runs file (column batch), not --batch");
        if (option == "--traffic") o.trafficGiven = true;
        if (takeAnalysisOption(option, args, o.request.settings)) continue;
        if (option == "--llama-bench" || option == "--mlc-bench") {
            o.llamaBench.push_back(
                {args.takeValue(option), "",
                 option == "--mlc-bench" ? LlmBenchFormat::Mlc : LlmBenchFormat::LlamaBench});
        } else if (option == "--mode") {
            if (o.llamaBench.empty() || !o.llamaBench.back().mode.empty())
                throw InputError(
                    "calibrate: --mode names the mode of the --llama-bench or --mlc-bench file before it");
            o.llamaBench.back().mode = args.takeValue(option);
        } else if (option == "--llm") {
            o.llm = true;
        } else if (option == "--device") {
            o.request.deviceId = args.takeValue(option);
        } else if (option == "--runs") {
            o.request.runsPath = args.takeValue(option);
        } else if (isRuntimeOption(option)) {
            takeRuntimeOption(option, args.takeValue(option), o.request.runtime);
        } else if (option == "--name") {
            o.request.name = args.takeValue(option);
            if (o.request.name.empty()) throw InputError("--name needs a non-empty runtime name");
        } else if (option == "-o" || option == "--output") {
            o.outputPath = args.takeValue(option);
            if (o.outputPath.empty() || o.outputPath == "-")
                throw InputError(option + " needs a file name (the report goes to standard output)");
        } else if (option == "--format") {
            o.format = args.takeValue(option);
            if (o.format != "table" && o.format != "json")
                throw InputError("--format must be table or json, got '" + o.format + "'");
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("calibrate", option, helpText());
        }
    }
    if (o.request.modelPath.empty())
        throw InputError("calibrate needs a model: rooftop calibrate MODEL.onnx --device ID --runs FILE");
    if (o.request.deviceId.empty())
        throw InputError("calibrate needs a board: --device ID (rooftop devices lists them)");
    if (!o.llamaBench.empty() || o.llm) {
        if (!o.request.runsPath.empty() && !o.llm)
            throw InputError(
                "calibrate: --runs beside --llama-bench / --mlc-bench needs --llm (the LLM runs of "
                "rooftop profile --llm)");
        if (o.format == "json")
            throw InputError(std::string("calibrate ") +
                             (o.llamaBench.empty() ? "--llm" : "--llama-bench and --mlc-bench") +
                             " reports a table; -o RUNTIMES.json writes the fitted runtimes");
        LlmCalibrationRequest llm;
        llm.modelPath = o.request.modelPath;
        llm.settings = o.request.settings;
        if (!o.trafficGiven) llm.settings.traffic = llmDefaultSettings().traffic;
        llm.deviceId = o.request.deviceId;
        llm.runtime = o.request.runtime;
        llm.files = o.llamaBench;
        llm.name = o.request.name;
        if (o.llm && o.request.runsPath.empty() && o.llamaBench.empty())
            throw InputError(
                "calibrate --llm needs the LLM runs: --runs RUNS.csv (rooftop profile --llm writes "
                "them), or --llama-bench / --mlc-bench files");
        const LlmCalibrationResult result = o.request.runsPath.empty()
                                                ? runLlmCalibration(llm)
                                                : runLlmRunsCalibration(llm, o.request.runsPath);
        if (!o.outputPath.empty()) saveRuntimesFile(o.outputPath, result.runtimes());
        writeOutput("", llmCalibrationTable(result, o.outputPath));
        return ExitOk;
    }
    if (o.request.runsPath.empty())
        throw InputError("calibrate needs the measured runs: --runs FILE (mode,batch,latency_ms,power_w)");
    const CalibrationResult result = runCalibration(o.request);
    if (!o.outputPath.empty()) saveRuntimeFile(o.outputPath, result.fit.runtime);
    writeOutput("", o.format == "json" ? calibrationJson(result, o.outputPath)
                                       : calibrationTable(result, o.outputPath));
    return ExitOk;
}

} // namespace rooftop::cli
