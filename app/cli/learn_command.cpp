// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop learn MODEL --device ID --runs RUNS.csv`: a time and power predictor for every mode, learned from
// the runs of `rooftop profile` on top of Rooftop's roofline prediction (docs/learn.md), optionally
// pre-trained on another model's runs; prints its cross-validated errors and range, -o writes it.
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/learn/learn_points.h"
#include "core/learn/predictor_file.h"
#include "core/measure/learn_session.h"
#include "core/report/learn_writers.h"

#include <iostream>
#include <sstream>
#include <unistd.h>

namespace rooftop::cli {

namespace {

struct Options {
    LearnRequest request;
    std::string output;
};

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop learn MODEL.onnx --device ID --runs RUNS.csv [options]\n"
           "Learns the latency and power of every power mode and batch size from a few profiled runs\n"
           "(rooftop profile): Rooftop's roofline prediction and its parts are the features of a physics\n"
           "model with fitted coefficients, and a Gaussian process learns what the board does beyond it.\n"
           "Prints the k-fold cross-validated errors and the profiled ranges (predictions outside them are\n"
           "extrapolated); -o writes the predictor for --predictor (docs/learn.md).\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --runs FILE               runs of MODEL (rooftop profile); at least 5 ok runs in 2+ modes;\n"
           "                            with fewer than 5 that measured power, time only is learned\n"
           "  --reference-model REF     another model (or this one on another board) profiled in many "
           "modes:\n"
           "  --reference-runs FILE     pre-train on its runs and adapt to MODEL's few runs, per quantity\n"
           "                            where that cross-validates better than MODEL's runs alone\n"
           "  --reference-device ID     the board the reference ran on (default: --device)\n"
           "  --llm --prompt P --generate G\n"
           "                            a decoder's LLM runs (rooftop profile --llm) of this generation: the "
           "time\n"
           "                            per output token and the generation's power per mode, from the mean\n"
           "                            decode step's roofline parts; rooftop llm --predictor uses it\n"
        << runtimeOptionsHelp()
        << "                            (the runtime whose roofline prediction is the starting point)\n"
           "  --dim NAME=VALUE          bind a symbolic input dimension (repeatable)\n"
           "  --phase P                 inference (default) | training: learn the runs of that phase (a\n"
           "                            training predictor gives the time and power of one minibatch step)\n"
           "  --optimizer O             sgd | momentum | adam (default): the training step's update\n"
           "  -o, --output FILE         write the predictor (rooftop-predictor/4 JSON) to FILE\n";
    return out.str();
}

} // namespace

int runLearn(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    Options o;
    bool llm = false;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "learn", o.request.modelPath);
            continue;
        }
        const std::string option = args.takeOption();
        if (option == "--batch" || option == "--precision")
            throw InputError("learn: batch sizes and precisions come from the runs file, not " + option);
        if (takeAnalysisOption(option, args, o.request.settings)) continue;
        if (option == "--samples") throw InputError("learn: --samples is for analyze and roofline");
        if (takePhaseOption(option, args, o.request.settings)) continue;
        if (option == "--device") {
            o.request.deviceId = args.takeValue(option);
        } else if (option == "--runs") {
            o.request.runsPath = args.takeValue(option);
        } else if (option == "--reference-model") {
            o.request.referenceModelPath = args.takeValue(option);
        } else if (option == "--reference-runs") {
            o.request.referenceRunsPath = args.takeValue(option);
        } else if (option == "--llm") {
            llm = true;
        } else if (option == "--prompt") {
            o.request.llm.prompt = args.takeInteger(option, 1, 1000000000);
        } else if (option == "--generate") {
            o.request.llm.generate = args.takeInteger(option, 1, 1000000000);
        } else if (option == "--reference-device") {
            o.request.referenceDeviceId = args.takeValue(option);
        } else if (isRuntimeOption(option)) {
            takeRuntimeOption(option, args.takeValue(option), o.request.runtime);
        } else if (option == "-o" || option == "--output") {
            o.output = args.takeValue(option);
            if (o.output.empty() || o.output == "-") throw InputError(option + " needs a file name");
        } else if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("learn", option, helpText());
        }
    }
    if (o.request.modelPath.empty())
        throw InputError("learn needs a model: rooftop learn MODEL.onnx --device ID --runs FILE");
    if (o.request.deviceId.empty())
        throw InputError("learn needs a board: --device ID (rooftop devices lists them)");
    if (o.request.runsPath.empty())
        throw InputError("learn needs the profiled runs: --runs FILE (rooftop profile writes it)");
    if (llm && !(o.request.llm.prompt > 0 && o.request.llm.generate > 0))
        throw InputError("learn --llm needs the --prompt P and --generate G its runs were profiled at");
    if (!llm && (o.request.llm.prompt > 0 || o.request.llm.generate > 0))
        throw InputError("learn: --prompt and --generate go with --llm (a decoder's LLM runs)");
    checkPhaseOptions(o.request.settings, args);
    if (llm && !o.request.referenceModelPath.empty())
        throw InputError(
            "learn --llm learns from the decoder's own runs; --reference-model is for models' runs");
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    if (terminal) // one line, rewritten: a large runs file takes seconds
        o.request.progress = [](const std::string& stage) {
            std::cerr << "\r\033[Klearn: " << stage << std::flush;
        };
    LearnOutcome outcome;
    try {
        outcome = runLearning(o.request);
    } catch (...) {
        if (terminal) std::cerr << "\r\033[K" << std::flush; // the error line replaces the progress line
        throw;
    }
    if (terminal) std::cerr << "\r\033[K" << std::flush;
    if (!o.output.empty()) savePredictor(o.output, outcome.predictor, o.request.runsPath);
    writeOutput("", learnReportText(learnReport(outcome.predictor, outcome.notes, o.output),
                                    "(use it with --predictor)"));
    return ExitOk;
}

} // namespace rooftop::cli
