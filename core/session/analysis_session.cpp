// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/analysis_session.h"

#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/device/power_mode.h"
#include "core/graph/data_type.h"
#include "core/learn/predictor_file.h"
#include "core/platform/cuda_probe.h"
#include "core/platform/detected_catalog.h"
#include "core/roofline/mode_profiles.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

std::vector<int64_t> requestedBatches(const AnalysisRequest& request) {
    if (!request.batches.empty()) return request.batches;
    return {request.settings.dims.batch.value_or(1)};
}

RuntimeProfile resolveRuntime(const RuntimeSelection& selection, const std::string& deviceId) {
    if (selection.file.empty()) return findRuntime(selection.name);
    RuntimeProfile runtime = loadRuntimeFromFile(selection.file, selection.nameGiven ? selection.name : "");
    checkRuntimeBoard(runtime, selection.file, deviceId);
    return runtime;
}

DeviceCatalog loadDeviceCatalog() {
    return DeviceCatalog{loadCatalog(defaultCatalogFolder()), probeCudaDevices()};
}

const Workload& AnalysisResult::workload() const {
    static const Workload none;
    return workloads.empty() ? none : workloads.front().workload;
}

ModeProfile profileForMode(const AnalysisResult& result, const PowerMode& mode) {
    return resolveModeProfiles(result.device, {mode}, result.runtime, result.measured.get()).front();
}

namespace {

Workload countModel(const std::string& path, const AnalysisSettings& settings,
                    const SessionContext& context) {
    if (context.workloads) return *context.workloads->get(path, settings);
    return analyzeModelFile(path, settings);
}

/// The predictor's summaries; a number that is not finite and positive (a predictor file edited into
/// nonsense) is an InputError naming the file and the mode.
std::vector<ModeSummary> checkedPredictions(const AnalysisResult& result, const Workload& workload,
                                            const std::vector<ModeProfile>& profiles) {
    std::vector<ModeSummary> out =
        predictModes(*result.predictor, result.device, workload,
                     predictorPrecision(result.request.settings.precision), profiles);
    for (size_t i = 0; i < out.size(); ++i)
        if (!(std::isfinite(out[i].latencySeconds) && out[i].latencySeconds > 0 &&
              std::isfinite(out[i].averageWatts) && out[i].averageWatts > 0))
            throw InputError(result.request.predictorPath + ": the predictor gives latency " +
                             std::to_string(out[i].latencySeconds) + " s and power " +
                             std::to_string(out[i].averageWatts) + " W in " + profiles[i].mode.name +
                             ": not a usable predictor");
    return out;
}

ModeSummarizer predictorSummarizer(const AnalysisResult& result) {
    if (!result.predictor) return {};
    return {[&result](const BatchWorkload& w, const std::vector<ModeProfile>& profiles) {
                return checkedPredictions(result, w.workload, profiles);
            },
            result.predictor->provenance(), result.predictor->spreadBasis(),
            result.predictor->spreadSummary()};
}

/// Replaces the totals of predictions with the predictor's; flags those outside its profiled ranges.
std::vector<bool> applyPredictor(const AnalysisResult& result, std::vector<ModelPrediction>& predictions) {
    if (predictions.empty()) return {};
    std::vector<ModeProfile> profiles;
    for (const ModelPrediction& p : predictions)
        profiles.push_back(p.profile);
    const Precision precision = predictorPrecision(result.request.settings.precision);
    const std::vector<ModeSummary> learned = checkedPredictions(result, result.workload(), profiles);
    std::vector<bool> outside(predictions.size());
    for (size_t i = 0; i < predictions.size(); ++i) {
        ModelPrediction& p = predictions[i];
        p.latencySeconds = learned[i].latencySeconds;
        p.energyJoules = learned[i].energyJoules;
        p.averageWatts = learned[i].averageWatts;
        p.spread = learned[i].spread;
        p.provenance = result.predictor->provenance();
        outside[i] = result.predictor->extrapolates(p.profile.mode, p.batch, precision);
    }
    return outside;
}

} // namespace

ModelPrediction predictMode(const AnalysisResult& result, const PowerMode& mode) {
    std::vector<ModelPrediction> one{predict(result.workload(), profileForMode(result, mode))};
    if (result.predictor) applyPredictor(result, one);
    return one.front();
}

bool predictorExtrapolates(const AnalysisResult& result, const PowerMode& mode) {
    return result.predictor &&
           result.predictor->extrapolates(mode, result.workloads.empty() ? 1 : result.workloads.front().batch,
                                          predictorPrecision(result.request.settings.precision));
}

