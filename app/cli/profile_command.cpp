// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop profile`: runs the model itself in each power mode through a runner and appends one row per run to
// a runs file (docs/profile.md). Arguments become a ProfileRequest; core does the rest.
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/enum_names.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/measure/profile_session.h"
#include "core/onnx/batch_list.h"
#include "core/platform/signal_cancel.h"

#include <atomic>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop profile MODEL.onnx --device ID [--runner R] [--no-switch]\n"
           "       [--modes current|stock|grid|all|sample:N|LIST] [--seed S] [--batch N[,N...]]\n"
           "       [--precision P[,P...]] [--dim NAME=VALUE]... [--phase inference|training]\n"
           "       [--optimizer sgd|momentum|adam] [--repeat K] [--run-timeout S]\n"
           "       [--settle S] [--idle S] [-o RUNS.csv] [--llm --prompt P --generate G]\n"
           "Runs the model in each power mode x batch x precision and appends one row per run to a runs "
           "file\n"
           "that rooftop calibrate --runs reads (docs/profile.md).\n\n"
           "  --runner R         trtexec (default, when one is found) | trtexec:PATH |\n"
           "                     command:CMD (runs CMD through /bin/sh -c; its last stdout line is JSON) |\n"
           "                     sim | simulator:SEED (a simulated board, for tests and demos)\n"
           "  --no-switch        do not switch modes (the command does it, or only pretends)\n"
           "  --modes M          current (default), stock, grid, all, sample:N (N grid modes drawn with\n"
           "                     --seed) or a ;-separated list of modes\n"
           "  --seed S           seed of sample:N (default 0)\n"
           "  --batch N,...      batch sizes (default 1)\n"
           "  --precision P,...  fp32 (default; fp16 with --llm), fp16, int8, fp8 and fp4 (boards with the\n"
           "                     units: Thor)\n"
           "  --dim NAME=VALUE   bind a symbolic input dimension (repeatable): the runner gets it\n"
           "                     (ROOFTOP_DIMS, trtexec --shapes) and each row records it\n"
           "  --phase P          inference (default) or training\n"
           "  --optimizer O      a training step's update: sgd, momentum or adam (default); the runner gets\n"
           "                     it (ROOFTOP_OPTIMIZER) and each training row records it\n"
           "  --llm              a decoder's generation per run: a prompt of P tokens (--prompt), then G\n"
           "                     decode steps (--generate) for each of the batch's sequences; the runner\n"
           "                     gets ROOFTOP_PROMPT, ROOFTOP_GENERATE and ROOFTOP_CONTEXT and prints\n"
           "                     ttft_ms and tpot_ms (or prefill_tok_s and decode_tok_s); each row records\n"
           "                     them (rooftop calibrate --llm --runs fits the phases from them)\n"
           "  --repeat K         runs per configuration (default 1)\n"
           "  --run-timeout S    seconds a command may run before its process group is killed (default 600)\n"
           "  --settle S         seconds to wait after each mode switch (default 2)\n"
           "  --idle S           seconds of idle power measured per mode, when Rooftop measures power\n"
           "                     (default 1)\n"
           "  -o, --output FILE  the runs file (default MODEL-runs.csv in ~/.local/share/Rooftop/rooftop,\n"
           "                     $XDG_DATA_HOME's); a rerun skips the ok runs it has\n\n"
           "Switching runs rooftop-mode-helper; the original mode is restored on exit, error and Ctrl-C.\n"
           "Exit 1 for bad input, 2 without a runner (no trtexec found) or when switching is impossible "
           "here.\n";
    return out.str();
}

/// Idle baselines per mode with their provenance, or why Rooftop measured no power.
void printPower(const ProfileOutcome& outcome) {
    if (!outcome.currentModeNote.empty()) std::cout << "mode: " << outcome.currentModeNote << "\n";
    if (outcome.powerSource.empty()) {
        if (!outcome.noPowerReason.empty())
            std::cout << "power: not measured by rooftop (" << outcome.noPowerReason
                      << "); only a runner's own numbers\n";
        return;
    }
    for (const ModeIdle& idle : outcome.idle) {
        std::cout << "idle " << idle.mode << ": ";
        if (idle.watts)
            std::cout << general(*idle.watts, 4) << " W (measured, " << outcome.powerSource << ", idle "
                      << fixed(idle.seconds, 1) << " s)\n";
        else
            std::cout << "not measured (" << outcome.powerSource << " gave no reading)\n";
    }
    if (outcome.powerTimeouts > 0)
        std::cout << "power: " << outcome.powerTimeouts << " read(s) of " << outcome.powerSource
                  << " timed out; those runs and idle baselines have no power\n";
}

} // namespace

