// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop recommend MODEL --device ID [...]`: the power mode to use under latency / power limits, and why.
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/errors.h"
#include "core/onnx/batch_list.h"
#include "core/report/recommendation_answer.h"
#include "core/session/analysis_session.h"

#include <algorithm>
#include <iostream>

namespace rooftop::cli {
namespace {

const char* helpText() {
    return "Usage: rooftop recommend MODEL.onnx --device ID [options]\n"
           "Recommends the power mode (stock or custom clocks) and batch size that meet the limits with the "
           "best\n"
           "objective, with the Pareto front of latency against energy per inference, the reasons and the "
           "nvpmodel\n"
           "commands to apply it.\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --latency-slo MS          latency limit per batch, in milliseconds\n"
           "  --power-cap W             average power limit, in watts\n"
           "  --max-slowdown PCT        latency at most PCT percent above the fastest candidate\n"
           "  --confidence P            meet the SLO and cap by the upper bound at P (default\n"
           "                            0.9; 0.5: the prediction itself); bounds from the\n"
           "                            predictor's error, else the prior's\n"
           "  --objective O             energy (least energy per inference, default) | latency (least "
           "latency per\n"
           "                            batch) | efficiency (most inferences per joule)\n"
           "  --modes M                 stock (default) | grid (the board's custom-clock grid) | all (both) "
           "| current\n"
           "                            (the mode in force) | sample:N (N grid modes drawn at random) | a\n"
           "                            ';'-separated list of modes\n"
           "  --batch N[,N...]          batch sizes to consider (default 1); each replaces dim 0 of the "
           "inputs\n"
           "  --runtime NAME            inference runtime (default tensorrt): per-layer dispatch cost, "
           "kernel efficiency\n"
           "  --runtime-file FILE       a runtime from a file (rooftop calibrate -o writes one)\n"
           "  --profile FILE            measured profile (rooftop bench) instead of datasheet-derived "
           "ceilings\n"
           "  --predictor FILE          latency, energy and power of every mode from rooftop learn -o "
           "(as-model\n"
           "                            then counts at the precision its runs ran)\n"
           "  --dim NAME=VALUE          bind a symbolic input dimension (repeatable)\n"
           "  --precision P             as-model | fp32 | fp16 | int8 | fp8 | fp4 (element sizes of float\n"
           "                            tensors; fp4 = NVFP4, 4.5 bits a value with its scales)\n"
           "  --convention C            default | pagoda (per-op FLOPs and bytes of the Pagoda study)\n"
           "  --traffic T               per-node | fused (DRAM traffic model)\n"
           "  --phase P                 inference (default) | training (one minibatch: forward, backward, "
           "update)\n"
           "  --optimizer O             sgd | momentum | adam (default): the update a training step counts\n"
           "  --format F                table (recommended mode, baseline and Pareto front) | json (every "
           "candidate)\n"
           "  -o, --output FILE         write to FILE instead of standard output\n"
           "  --llm                     a decoder's generation per mode: --prompt, --generate, --tpot-slo,\n"
           "                            --ttft-slo, objectives energy-per-token | tokens-per-second "
           "(rooftop\n"
           "                            recommend --llm --help lists them)\n"
           "Units: latency_ms is per batch; energy_mj is the energy per inference in millijoules (batch "
           "energy / batch);\n"
           "power_w is the average power in watts. The baseline is the board's fastest stock mode at the "
           "first batch size.\n"
           "Limits that no mode can meet are not an error: the answer says so and lists the closest modes.\n"
           "Other modes predicted within the pick's own error are named as close calls, with how to measure "
           "them.\n";
}

} // namespace

int runRecommend(const std::vector<std::string>& argv) {
    if (std::find(argv.begin(), argv.end(), "--llm") != argv.end()) return runRecommendLlm(argv);
    ArgumentList args(argv);
    AnalysisRequest request;
    request.predictModes = false;
    request.advise = true;
    OutputChoice output;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "recommend", request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (option == "--batch") {
            request.batches = parseBatchList(args.takeValue(option), option);
        } else if (takeAnalysisOption(option, args, request.settings) ||
                   takePhaseOption(option, args, request.settings) ||
                   takeBoardOption(option, args, request) || takeAdvisorOption(option, args, request) ||
                   takeOutputOption(option, args, {"table", "json"}, output)) {
            continue;
        } else if (option == "--modes") {
            request.modes = args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("recommend", option, helpText());
        }
    }
    if (request.modelPath.empty())
        throw InputError("recommend needs a model: rooftop recommend MODEL.onnx --device ID");
    if (request.deviceId.empty())
        throw InputError("recommend needs --device ID (rooftop devices lists them)");
    validateConstraints(request.constraints);
    if (request.settings.samples > 0) throw InputError("recommend: --samples is for analyze and roofline");
    checkPhaseOptions(request.settings, args);

    const AnalysisResult result = runAnalysis(request);
    if (!result.advisorError.empty()) throw InputError(result.advisorError);
    writeOutput(output.path, recommendationAnswer(result, output.format == "json"));
    return ExitOk;
}

} // namespace rooftop::cli
