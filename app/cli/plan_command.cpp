// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop plan`: the power mode and inference batch size that let a training job run beside an inference
// stream with the most training throughput within a latency SLO and a power cap (docs/plan.md). Arguments
// become a PlanRequest; core/plan does the rest.
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/enum_names.h"
#include "core/common/errors.h"
#include "core/measure/run_config.h"
#include "core/onnx/batch_list.h"
#include "core/plan/plan_session.h"
#include "core/plan/plan_writers.h"
#include "core/platform/signal_cancel.h"

#include <atomic>
#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop plan --inference A.onnx --training B.onnx --device ID\n"
           "       --arrival uniform:RATE|poisson:RATE|bursty:RATE|trace:FILE --latency-slo MS\n"
           "       [--power-cap W] [--max-violation PCT] [--inference-batch N[,N...]] [--training-batch N]\n"
           "       [--modes M] [--dim NAME=VALUE]... [--training-dim NAME=VALUE]...\n"
           "       [--strategy exhaustive|gmd|als] [--max-profiles N] [--confidence P]\n"
           "       [--runner R] [--no-switch] [--duration S] [--seed S] [--precision P] [--optimizer O]\n"
           "       [--predictor FILE] [--training-predictor FILE] [--runs FILE] [--training-runs FILE]\n"
           "       [--run-timeout S] [--format table|json] [-o FILE]\n"
           "Plans training beside inference on one board that runs one workload at a time: the power mode\n"
           "and inference batch size with the most training minibatches per second while at most 1 % of the\n"
           "requests miss the SLO and the average power stays under the cap, judged by a seeded simulation "
           "of\n"
           "the schedule (docs/plan.md).\n\n"
           "  --inference A.onnx   the model serving requests\n"
           "  --training B.onnx    the model training beside it (one minibatch at a time)\n"
           "  --device ID          board id (rooftop devices lists them)\n"
           "  --arrival A          uniform:RATE | poisson:RATE | bursty:RATE (requests/s) | trace:FILE (a "
           "CSV\n"
           "                       of arrival times in seconds)\n"
           "  --latency-slo MS     latency objective of one request, arrival to result (required)\n"
           "  --power-cap W        average power limit, in watts\n"
           "  --max-violation PCT  requests late or dropped at most (default 1)\n"
           "  --inference-batch N,...  inference batch sizes to choose among (default 1,2,4,8,16)\n"
           "  --training-batch N   training minibatch size (default 16)\n"
           "  --modes M            grid (default; stock on a board without one) | current | stock | all |\n"
           "                       sample:N | a ;-separated list of modes\n"
           "  --dim NAME=VALUE     bind a symbolic dimension of the inference model (repeatable)\n"
           "  --training-dim NAME=VALUE  the same for the training model\n"
           "  --strategy S         gmd (the default with --runner: profiles ~15 modes through the runner) |\n"
           "                       als (50-150 modes, the Pareto front of training throughput against\n"
           "                       power) | exhaustive (the default without: all modes, the prediction,\n"
           "                       runs nothing, the budgets met by the costs' upper bounds)\n"
           "  --confidence P       exhaustive: meet the cap and the SLO with the estimated costs' upper\n"
           "                       bounds at P (default 0.9; 0.5: the estimates themselves)\n"
           "  --max-profiles N     modes gmd or als may profile (default 15 / 150)\n"
           "  --runner R           for gmd and als: command:CMD | sim | simulator:SEED (a simulated board);\n"
           "                       the command gets ROOFTOP_PHASE=inference or training\n"
           "  --no-switch          do not switch modes (the command does it, or only pretends)\n"
           "  --duration S         seconds of arrivals simulated per stream (default 30; a trace: its "
           "length)\n"
           "  --seed S             seed of the arrival streams and run jitter (default 1)\n"
           "  --precision P        fp32 (default) | fp16 | int8, both models\n"
           "  --optimizer O        adam (default) | momentum | sgd, of the training step\n"
           "  --predictor FILE     the inference model's learned predictor (rooftop learn -o)\n"
           "  --training-predictor FILE\n"
           "                       the training step's (rooftop learn --phase training -o); a\n"
           "                       stream without its predictor rests on the prior and says so\n"
           "  --runs FILE          gmd, als: the inference model's runs file (default A-runs.csv in\n"
           "                       ~/.local/share/Rooftop/rooftop, as profile's), every\n"
           "                       run appended at once (rooftop learn reads it)\n"
           "  --training-runs FILE the training model's runs file (default B-runs.csv there)\n"
           "  --run-timeout S      seconds a command may run (default 600)\n"
           "  --format F           table (default) | json\n"
           "  -o, --output FILE    write the result to FILE\n\n"
           "Switching runs rooftop-mode-helper; the original mode is restored on exit, error and Ctrl-C.\n"
           "Exit 1 for bad input, 2 without a runner or when switching is impossible here, 3 when every\n"
           "profile failed (the search stops after 3).\n";
    return out.str();
}

} // namespace