int runProfile(const std::vector<std::string>& args) {
    ProfileRequest request;
    bool optimizerGiven = false, llm = false, precisionGiven = false;
    ArgumentList list(args);
    while (list.more()) {
        if (!list.nextIsOption()) {
            takeModelArgument(list, "profile", request.modelPath);
            continue;
        }
        const std::string option = list.takeOption();
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
        } else if (option == "--seed") {
            request.seed = static_cast<uint64_t>(list.takeInteger(option, 0, INT64_MAX));
        } else if (option == "--batch") {
            request.batches = parseBatchList(list.takeValue(option), option);
        } else if (option == "--precision") {
            request.precisions = parseRunPrecisionList(list.takeValue(option), option);
            precisionGiven = true;
        } else if (option == "--dim") {
            request.dims = takeDim(list, option, std::move(request.dims));
        } else if (option == "--phase") {
            const std::string value = list.takeValue(option);
            request.phase =
                parsedOr(parsePhase(value), "--phase must be inference or training, got '" + value + "'");
        } else if (option == "--optimizer") {
            const std::string value = list.takeValue(option);
            request.optimizer = parsedOr(parseOptimizer(value),
                                         "--optimizer must be sgd, momentum or adam, got '" + value + "'");
            optimizerGiven = true;
        } else if (option == "--llm") {
            llm = true;
        } else if (option == "--prompt") {
            request.llm.prompt = list.takeInteger(option, 1, 1000000000);
        } else if (option == "--generate") {
            request.llm.generate = list.takeInteger(option, 1, 1000000000);
        } else if (option == "--repeat") {
            request.repeat = static_cast<int>(list.takeInteger(option, 1, 10000));
        } else if (option == "--run-timeout") {
            request.runTimeoutSeconds = list.takeNumber(option, 0.0, false, "a positive number of seconds");
        } else if (option == "--settle") {
            request.settleSeconds = list.takeNumber(option, 0.0, true, "a number of seconds >= 0");
        } else if (option == "--idle") {
            request.idleSeconds = list.takeNumber(option, 0.0, true, "a number of seconds >= 0");
        } else if (option == "-o" || option == "--output") {
            request.outPath = list.takeValue(option);
        } else {
            throw unknownOption("profile", option, helpText());
        }
    }
    if (request.modelPath.empty()) throw InputError("profile: no model given (try rooftop profile --help)");
    if (optimizerGiven && request.phase != Phase::Training)
        throw InputError("profile: --optimizer is the update of a training step; add --phase training");
    if (llm && !(request.llm.prompt > 0 && request.llm.generate > 0))
        throw InputError("profile --llm needs --prompt P and --generate G (tokens)");
    if (!llm && (request.llm.prompt > 0 || request.llm.generate > 0))
        throw InputError("profile: --prompt and --generate go with --llm (a decoder's generation)");
    if (llm && !precisionGiven) request.precisions = {Precision::FP16}; // as LLM runtimes compute

    static std::atomic<bool> cancel{false};
    cancelOnSignals(&cancel);
    const ProfileOutcome outcome = runProfileSession(
        request,
        [](const ProfileProgress& p) {
            std::cerr << "[" << p.runsDone << "/" << p.runsPlanned << "] mode " << p.modeIndex + 1 << "/"
                      << p.modeCount << " " << p.modeName << ": " << p.phase << " (ETA "
                      << durationText(p.etaSeconds) << ")\n";
        },
        &cancel);
    for (const std::string& reason : outcome.skipped)
        std::cout << "skipped: " << reason << "\n";
    printPower(outcome);
    std::cout << "runs: " << outcome.ok << " ok, " << outcome.failed << " failed, " << outcome.resumed
              << " already in the file\n"
              << "runs file: " << outcome.outPath << "\n";
    if (!outcome.layersPath.empty()) std::cout << "layers file: " << outcome.layersPath << "\n";
    if (outcome.missingLayers > 0)
        std::cout << "layer profile missing for " << outcome.missingLayers << " ok run(s)\n";
    if (outcome.cancelled) {
        std::cerr << (outcome.switching
                          ? "rooftop: profile cancelled; the original mode was restored; rerun to resume\n"
                          : "rooftop: profile cancelled (no mode was switched); rerun to resume\n");
        return ExitUnavailable;
    }
    if (outcome.ok == 0 && outcome.failed > 0) {
        std::cerr << "rooftop: every run failed (" << outcome.failed
                  << "); each one's reason is in the status column of " << outcome.outPath << "\n";
        return ExitRunsFailed;
    }
    return ExitOk;
}

} // namespace rooftop::cli
