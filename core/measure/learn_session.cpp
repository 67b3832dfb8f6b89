// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/learn_session.h"

#include "core/common/errors.h"
#include "core/device/power_mode.h"
#include "core/device/power_plausibility.h"
#include "core/graph/data_type.h"
#include "core/learn/learn_points.h"
#include "core/learn/predictor_file.h"
#include "core/measure/llm_runs.h"
#include "core/measure/runs_file.h"
#include "core/onnx/dim_text.h"
#include "core/session/analysis_session.h"
#include "core/session/workload_cache.h"

#include <QFileInfo>
#include <memory>
#include <optional>

namespace rooftop {

namespace {

/// The ok runs of the workload (phase and, for training, optimizer) of a runs file, as the learner's measured
/// runs; one line for a file without any. Notes the runs left out that are not failures.
std::vector<MeasuredRun> measuredRuns(const DeviceSpec& device, const std::string& path,
                                      const std::string& model, const std::map<std::string, int64_t>& dims,
                                      Phase phase, Optimizer optimizer, const LlmRun& llm,
                                      std::vector<std::string>& notes) {
    const std::vector<RunRow> all = readGivenRunsFile(path, &notes);
    if (all.empty()) throw InputError(path + ": no runs (rooftop profile writes them)");
    checkRunsAreOf(all, path, runsModelKey(model));
    checkRunsAreOfBoard(path, device);
    std::vector<std::string> otherDims;
    const std::vector<RunRow> rows = runsOfWorkload(all, dims, &otherDims);
    if (rows.empty())
        throw InputError(path + ": no runs at " + describeNamedDims(dims) + "; " + otherDims.front() +
                         "; give the dims they were run at with --dim");
    for (const std::string& note : otherDims)
        notes.push_back(path + ": " + note);
    std::vector<MeasuredRun> runs;
    int failed = 0, otherPhase = 0, generations = 0, otherGenerations = 0;
    std::map<Optimizer, int> otherOptimizer;
    for (const RunRow& row : rows) {
        if (isLlmRun(row) != llm.active()) { // a generation's latency is its prefill and decode steps
            ++(llm.active() ? otherPhase : generations);
            continue;
        }
        if (llm.active() && row.llm != llm) {
            ++otherGenerations;
            continue;
        }
        if (!row.ok() || !row.latencyMs) {
            ++failed;
            continue;
        }
        if (row.phase != phase) {
            ++otherPhase;
            continue;
        }
        if (phase == Phase::Training && row.optimizer != optimizer) {
            ++otherOptimizer[row.optimizer];
            continue;
        }
        MeasuredRun run;
        try {
            run.mode = resolvePowerMode(device, row.mode);
        } catch (const InputError& error) {
            throw InputError(path + ":" + std::to_string(row.line) + ": " + error.what());
        }
        run.batch = row.batch;
        run.precision = row.precision;
        run.latencySeconds = (llm.active() ? row.tpotMs.value_or(0.0) : *row.latencyMs) * 1e-3;
        if (!(run.latencySeconds > 0)) {
            ++failed;
            continue;
        }
        if (row.powerW) {
            if (const std::string why = implausiblePower(device, *row.powerW); !why.empty())
                throw InputError(path + ":" + std::to_string(row.line) + ": " + why);
            run.watts = *row.powerW;
        }
        run.runner = row.runner;
        runs.push_back(run);
    }
    const std::string wanted = phaseName(phase);
    const std::string other = phaseName(phase == Phase::Inference ? Phase::Training : Phase::Inference);
    std::string otherUpdates; // "12 are training (sgd): learn them with --optimizer sgd"
    for (const auto& [update, count] : otherOptimizer)
        otherUpdates += (otherUpdates.empty() ? "" : "; ") + std::to_string(count) + " are " +
                        workloadText(phase, update) + ": learn them with --optimizer " +
                        optimizerName(update);
    if (runs.empty() && !otherUpdates.empty())
        throw InputError(path + ": no ok " + workloadText(phase, optimizer) + " run to learn from (" +
                         otherUpdates + ")");
    if (!otherUpdates.empty()) notes.push_back(path + ": ok runs of another update skipped: " + otherUpdates);
    if (generations > 0)
        notes.push_back(path + ": " + std::to_string(generations) +
                        " LLM generation run(s) skipped: rooftop calibrate --llm --runs fits their phases");
    if (otherGenerations > 0)
        notes.push_back(path + ": " + std::to_string(otherGenerations) +
                        " LLM run(s) of another prompt or generation "
                        "skipped (this learns " +
                        std::to_string(llm.prompt) + " + " + std::to_string(llm.generate) + ")");
    if (llm.active() && runs.empty())
        throw InputError(path + ": no ok LLM run of a prompt of " + std::to_string(llm.prompt) + " and " +
                         std::to_string(llm.generate) +
                         " generated tokens (rooftop profile --llm writes them)");
    if (runs.empty() && generations > 0)
        throw InputError(path + ": only LLM generation runs (" + std::to_string(generations) +
                         "): rooftop learn MODEL --llm --prompt P --generate G --runs " + path +
                         " learns their decode, rooftop calibrate MODEL --llm --runs " + path +
                         " fits their prefill and decode");
    if (runs.empty())
        throw InputError(path + ": no ok " + wanted + " run to learn from (" + std::to_string(failed) +
                         " of " + std::to_string(rows.size()) + " runs failed, " +
                         std::to_string(otherPhase) + " are " + other +
                         (otherPhase > 0 ? ": learn them with --phase " + other : std::string()) + ")");
    if (otherPhase > 0)
        notes.push_back(path + ": " + std::to_string(otherPhase) + " ok " + other +
                        " runs skipped: this learns " + wanted + " (--phase " + other + " learns them)");
    if (failed > 0) notes.push_back(path + ": " + std::to_string(failed) + " failed runs skipped");
    return runs;
}

Predictor learnFrom(const LearnRequest& request, const DeviceSpec& device, const RuntimeProfile& runtime,
                    const std::string& model, const std::string& runsPath, const Predictor* reference,
                    WorkloadCache& cache, std::vector<std::string>& notes) {
    std::vector<std::shared_ptr<const Workload>> held; // the points may refer to any of them until built
    auto tell = [&](const std::string& stage) {
        if (request.progress) request.progress(runsPath + ": " + stage);
    };
    tell("reading the runs");
    std::vector<MeasuredRun> runs =
        measuredRuns(device, runsPath, model, request.settings.dims.named, request.settings.phase,
                     request.settings.optimizer, request.llm, notes);
    tell("features of " + std::to_string(runs.size()) + " runs");
    LlmStepCounter steps(model, request.settings.dims.named, request.llm);
    const std::vector<LearnPoint> points =
        learnPoints(device, runtime, runs, [&](int64_t batch, Precision precision) -> const Workload& {
            if (request.llm.active()) return steps.meanStep(batch, precision);
            AnalysisSettings settings = request.settings;
            settings.dims.batch = batch;
            settings.precision = precision;
            held.push_back(cache.get(model, settings));
            return *held.back();
        });
    Predictor p;
    try {
        LearnOptions options;
        options.progress = tell;
        options.phase = request.settings.phase;
        options.llmPrompt = request.llm.prompt;
        options.llmGenerate = request.llm.generate;
        p = learnPredictor(points, reference, options);
    } catch (const InputError& error) {
        throw InputError(runsPath + ": " + error.what());
    }
    p.board = device.id;
    p.runtime = runtime.name;
    p.model = QFileInfo(QString::fromStdString(model)).fileName().toStdString();
    p.modelHash = modelFileHash(model);
    p.dims = namedDimsText(request.settings.dims.named);
    p.optimizer = request.settings.optimizer;
    if (!p.powerLearned)
        notes.push_back(runsPath + ": power not learned: " + std::to_string(p.powerRuns) + " of " +
                        std::to_string(p.runs) + " runs measured power (" + std::to_string(minimumLearnRuns) +
                        " needed); power stays Rooftop's estimate");
    return p;
}

} // namespace

LearnOutcome runLearning(const LearnRequest& request) {
    if (request.referenceModelPath.empty() != request.referenceRunsPath.empty())
        throw InputError("learn: --reference-model and --reference-runs go together");
    const DeviceSpec device = resolveDevice(request.deviceId);
    const RuntimeProfile runtime = resolveRuntime(request.runtime, device.id);
    WorkloadCache cache; // the reference and the model, each counted once per batch and precision
    LearnOutcome outcome;
    if (!request.referenceDeviceId.empty() && request.referenceModelPath.empty())
        throw InputError(
            "learn: --reference-device names the board of --reference-model's runs: give them too");
    std::optional<Predictor> reference;
    if (!request.referenceModelPath.empty()) {
        const DeviceSpec referenceDevice =
            request.referenceDeviceId.empty() ? device : resolveDevice(request.referenceDeviceId);
        reference = learnFrom(request, referenceDevice, runtime, request.referenceModelPath,
                              request.referenceRunsPath, nullptr, cache, outcome.notes);
    }
    outcome.predictor = learnFrom(request, device, runtime, request.modelPath, request.runsPath,
                                  reference ? &*reference : nullptr, cache, outcome.notes);
    return outcome;
}

} // namespace rooftop