WhatIfOutcome weighWhatIf(const AnalysisResult& result, const PowerMode& mode) {
    WhatIfOutcome outcome;
    outcome.prediction = predictMode(result, mode);
    outcome.extrapolated = predictorExtrapolates(result, mode);
    Candidate candidate;
    candidate.profile = outcome.prediction.profile;
    candidate.batch = outcome.prediction.batch;
    candidate.summary.latencySeconds = outcome.prediction.latencySeconds;
    candidate.summary.energyJoules = outcome.prediction.energyJoules;
    candidate.summary.averageWatts = outcome.prediction.averageWatts;
    candidate.summary.spread = outcome.prediction.spread; // the predictor's, or the roofline's
    outcome.spread = candidate.summary.spread;
    const std::vector<Candidate>& weighed = result.recommendation.candidates;
    for (const Candidate& c : weighed) // the batch's footprint, as the advisor reckoned it
        if (c.batch == candidate.batch) {
            candidate.memoryBytes = c.memoryBytes;
            candidate.fitsMemory = c.fitsMemory;
            break;
        }
    const double fastest = weighed.empty() ? candidate.summary.latencySeconds : fastestLatency(weighed);
    outcome.breaches = limitBreaches(candidate, result.request.constraints, fastest);
    if (!weighed.empty()) outcome.savingPercent = savingPercent(candidate, result.recommendation.baseline);
    return outcome;
}

namespace {

void applyPredictor(AnalysisResult& result) {
    result.extrapolated = applyPredictor(result, result.predictions);
    const auto outside = std::count(result.extrapolated.begin(), result.extrapolated.end(), true);
    applyPredictor(result, result.stockPredictions);
    result.predictorBasis = result.predictor->basis();
    if (!result.precisionNote.empty()) result.predictorBasis += "; " + result.precisionNote;
    if (outside > 0)
        result.predictorBasis += "; " + std::to_string(outside) + " of " +
                                 std::to_string(result.predictions.size()) +
                                 " modes outside the profiled ranges (extrapolated)";
}

/// Flags the candidates a predictor places outside the ranges it learned (as the modes' `extrapolated`).
void markExtrapolated(const AnalysisResult& result, Recommendation& recommendation) {
    if (!result.predictor) return;
    const Precision precision = predictorPrecision(result.request.settings.precision);
    const auto mark = [&](Candidate& c) {
        c.extrapolated = result.predictor->extrapolates(c.profile.mode, c.batch, precision);
    };
    for (Candidate& c : recommendation.candidates)
        mark(c);
    mark(recommendation.baseline);
}

/// The advisor over the stock modes and the grid, kept when it beats the answer over the stock modes.
void compareWithGrid(AnalysisResult& result) {
    const AnalysisRequest& request = result.request;
    if (request.modes != "stock" || result.device.grid.size() == 0) return;
    const std::vector<PowerMode> modes = modesFor(result.device, "all");
    const std::vector<ModeProfile> profiles =
        resolveModeProfiles(result.device, modes, result.runtime, result.measured.get());
    Recommendation wider = recommendMode(result.device, result.workloads, profiles, result.baseline,
                                         request.constraints, request.objective, predictorSummarizer(result));
    markExtrapolated(result, wider);
    if (!wider.recommended) return;
    const Candidate& best = wider.candidates[*wider.recommended];
    if (best.profile.mode.stock) return; // a stock mode is already the answer
    const Recommendation& stock = result.recommendation;
    if (stock.recommended && !(objectiveKey(best, request.objective) <
                               objectiveKey(stock.candidates[*stock.recommended], request.objective)))
        return;
    result.gridHint = GridHint{best, wider.savingPercent, wider.nvpmodelBlock};
}

/// The advisor at FP16 and INT8 over the same modes and batches, kept where it beats the request's answer:
/// TensorRT engines on a Jetson are FP16 or INT8, and an FP32 count gives their users another mode.
void comparePrecisions(AnalysisResult& result, const SessionContext& context) {
    const AnalysisRequest& request = result.request;
    const Precision asked = request.settings.precision;
    // a training step is not a TensorRT engine's: no INT8 training, and mixed precision keeps fp32 weights
    if ((asked != Precision::FP32 && asked != Precision::AsModel) || result.runtime.name != "tensorrt" ||
        request.settings.phase == Phase::Training || result.predictor || !result.recommendation.recommended)
        return;
    const Candidate& current = result.recommendation.candidates[*result.recommendation.recommended];
    for (Precision precision : {Precision::FP16, Precision::INT8}) {
        std::vector<BatchWorkload> workloads;
        for (const BatchWorkload& w : result.workloads) {
            AnalysisSettings settings = request.settings;
            settings.precision = precision;
            settings.dims.batch = w.batch;
            workloads.push_back(BatchWorkload{w.batch, countModel(request.modelPath, settings, context)});
        }
        const Recommendation other = recommendMode(result.device, workloads, result.modeProfiles,
                                                   result.baseline, request.constraints, request.objective);
        if (!other.recommended) continue;
        const Candidate& best = other.candidates[*other.recommended];
        const auto key = objectiveKey(best, request.objective),
                   now = objectiveKey(current, request.objective);
        const bool better = key.first < now.first - 0.01 * std::abs(now.first);
        if (better)
            result.precisionHints.push_back(PrecisionHint{precision, best, savingPercent(best, current)});
    }
}

void advise(AnalysisResult& result, const SessionContext& context) {
    const AnalysisRequest& request = result.request;
    try {
        validateConstraints(request.constraints);
        result.recommendation =
            recommendMode(result.device, result.workloads, result.modeProfiles, result.baseline,
                          request.constraints, request.objective, predictorSummarizer(result));
        markExtrapolated(result, result.recommendation);
        if (request.compareWithGrid) compareWithGrid(result);
        if (request.comparePrecisions) comparePrecisions(result, context);
    } catch (const InputError& error) {
        result.advisorError = error.what();
    }
}

} // namespace

