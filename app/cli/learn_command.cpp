// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop learn MODEL --device ID --runs RUNS.csv`: a time and power predictor for every mode, learned from
// the runs of `rooftop profile` on top of Rooftop's roofline prediction (docs/learn.md), optionally
// pre-trained on another model's runs; prints its cross-validated errors and range, -o writes it.
#include "cli/analysis_options.h"
#include "cli/argument_list.h"
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/runtime_option.h"
#include "core/common/errors.h"
#include "core/cost/workload.h"
#include "core/device/power_mode.h"
#include "core/graph/data_type.h"
#include "core/learn/learn_points.h"
#include "core/learn/predictor_file.h"
#include "core/measure/runs_file.h"
#include "core/session/analysis_session.h"

#include <QFileInfo>
#include <cstdio>
#include <iostream>
#include <map>

namespace rooftop::cli {

namespace {

struct Options {
    std::string model, runs, referenceModel, referenceRuns, output;
    std::string deviceId;
    RuntimeSelection runtime;
    AnalysisSettings settings;
};

void printHelp() {
    std::cout
        << "Usage: rooftop learn MODEL.onnx --device ID --runs RUNS.csv [options]\n"
           "Learns the latency and power of every power mode and batch size from a few profiled runs\n"
           "(rooftop profile): Rooftop's roofline prediction and its parts are the features of a physics\n"
           "model with fitted coefficients, and a Gaussian process learns what the board does beyond it.\n"
           "Prints the k-fold cross-validated errors and the profiled ranges (predictions outside them are\n"
           "extrapolated); -o writes the predictor for --predictor (docs/learn.md).\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --runs FILE               runs of MODEL (rooftop profile); at least 5 ok runs in 2+ modes\n"
           "  --reference-model REF     another model profiled in many modes on the same board: pre-train\n"
           "  --reference-runs FILE     ... on its runs and adapt to MODEL's few runs\n"
        << runtimeOptionsHelp()
        << "                            (the runtime whose roofline prediction is the starting point)\n"
           "  --dim NAME=VALUE          bind a symbolic input dimension (repeatable)\n"
           "  -o, --output FILE         write the predictor (rooftop-predictor/1 JSON) to FILE\n";
}

std::string fileName(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).fileName().toStdString();
}

/// The ok inference runs of a runs file, as the learner's measured runs; one line for a file without any.
std::vector<MeasuredRun> measuredRuns(const DeviceSpec& device, const std::string& path) {
    const std::vector<RunRow> rows = readRunsFile(path);
    if (rows.empty()) throw InputError(path + ": no runs (rooftop profile writes them)");
    std::vector<MeasuredRun> runs;
    int failed = 0;
    for (const RunRow& row : rows) {
        if (!row.ok() || !row.latencyMs) {
            ++failed;
            continue;
        }
        if (row.phase != "inference") continue;
        MeasuredRun run;
        try {
            run.mode = resolvePowerMode(device, row.mode);
        } catch (const InputError& error) {
            throw InputError(path + ":" + std::to_string(row.line) + ": " + error.what());
        }
        run.batch = row.batch;
        run.precision = row.precision;
        run.latencySeconds = *row.latencyMs * 1e-3;
        if (row.powerW) run.watts = *row.powerW;
        runs.push_back(run);
    }
    if (runs.empty())
        throw InputError(path + ": no ok inference run to learn from (" + std::to_string(failed) + " of " +
                         std::to_string(rows.size()) + " runs failed)");
    return runs;
}

/// The model counted once per batch size and precision the runs use.
class Counts {
public:
    Counts(std::string path, AnalysisSettings settings)
        : path_(std::move(path)), settings_(std::move(settings)) {}
    const Workload& operator()(int64_t batch, const std::string& precision) {
        auto found = counted_.find({batch, precision});
        if (found != counted_.end()) return found->second;
        AnalysisSettings settings = settings_;
        settings.dims.batch = batch;
        if (!parsePrecision(precision, settings.precision))
            throw InputError("runs: unknown precision '" + precision + "'");
        return counted_.emplace(std::make_pair(batch, precision), analyzeModelFile(path_, settings))
            .first->second;
    }

private:
    std::string path_;
    AnalysisSettings settings_;
    std::map<std::pair<int64_t, std::string>, Workload> counted_;
};

Predictor learnFrom(const Options& o, const DeviceSpec& device, const RuntimeProfile& runtime,
                    const std::string& model, const std::string& runsPath, const Predictor* reference) {
    Counts counts(model, o.settings);
    const std::vector<LearnPoint> points =
        learnPoints(device, runtime, measuredRuns(device, runsPath),
                    [&](int64_t batch, const std::string& precision) -> const Workload& {
                        return counts(batch, precision);
                    });
    Predictor p;
    try {
        p = learnPredictor(points, reference);
    } catch (const InputError& error) {
        throw InputError(runsPath + ": " + error.what());
    }
    p.board = device.id;
    p.model = fileName(model);
    p.modelHash = modelFileHash(model);
    return p;
}

std::string report(const Predictor& p, const std::string& output) {
    char line[400];
    std::string text = "Learned time and power of " + p.model + " on " + p.board + " from " +
                       std::to_string(p.runs) + " runs (" + std::to_string(p.powerRuns) + " with power)";
    if (!p.referenceModel.empty())
        text += ", pre-trained on " + std::to_string(p.referenceRuns) + " runs of " + p.referenceModel;
    text += "\nMethod: physics coefficients of the roofline parts (relative ridge NNLS) x exp(Gaussian "
            "process on "
            "the log residuals)\n";
    std::snprintf(line, sizeof line, "Cross-validated (%d-fold) MAPE: time %.1f %%, power %.1f %%\n",
                  p.cv.folds, 100 * p.cv.timeMape, 100 * p.cv.powerMape);
    text += line;
    text += "Range: " + p.range.describe() + " (outside it: extrapolated)\n";
    auto coefficients = [&](const char* what, const auto& names, const LearnedQuantity& q) {
        text += std::string(what) + " coefficients:";
        for (size_t i = 0; i < names.size(); ++i)
            if (q.coefficients[Eigen::Index(i)] != 0.0) {
                std::snprintf(line, sizeof line, " %s %.4g", names[i], q.coefficients[Eigen::Index(i)]);
                text += line;
            }
        std::snprintf(line, sizeof line, "; residual GP length %.2g, sd %.3g\n", q.residual.lengthScale,
                      std::sqrt(q.residual.signalVariance));
        text += line;
    };
    coefficients("Time", timeFeatureNames(), p.time);
    coefficients("Power", powerFeatureNames(), p.power);
    if (!output.empty()) text += "Predictor written to " + output + " (use it with --predictor)\n";
    return text;
}

} // namespace

