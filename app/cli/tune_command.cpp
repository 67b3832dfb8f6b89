// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop tune`: finds the configuration (power mode x batch x precision) with the least energy per
// inference (or latency) within a latency SLO and a power cap in a few measured runs (docs/tune.md).
// Arguments become a TuneRequest; core/tune does the rest.
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/enum_names.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/measure/runner_spec.h"
#include "core/onnx/batch_list.h"
#include "core/platform/signal_cancel.h"
#include "core/tune/tune_progress.h"
#include "core/tune/tune_session.h"
#include "core/tune/tune_writers.h"

#include <atomic>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop tune MODEL.onnx --device ID --latency-slo MS [--runner R] [--no-switch]\n"
           "       [--power-cap W] [--objective energy|latency|efficiency] [--modes M]\n"
           "       [--batch N[,N...]] [--precision P[,P...]] [--budget N] [--search cbo|random|exhaustive]\n"
           "       [--seed S] [--runs RUNS.csv] [--dim NAME=VALUE] [--phase P] [--optimizer O]\n"
           "       [--llm --prompt P --generate G --tpot-slo MS] [--run-timeout S] [--format table|json] [-o "
           "FILE]\n"
           "Finds the power mode, batch size and precision with the least energy per inference within the\n"
           "limits in a few measured runs: constrained Bayesian optimisation whose prior is Rooftop's\n"
           "roofline prediction, recalibrated after every run (docs/tune.md). The answer is always a "
           "measured\n"
           "configuration that met the limits.\n\n"
           "  --device ID          board id (rooftop devices lists them)\n"
           "  --latency-slo MS     latency limit per batch, in milliseconds (required)\n"
           "  --power-cap W        average power limit, in watts\n"
           "  --objective O        energy (default) | latency | efficiency (inferences per joule)\n"
           "  --runner R           trtexec (default, when one is found) | trtexec:PATH | command:CMD |\n"
           "                       sim | simulator:SEED (a simulated board, for tests and demos)\n"
           "  --no-switch          do not switch modes (the command does it, or only pretends)\n"
           "  --modes M            grid (default; stock on a board without one) | current | stock | all |\n"
           "                       sample:N | a ;-separated list of modes\n"
           "  --dim NAME=VALUE     bind a symbolic input dimension (repeatable)\n"
           "  --batch N,...        batch sizes to search (default 1)\n"
           "  --precision P,...    precisions to search: fp32 (default), fp16, int8, fp8, fp4\n"
           "  --phase P            inference (default) | training: each run a training step (PowerTrain: "
           "the\n"
           "                       fastest minibatch under a cap is --objective latency --power-cap W)\n"
           "  --optimizer O        sgd | momentum | adam (default): the training step's update\n"
           "  --budget N           this tune's runs, the baseline's and its resumed ones included; other\n"
           "                       commands' rows of the runs file are information, not budget (default 15)\n"
           "  --search S           cbo (default) | random | exhaustive\n"
           "  --seed S             seed of random search (default 0)\n"
           "  --runs FILE          the runs file (default MODEL-runs.csv in ~/.local/share/Rooftop/rooftop,\n"
           "                       $XDG_DATA_HOME's): every run appended at once; its\n"
           "                       rows of the space count as measured and are not run again (resume)\n"
           "  --run-timeout S      seconds a command may run (default 600)\n"
           "  --llm --prompt P --generate G\n"
           "                       a decoder's generation per run (the runners of profile --llm): the\n"
           "                       latency searched is its time per output token (a decode step of the\n"
           "                       batch's sequences; --tpot-slo MS, or --latency-slo, bounds it) and the\n"
           "                       energy per inference is the energy per output token; fp16 by default\n"
           "  --format F           table (default) | json\n"
           "  -o, --output FILE    write the result to FILE\n\n"
           "Switching runs rooftop-mode-helper; the original mode is restored on exit, error and Ctrl-C.\n"
           "Exit 1 for bad input, 2 without a runner or when switching is impossible here, 3 when every\n"
           "run it made failed.\n";
    return out.str();
}

} // namespace