int runPlan(const std::vector<std::string>& args) {
    PlanRequest request;
    OutputChoice output;
    ArgumentList list(args);
    bool strategyGiven = false;
    while (list.more()) {
        if (!list.nextIsOption())
            throw InputError("plan: give the models as --inference A.onnx --training B.onnx, not '" +
                             list.takeValue("plan") + "'");
        const std::string option = list.takeOption();
        if (takeOutputOption(option, list, {"table", "json"}, output)) continue;
        if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else if (option == "--inference") {
            request.inferenceModel = list.takeValue(option);
        } else if (option == "--training") {
            request.trainingModel = list.takeValue(option);
        } else if (option == "--device") {
            request.deviceId = list.takeValue(option);
        } else if (option == "--arrival") {
            request.arrival = list.takeValue(option);
        } else if (option == "--latency-slo") {
            request.latencySloMs = list.takeNumber(option, 0.0, false, "a positive number of milliseconds");
        } else if (option == "--power-cap") {
            request.powerCapWatts = list.takeNumber(option, 0.0, false, "a positive number of watts");
        } else if (option == "--max-violation") {
            request.maxViolationPct = list.takeNumber(option, 0.0, true, "a percentage from 0 to 100");
        } else if (option == "--inference-batch") {
            request.inferenceBatches = parseBatchList(list.takeValue(option), option);
        } else if (option == "--dim") {
            request.inferenceDims = takeDim(list, option, std::move(request.inferenceDims));
        } else if (option == "--training-dim") {
            request.trainingDims = takeDim(list, option, std::move(request.trainingDims));
        } else if (option == "--training-batch") {
            request.trainingBatch = list.takeInteger(option, 1, 4096);
        } else if (option == "--modes") {
            request.modes = list.takeValue(option);
        } else if (option == "--strategy") {
            const std::string value = list.takeValue(option);
            request.strategy = parsedOr(parsePlanStrategy(value),
                                        "--strategy must be exhaustive, gmd or als, got '" + value + "'");
            strategyGiven = true;
        } else if (option == "--confidence") {
            request.confidence = list.takeNumber(option, 0.5, true, "a probability from 0.5 to 0.999");
        } else if (option == "--max-profiles") {
            request.maxProfiles = static_cast<int>(list.takeInteger(option, 1, 100000));
        } else if (option == "--runner") {
            request.runner = list.takeValue(option);
        } else if (option == "--no-switch") {
            request.noSwitch = true;
        } else if (option == "--duration") {
            request.durationSeconds = list.takeNumber(option, 0.0, false, "a positive number of seconds");
        } else if (option == "--seed") {
            request.seed = static_cast<uint64_t>(list.takeInteger(option, 0, INT64_MAX));
        } else if (option == "--precision") {
            const std::string value = list.takeValue(option);
            request.precision = parsedOr(parseRunPrecision(value),
                                         "--precision must be fp32, fp16 or int8, got '" + value + "'");
        } else if (option == "--optimizer") {
            const std::string value = list.takeValue(option);
            request.optimizer = parsedOr(parseOptimizer(value),
                                         "--optimizer must be sgd, momentum or adam, got '" + value + "'");
        } else if (option == "--predictor") {
            request.predictorPath = list.takeValue(option);
        } else if (option == "--training-predictor") {
            request.trainingPredictorPath = list.takeValue(option);
        } else if (option == "--runs") {
            request.inferenceRunsPath = list.takeValue(option);
        } else if (option == "--training-runs") {
            request.trainingRunsPath = list.takeValue(option);
        } else if (option == "--run-timeout") {
            request.runTimeoutSeconds = list.takeNumber(option, 0.0, false, "a positive number of seconds");
        } else {
            throw unknownOption("plan", option, helpText());
        }
    }
    // with a runner, measure: a plan on estimated costs keeps the budgets only within their error
    if (!strategyGiven && !request.runner.empty()) request.strategy = PlanStrategy::Gmd;
    static std::atomic<bool> cancel{false};
    cancelOnSignals(&cancel);
    const PlanReport report = runPlanSession(
        request,
        [&](const std::string& stage, int) {
            if (request.strategy != PlanStrategy::Exhaustive) std::cerr << "rooftop: " << stage << "\n";
        },
        &cancel);
    writeOutput(output.path, output.format == "json" ? planJson(report) : planTable(report));
    if (report.outcome.cancelled) {
        std::cerr << (report.switching ? "rooftop: plan cancelled; the original mode was restored\n"
                                       : "rooftop: plan cancelled (no mode was switched)\n");
        return ExitUnavailable;
    }
    // as profile and tune: a plan whose every profile failed measured nothing
    if (report.outcome.nothingMeasured()) {
        std::cerr << "rooftop: every profile failed (" << report.outcome.failedProfiles
                  << "); each one's reason is in the notes and in the status column of the runs files\n";
        return ExitRunsFailed;
    }
    return ExitOk;
}

} // namespace rooftop::cli