int runLearn(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    Options o;
    while (args.more()) {
        if (!args.nextIsOption()) {
            takeModelArgument(args, "learn", o.model);
            continue;
        }
        const std::string option = args.takeOption();
        if (option == "--batch" || option == "--precision")
            throw InputError("learn: batch sizes and precisions come from the runs file, not " + option);
        if (takeAnalysisOption(option, args, o.settings)) continue;
        if (option == "--device") {
            o.deviceId = args.takeValue(option);
        } else if (option == "--runs") {
            o.runs = args.takeValue(option);
        } else if (option == "--reference-model") {
            o.referenceModel = args.takeValue(option);
        } else if (option == "--reference-runs") {
            o.referenceRuns = args.takeValue(option);
        } else if (isRuntimeOption(option)) {
            takeRuntimeOption(option, args.takeValue(option), o.runtime);
        } else if (option == "-o" || option == "--output") {
            o.output = args.takeValue(option);
            if (o.output.empty() || o.output == "-") throw InputError(option + " needs a file name");
        } else if (option == "-h" || option == "--help") {
            printHelp();
            return ExitOk;
        } else {
            throw InputError("learn: unknown option '" + option + "'");
        }
    }
    if (o.model.empty())
        throw InputError("learn needs a model: rooftop learn MODEL.onnx --device ID --runs FILE");
    if (o.deviceId.empty()) throw InputError("learn needs a board: --device ID (rooftop devices lists them)");
    if (o.runs.empty())
        throw InputError("learn needs the profiled runs: --runs FILE (rooftop profile writes it)");
    if (o.referenceModel.empty() != o.referenceRuns.empty())
        throw InputError("learn: --reference-model and --reference-runs go together");
    const DeviceSpec device = resolveDevice(o.deviceId);
    const RuntimeProfile runtime = resolveRuntime(o.runtime);
    std::optional<Predictor> reference;
    if (!o.referenceModel.empty())
        reference = learnFrom(o, device, runtime, o.referenceModel, o.referenceRuns, nullptr);
    const Predictor predictor =
        learnFrom(o, device, runtime, o.model, o.runs, reference ? &*reference : nullptr);
    if (!o.output.empty()) savePredictor(o.output, predictor, o.runs);
    writeOutput("", report(predictor, o.output));
    return ExitOk;
}

} // namespace rooftop::cli