int runTune(const std::vector<std::string>& args) {
    TuneRequest request;
    TuneOptions& o = request.options;
    OutputChoice output;
    bool llm = false, tpotGiven = false, precisionGiven = false;
    ArgumentList list(args);
    while (list.more()) {
        if (!list.nextIsOption()) {
            takeModelArgument(list, "tune", request.modelPath);
            continue;
        }
        const std::string option = list.takeOption();
        if (takeOutputOption(option, list, {"table", "json"}, output)) continue;
        if (takeLimitOption(option, list, o.limits, o.objective)) continue;
        if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else if (option == "--device") {
            request.deviceId = list.takeValue(option);
        } else if (option == "--runner") {
            request.runner = list.takeValue(option);
        } else if (option == "--no-switch") {
            request.noSwitch = true;
        } else if (option == "--modes") {
            request.modes = list.takeValue(option);
        } else if (option == "--dim") {
            request.dims = takeDim(list, option, std::move(request.dims));
        } else if (option == "--batch") {
            request.batches = parseBatchList(list.takeValue(option), option);
        } else if (option == "--precision") {
            request.precisions = parseRunPrecisionList(list.takeValue(option), option);
            precisionGiven = true;
        } else if (option == "--budget") {
            o.budget = static_cast<int>(list.takeInteger(option, 1, 100000));
        } else if (option == "--search") {
            const std::string value = list.takeValue(option);
            o.method = parsedOr(parseTuneMethod(value),
                                "--search must be cbo, random or exhaustive, got '" + value + "'");
        } else if (option == "--seed") {
            o.seed = static_cast<uint64_t>(list.takeInteger(option, 0, INT64_MAX));
        } else if (option == "--runs") {
            o.runsPath = list.takeValue(option);
            if (o.runsPath.empty()) throw InputError("--runs needs a file name");
        } else if (option == "--run-timeout") {
            request.runTimeoutSeconds = list.takeNumber(option, 0.0, false, "a positive number of seconds");
        } else if (option == "--phase") {
            const std::string value = list.takeValue(option);
            o.phase =
                parsedOr(parsePhase(value), "--phase must be inference or training, got '" + value + "'");
        } else if (option == "--optimizer") {
            const std::string value = list.takeValue(option);
            o.optimizer = parsedOr(parseOptimizer(value),
                                   "--optimizer must be sgd, momentum or adam, got '" + value + "'");
        } else if (option == "--llm") {
            llm = true;
        } else if (option == "--prompt") {
            o.llm.prompt = list.takeInteger(option, 1, 1000000000);
        } else if (option == "--generate") {
            o.llm.generate = list.takeInteger(option, 1, 1000000000);
        } else if (option == "--tpot-slo") {
            o.limits.latencySloSeconds =
                list.takeNumber(option, 0.0, false, "a positive number of milliseconds") * 1e-3;
            tpotGiven = true;
        } else {
            throw unknownOption("tune", option, helpText());
        }
    }
    if (request.modelPath.empty()) throw InputError("tune: no model given (try rooftop tune --help)");
    if (request.deviceId.empty())
        throw InputError("tune: --device ID is required (rooftop devices lists them)");
    if (tpotGiven && list.wasGiven("--latency-slo")) // one limit, two names: the last would win silently
        throw InputError("tune --llm: --tpot-slo and --latency-slo are the same limit; give one");
    if (llm && !(o.llm.prompt > 0 && o.llm.generate > 0))
        throw InputError("tune --llm needs --prompt P and --generate G (tokens)");
    if (!llm && (o.llm.prompt > 0 || o.llm.generate > 0 || tpotGiven))
        throw InputError("tune: --prompt, --generate and --tpot-slo go with --llm (a decoder's generation)");
    if (llm && !precisionGiven) request.precisions = {Precision::FP16}; // as LLM runtimes compute
    if (list.wasGiven("--optimizer") && o.phase != Phase::Training)
        throw InputError("tune: --optimizer is the update of a training step; add --phase training");
    if (!o.limits.latencySloSeconds)
        throw InputError(llm ? "tune --llm: --tpot-slo MS is required"
                             : "tune: --latency-slo MS is required");

    static std::atomic<bool> cancel{false};
    cancelOnSignals(&cancel);
    const TuneReport report = runTuneSession(
        request,
        [&o, provenance = runProvenance(request.runner)](const TuneOutcome& sofar, const TuneSpace& space) {
            std::cerr << tuneSampleLine(sofar, sofar.latest, space, o, provenance, false) << "\n";
        },
        &cancel);
    writeOutput(output.path, output.format == "json" ? tuneJson(report) : tuneTable(report));
    if (report.outcome.cancelled) {
        std::cerr << "rooftop: tune cancelled"
                  << (report.switching ? "; the original mode was restored" : " (no mode was switched)")
                  << "; rerun with the same --runs to resume\n";
        return ExitUnavailable;
    }
    // as profile: a tune whose every run of its own failed measured nothing
    int ownOk = 0, ownFailed = 0;
    for (const TuneSample& s : report.outcome.samples)
        if (!s.resumed) (s.ok ? ownOk : ownFailed)++;
    if (ownOk == 0 && ownFailed > 0) {
        std::cerr << "rooftop: every run failed (" << ownFailed
                  << "); each one's reason is in the status column of " << report.options.runsPath << "\n";
        return ExitRunsFailed;
    }
    return ExitOk;
}

} // namespace rooftop::cli
