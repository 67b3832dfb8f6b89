// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop recommend MODEL --llm --prompt P --generate G [limits] --objective O`: the batch and power mode
// for a decoder (recommendLlm).
#include "cli/commands.h"
#include "cli/llm_options.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/llm/llm_advisor.h"
#include "core/onnx/batch_list.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop recommend MODEL.onnx --llm --device ID --prompt P --generate G [limits] "
           "[options]\n"
           "The batch and power mode for a decoder with a KV cache (rooftop llm): among every batch of "
           "--batch\n"
           "and every mode of --modes, those whose TPOT, TTFT and power meet the limits by their upper bound "
           "at\n"
           "--confidence, and of them the least energy per output token (or the most tokens per second).\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --prompt P, --generate G  tokens in and out (default 128 each)\n"
           "  --batch LIST              concurrent sequences to weigh, e.g. 1,2,4 (default 1)\n"
           "  --modes SET               stock | grid | all | sample:N | a ';'-list (default all: stock and "
           "grid)\n"
           "  --tpot-slo MS             time per output token, the mean decode step\n"
           "  --ttft-slo MS             time to first token, the prefill\n"
           "  --power-cap W             average power of either phase\n"
           "  --objective O             energy-per-token (default) | tokens-per-second\n"
           "  --confidence P            limits are met by the upper bound at P (default 0.9; 0.5: the "
           "values)\n"
           "  --reserve-gib N           memory kept from the model (default 2 on a Jetson, for the\n"
           "                            OS and the runtime; 0.5 on a discrete GPU, for the CUDA\n"
           "                            context and the runtime)\n"
           "  --dim, --precision, --traffic, --predictor   as rooftop llm\n"
        << runtimeOptionsHelp()
        << "  --format F                table | json\n"
           "  -o, --output FILE         write to FILE instead of standard output\n";
    return out.str();
}

} // namespace

int runRecommendLlm(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    LlmRequest request;
    request.modes = "all";
    std::vector<int64_t> batches = {1};
    LlmLimits limits;
    LlmObjective objective = LlmObjective::EnergyPerToken;
    OutputChoice output;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "recommend", request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (takeOutputOption(option, args, {"table", "json"}, output)) continue;
        if (option == "--llm") continue; // what brought the command here
        if (option == "--batch") {
            batches = parseBatchList(args.takeValue(option), "--batch");
        } else if (option == "--tpot-slo") {
            limits.tpotSeconds =
                args.takeNumber(option, 0.0, false, "a positive number of milliseconds") / 1e3;
        } else if (option == "--ttft-slo") {
            limits.ttftSeconds =
                args.takeNumber(option, 0.0, false, "a positive number of milliseconds") / 1e3;
        } else if (option == "--power-cap") {
            limits.powerWatts = args.takeNumber(option, 0.0, false, "a positive number of watts");
        } else if (option == "--objective") {
            const std::string text = args.takeValue(option);
            const auto parsed = parseLlmObjective(text);
            if (!parsed)
                throw InputError(
                    "recommend --llm: --objective is energy-per-token or tokens-per-second, not '" + text +
                    "'");
            objective = *parsed;
        } else if (takeLlmOption(option, args, request, "recommend --llm")) {
            continue;
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("recommend --llm", option, helpText());
        }
    }
    if (request.modelPath.empty())
        throw InputError("recommend --llm needs a decoder: rooftop recommend MODEL.onnx --llm --device ID");
    if (request.deviceId.empty())
        throw InputError("recommend --llm needs a board: --device ID (rooftop devices lists them)");
    limits.confidence = request.confidence;

    const LlmAdvice advice = adviseLlm(request, batches, limits, objective);
    std::string text = output.format == "json"
                           ? llmRecommendationJson(advice.results, advice.recommendation)
                           : llmRecommendationTable(advice.results, advice.recommendation);
    std::string tooBig;
    for (const std::string& batch : advice.tooBig)
        tooBig += (tooBig.empty() ? "" : ", ") + batch;
    if (!tooBig.empty() && output.format != "json")
        text += "\nLeft out, too large for memory: batch " + tooBig + "\n";
    writeOutput(output.path, text);
    return ExitOk;
}

} // namespace rooftop::cli