AnalysisResult runAnalysis(const AnalysisRequest& asked, const ProgressCallback& progress,
                           const SessionContext& context) {
    auto wanted = [&](const char* stage) { return !progress || progress(stage); };
    AnalysisResult result;
    AnalysisRequest request = asked;
    result.request = request;
    const bool hasModel = !request.modelPath.empty();
    const bool hasDevice = !request.deviceId.empty();

    // The board, runtime and profile first: a bad id is reported before any model is counted.
    if (hasDevice) {
        if (!wanted("Loading the board…")) return result;
        result.device = context.catalog ? findDevice(*context.catalog, request.deviceId)
                                        : resolveDevice(request.deviceId);
        result.runtime = resolveRuntime(request.runtime, result.device.id);
        if (!request.profilePath.empty())
            result.measured =
                std::make_shared<const MeasuredProfile>(loadMeasuredProfile(request.profilePath));
        if (!request.predictorPath.empty()) {
            Predictor predictor = loadPredictor(request.predictorPath);
            checkPredictorFits(predictor, request.predictorPath, result.device.id, request.modelPath);
            checkPredictorRuntime(predictor, request.predictorPath, result.runtime.name);
            checkPredictorDims(predictor, request.predictorPath, request.settings.dims.named);
            checkPredictorWorkload(predictor, request.predictorPath, request.settings.phase,
                                   request.settings.optimizer);
            const SettledPrecision settled = settlePredictorPrecision(predictor, request.settings.precision);
            result.precisionNote = settled.note;
            result.request.settings.precision = request.settings.precision = settled.precision;
            result.predictor = std::make_shared<const Predictor>(std::move(predictor));
        }
    }

    std::vector<PowerMode> modes;
    if (hasDevice) modes = modesFor(result.device, request.modes, request.currentStockId);

    if (hasModel) {
        if (!wanted("Counting layers…")) return result;
        if (request.batches.empty()) { // the model's own batch dimension unless settings bind it
            Workload workload = countModel(request.modelPath, request.settings, context);
            // --dim batch=4 without --batch: the batch is 4 in every answer, as in the counts
            if (!request.settings.dims.batch)
                result.request.settings.dims.batch = workload.settings.dims.batch;
            const int64_t batch = workload.settings.dims.batch.value_or(1);
            result.workloads.push_back(BatchWorkload{batch, std::move(workload)});
        }
        for (int64_t batch : request.batches) {
            AnalysisSettings settings = request.settings;
            settings.dims.batch = batch;
            result.workloads.push_back(
                BatchWorkload{batch, countModel(request.modelPath, settings, context)});
        }
    }
    if (!hasDevice) return result;

    if (!wanted("Deriving the modes…")) return result;
    result.modeProfiles = resolveModeProfiles(result.device, modes, result.runtime, result.measured.get());
    {
        // the grid's corner with MAXN's clocks is MAXN, as `all` lists it (the same numbers under two names)
        std::vector<PowerMode*> named;
        for (ModeProfile& profile : result.modeProfiles)
            named.push_back(&profile.mode);
        nameStockOperatingPoints(result.device, named);
    }
    result.baseline = profileForMode(result, powerModeFrom(result.device, result.device.fastestStockMode()));
    if (!hasModel) return result;

    if (!wanted("Predicting…")) return result;
    if (request.predictModes) result.predictions = predictEveryMode(result.workload(), result.modeProfiles);
    if (request.predictStock) {
        if (request.modes != "stock") // else the mode set is the stock modes: their profiles are at hand
            result.stockPredictions = predictEveryMode(
                result.workload(), resolveModeProfiles(result.device, stockPowerModes(result.device),
                                                       result.runtime, result.measured.get()));
        else
            result.stockPredictions = request.predictModes
                                          ? result.predictions
                                          : predictEveryMode(result.workload(), result.modeProfiles);
    }
    if (result.predictor) applyPredictor(result);

    if (request.advise) {
        if (!wanted("Advising…")) return result;
        advise(result, context);
    }
    return result;
}

} // namespace rooftop
