// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop llm MODEL.onnx --device ID --prompt P --generate G`: a decoder with a KV cache, prefill and decode
// counted and predicted per power mode.
#include "cli/commands.h"
#include "cli/llm_options.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/decimal_text.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/llm/llm_writers.h"

#include <iostream>
#include <optional>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop llm MODEL.onnx [--device ID] [--prompt P] [--generate G] [--batch B] [options]\n"
           "A decoder with a KV cache (optimum, merged optimum, onnxruntime-genai and TensorRT Edge-LLM\n"
           "exports): the prefill of a prompt of P tokens and the G decode steps after it (a step at\n"
           "context c has one new token and c - 1 cached), counted per layer with the KV cache's reads\n"
           "and writes apart; the memory it holds against the board's; and in every power mode the time\n"
           "to first token (TTFT), time per output token (TPOT),\n"
           "tokens per second and per joule, each with its provenance and the roof that bounds it.\n\n"
           "  --device ID               board id (rooftop devices lists them); without it, counts and memory "
           "only\n"
           "  --prompt P                prompt tokens (default 128)\n"
           "  --generate G              generated tokens (default 128)\n"
           "  --batch B                 concurrent sequences (default 1)\n"
           "  --context C               also report the decode step at context C (repeatable)\n"
           "  --context-sweep FROM:TO   TPOT against context, 64 log-spaced contexts (--sweep-points N)\n"
           "  --modes SET               stock | grid | all | current | sample:N | a ';'-list (default "
           "stock)\n"
           "  --reserve-gib N           memory kept from the model (default 2 on a Jetson, for the\n"
           "                            OS and the runtime; 0.5 on a discrete GPU, for the CUDA\n"
           "                            context and the runtime; an estimate)\n"
           "  --confidence P            each bound holds at P, from 0.5 to 0.999 (default 0.9)\n"
           "  --predictor FILE          decode steps from rooftop learn --llm -o (its own error; 10 % wider "
           "a\n"
           "                            doubling of the batch or context beyond its runs)\n"
           "  --dim NAME=VALUE          bind another symbolic dim (the phases bind batch, sequence, past, "
           "total)\n"
           "  --precision P             as-model | fp32 | fp16 | int8 | fp8 | fp4 (weights and KV cache)\n"
           "  --traffic V               fused (default: the cache appended in place, grouped-query repeats "
           "as\n"
           "                            views, as the runtimes work) | per-node (the graph's copies)\n"
        << runtimeOptionsHelp()
        << "  --format F                table | csv | json\n"
           "  -o, --output FILE         write to FILE instead of standard output\n";
    return out.str();
}

// "128:8192" -> {128, 8192}.
void takeSweep(const std::string& text, LlmRequest& request) {
    const size_t colon = text.find(':');
    const std::optional<int64_t> from =
        colon == std::string::npos ? std::nullopt : readInteger(text.substr(0, colon));
    const std::optional<int64_t> to = from ? readInteger(text.substr(colon + 1)) : std::nullopt;
    if (!to) throw InputError("llm: --context-sweep wants FROM:TO in tokens (128:8192), not '" + text + "'");
    request.sweepFrom = *from;
    request.sweepTo = *to;
    if (request.sweepTo > mostLlmTokens)
        throw InputError("llm: --context-sweep goes up to " + std::to_string(mostLlmTokens) +
                         " tokens, not " + std::to_string(request.sweepTo));
}

} // namespace

int runLlm(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    LlmRequest request;
    bool sweepPointsGiven = false;
    OutputChoice output;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "llm", request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (takeOutputOption(option, args, {"table", "csv", "json"}, output)) continue;
        if (option == "--batch") {
            request.batch = args.takeInteger(option, 1, 1 << 16);
        } else if (option == "--context") {
            request.contexts.push_back(args.takeInteger(option, 1, mostLlmTokens));
        } else if (option == "--context-sweep") {
            takeSweep(args.takeValue(option), request);
        } else if (option == "--sweep-points") {
            request.sweepPoints = static_cast<int>(args.takeInteger(option, 2, 1024));
            sweepPointsGiven = true;
        } else if (takeLlmOption(option, args, request, "llm")) {
            continue;
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("llm", option, helpText());
        }
    }
    if (request.modelPath.empty())
        throw InputError("llm needs a decoder: rooftop llm MODEL.onnx --device ID --prompt P --generate G");
    if (request.settings.dims.batch)
        throw InputError(
            "llm: --batch is the number of concurrent sequences here; give it once, as --batch B");
    if (sweepPointsGiven && request.sweepFrom == 0)
        throw InputError("llm: --sweep-points goes with --context-sweep FROM:TO");
    if (request.deviceId.empty())
        for (const char* perMode : {"--modes", "--predictor", "--runtime", "--runtime-file", "--confidence",
                                    "--reserve-gib", "--context-sweep"})
            if (args.wasGiven(perMode))
                throw InputError(std::string("llm ") + perMode +
                                 " is of a board's power modes: give --device ID (without one, llm gives the "
                                 "counts and memory alone)");
    if (output.format == "csv" && request.deviceId.empty())
        throw InputError("llm --format csv writes one row per power mode: give --device ID (without a board, "
                         "the table and --format json give the counts and memory)");

    const LlmResult result = runLlmAnalysis(request);
    if (!result.device.id.empty() && !result.memory.fits)
        throw InputError(request.modelPath + ": " + std::to_string(request.batch) + " sequence(s) of " +
                         std::to_string(request.prompt + request.generate) + " tokens need " +
                         gibText(result.memory.totalBytes) + ", more than the " +
                         gibText(result.memory.usableBytes()) + " " + result.device.id +
                         " leaves usable: the largest context that fits is " +
                         std::to_string(result.memory.largestContext) + ", the largest batch " +
                         std::to_string(result.memory.largestBatch));
    writeOutput(output.path, output.format == "json"  ? llmJson(result)
                             : output.format == "csv" ? llmCsv(result)
                                                      : llmTable(result));
    return ExitOk;
}

} // namespace rooftop::cli
