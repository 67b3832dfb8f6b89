// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/llm/llm_session.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/device/runtime_profile.h"
#include "core/learn/predictor.h"
#include "core/learn/predictor_file.h"
#include "core/llm/mode_sweep.h"
#include "core/report/recommendation_writers.h"
#include "core/session/analysis_session.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace rooftop {
namespace {

constexpr int timeSamples = 9; // decode steps whose times are predicted per mode; the rest lie between

void checkRequest(const LlmRequest& request, const LlmSignature& signature) {
    const std::string& model = request.modelPath;
    if (request.prompt < 1) throw InputError("llm: --prompt must be at least 1 token");
    if (request.generate < 1) throw InputError("llm: --generate must be at least 1 token");
    if (request.batch < 1) throw InputError("llm: --batch must be at least 1");
    const int64_t generation = request.prompt + request.generate;
    const int64_t context =
        request.contexts.empty() ? 0 : *std::max_element(request.contexts.begin(), request.contexts.end());
    const int64_t largest = std::max({generation, context, request.sweepTo});
    // the option that asks for the largest context is the one to shorten
    checkContextFits(signature, largest, model,
                     largest == request.sweepTo && request.sweepTo > std::max(generation, context)
                         ? "end --context-sweep lower"
                     : largest == context && context > generation ? "shorten --context"
                                                                  : "shorten --prompt or --generate");
    for (int64_t c : request.contexts)
        if (c < 1)
            throw InputError(
                "llm: --context must be at least 1 (a decode step at context c reads c - 1 cached tokens)");
    if (request.sweepFrom != 0 || request.sweepTo != 0) {
        if (request.sweepFrom < 1 || request.sweepTo <= request.sweepFrom)
            throw InputError("llm: --context-sweep FROM:TO needs 1 <= FROM < TO");
        if (request.sweepPoints < 2) throw InputError("llm: a context sweep needs at least 2 points");
    }
}

// Time-weighted: the bound that holds for most of the pass's time.
Bound dominantBound(const ModelPrediction& prediction) {
    // a kernel held at its minimum time waits for launch and drain, not for DRAM or the ALUs; the fixed cost
    // per pass is host work: both are overhead
    std::map<Bound, double> seconds;
    for (const LayerPrediction& layer : prediction.layers)
        seconds[layer.floorBound ? Bound::Overhead : layer.bound] += layer.seconds;
    seconds[Bound::Overhead] += prediction.fixedSeconds;
    Bound best = Bound::Memory;
    double most = -1.0;
    for (const auto& [bound, s] : seconds)
        if (s > most) {
            most = s;
            best = bound;
        }
    return best;
}

// Log-spaced whole contexts from..to, duplicates dropped.
std::vector<int64_t> sweepContextsOf(int64_t from, int64_t to, int points) {
    std::vector<int64_t> contexts;
    const double ratio = std::log(double(to) / double(from));
    for (int i = 0; i < points; ++i) {
        const int64_t c =
            i == points - 1 ? to : std::llround(double(from) * std::exp(ratio * i / (points - 1)));
        if (contexts.empty() || c > contexts.back()) contexts.push_back(c);
    }
    return contexts;
}

// A runtimes file of `rooftop calibrate --llama-bench` holds NAME-prefill and NAME-decode: each phase its
// own.
struct PhaseRuntimes {
    RuntimeSelection prefill;
    RuntimeSelection decode;
};

PhaseRuntimes phaseRuntimes(const RuntimeSelection& selection) {
    if (selection.file.empty() || selection.nameGiven) return {selection, selection};
    const std::vector<RuntimeProfile> runtimes = loadRuntimeFile(selection.file);
    const auto endsWith = [](const std::string& text, const std::string& tail) {
        return text.size() > tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
    };
    for (const RuntimeProfile& prefill : runtimes) {
        if (!endsWith(prefill.name, "-prefill")) continue;
        const std::string base = prefill.name.substr(0, prefill.name.size() - 8);
        for (const RuntimeProfile& decode : runtimes)
            if (decode.name == base + "-decode")
                return {{prefill.name, true, selection.file}, {decode.name, true, selection.file}};
    }
    return {selection, selection};
}

// The precision a runtime file's calibration counted its runs at: that of the runtimes the answer uses (a
// phase pair's, whose phases say the same), or of the file's first that says; none for the built-in runtimes.
std::optional<Precision> calibratedPrecision(const RuntimeSelection& selection) {
    if (selection.file.empty()) return std::nullopt;
    const PhaseRuntimes used = phaseRuntimes(selection); // the pair (or the one runtime) the answer uses
    for (const RuntimeProfile& runtime : loadRuntimeFile(selection.file)) {
        if (runtime.calibratedPrecision.empty()) continue;
        if ((used.decode.nameGiven || used.prefill.nameGiven) && runtime.name != used.decode.name &&
            runtime.name != used.prefill.name)
            continue;
        return parsePrecision(runtime.calibratedPrecision); // the runtime file's reader checked the name
    }
    return std::nullopt;
}

/// Each mode's numbers of a decode step: the roofline's, or a learned predictor's.
using StepSummaries =
    std::function<std::vector<ModeSummary>(const Workload&, const std::vector<ModeProfile>&)>;

void predictModes(LlmResult& result, const std::vector<ModeProfile>& prefillProfiles,
                  const std::vector<ModeProfile>& profiles, const LlmCounter& counter,
                  const StepSummaries& learned, Provenance learnedProvenance) {
    const LlmRequest& request = result.request;
    const auto stepSummaries = [&](const Workload& step) {
        return learned ? learned(step, profiles) : sweepCompact(compactForSweep(step), profiles);
    };
    const int64_t first = result.generation.firstContext;
    const int64_t last = result.generation.lastContext;
    const std::vector<int64_t> contexts = sampleContexts(first, last, timeSamples);
    std::vector<std::vector<ModeSummary>> steps; // [sample][mode]
    for (int64_t c : contexts)
        steps.push_back(stepSummaries(decodeStepAt(counter, result.generation, request.batch, c).workload));
    const CompactWorkload prefillCompact = compactForSweep(result.prefill.workload);
    const std::vector<ModeSummary> prefill = sweepCompact(prefillCompact, prefillProfiles);
    const CompactWorkload middle = compactForSweep(
        decodeStepAt(counter, result.generation, request.batch, contexts[contexts.size() / 2]).workload);

    std::vector<std::vector<ModeSummary>> sweep;
    if (!result.sweepContexts.empty()) {
        const DecodeSeries range = countDecodeSeries(counter, request.batch, result.sweepContexts.front(),
                                                     result.sweepContexts.back());
        for (int64_t c : result.sweepContexts)
            sweep.push_back(stepSummaries(decodeStepAt(counter, range, request.batch, c).workload));
    }

    const double steps_ = double(result.generation.steps());
    const double batch = double(request.batch);
    const LayerPredictor predictPrefill(prefillCompact.workload);
    const LayerPredictor predictDecode(middle.workload);
    for (size_t m = 0; m < profiles.size(); ++m) {
        LlmModeAnswer answer;
        answer.profile = profiles[m];
        std::vector<double> times, joules;
        for (const auto& sample : steps) {
            times.push_back(sample[m].latencySeconds);
            joules.push_back(sample[m].energyJoules);
        }
        const double decodeSeconds = sumOverSteps(contexts, times);
        const double decodeJoules = sumOverSteps(contexts, joules);
        answer.ttftSeconds = prefill[m].latencySeconds;
        answer.prefillWatts = prefill[m].averageWatts;
        answer.tpotSeconds = decodeSeconds / steps_;
        answer.tpotFirstSeconds = times.front();
        answer.tpotLastSeconds = times.back();
        answer.prefillTokensPerSecond =
            answer.ttftSeconds > 0 ? batch * double(request.prompt) / answer.ttftSeconds : 0.0;
        answer.decodeTokensPerSecond = answer.tpotSeconds > 0 ? batch / answer.tpotSeconds : 0.0;
        answer.energyPerTokenJoules = decodeJoules / (steps_ * batch);
        answer.tokensPerJoule = decodeJoules > 0 ? steps_ * batch / decodeJoules : 0.0;
        answer.decodeWatts = decodeSeconds > 0 ? decodeJoules / decodeSeconds : 0.0;
        answer.endToEndSeconds = answer.ttftSeconds + decodeSeconds;
        answer.endToEndJoules = prefill[m].energyJoules + decodeJoules;
        answer.decodeSpread = result.spread;
        if (learned) // the predictor's spread in this mode, where it exceeds its cross-validated one
            for (const auto& sample : steps) {
                answer.decodeSpread.latency = std::max(answer.decodeSpread.latency, sample[m].spread.latency);
                answer.decodeSpread.power = std::max(answer.decodeSpread.power, sample[m].spread.power);
                answer.decodeSpread.energy = std::max(answer.decodeSpread.energy, sample[m].spread.energy);
            }
        // Bounds from the merged layers: a merged group keeps its members' ratio, so its bound.
        const ModelPrediction prefillPrediction = predictPrefill(prefillProfiles[m]);
        const ModelPrediction decodePrediction = predictDecode(profiles[m]);
        answer.prefillBound = dominantBound(prefillPrediction);
        answer.decodeBound = dominantBound(decodePrediction);
        answer.prefillProvenance = prefillPrediction.provenance;
        answer.decodeProvenance = learned ? learnedProvenance : decodePrediction.provenance;
        answer.provenance = weakerProvenance(answer.prefillProvenance, answer.decodeProvenance);
        for (const auto& point : sweep)
            answer.sweepTpotSeconds.push_back(point[m].latencySeconds);
        result.modes.push_back(std::move(answer));
    }
}

} // namespace

AnalysisSettings llmDefaultSettings() {
    AnalysisSettings settings;
    settings.traffic = TrafficView::Fused;
    return settings;
}

std::string llmProvenanceText(const LlmModeAnswer& answer) {
    const std::string outside = answer.extrapolated ? " (extrapolated)" : "";
    if (answer.prefillProvenance == answer.decodeProvenance)
        return provenanceName(answer.provenance) + outside;
    return std::string("TPOT ") + provenanceName(answer.decodeProvenance) + outside + ", TTFT " +
           provenanceName(answer.prefillProvenance);
}

const char* passBoundName(Bound bound) {
    return bound == Bound::Memory ? "bandwidth" : boundName(bound);
}

LlmResult runLlmAnalysis(const LlmRequest& asked) {
    LlmResult result;
    std::optional<Predictor> predictor;
    LlmRequest request = asked;
    if (!request.predictorPath.empty() && !request.deviceId.empty()) {
        predictor = loadPredictor(request.predictorPath);
        checkPredictorFits(*predictor, request.predictorPath, request.deviceId, request.modelPath);
        checkPredictorWorkload(*predictor, request.predictorPath, Phase::Inference, Optimizer::Adam, true);
        const SettledPrecision settled = settlePredictorPrecision(*predictor, request.settings.precision);
        request.settings.precision = settled.precision;
        if (!settled.note.empty()) result.assumptions.push_back(settled.note);
    }
    // A calibrated runtime's efficiencies were fitted at its runs' precision: as-model counts at it too.
    if (!predictor)
        if (const std::optional<Precision> ran = calibratedPrecision(request.runtime)) {
            if (request.settings.precision == Precision::AsModel) {
                request.settings.precision = *ran;
                result.assumptions.push_back("precision " + precisionName(*ran) +
                                             ", as the calibration's runs ran (as-model would count the "
                                             "model's own types, which did not run)");
            } else if (request.settings.precision != *ran) {
                result.assumptions.push_back("precision " + precisionName(request.settings.precision) +
                                             " lies outside the calibration's runs (" + precisionName(*ran) +
                                             "): its fitted efficiencies are carried over to it");
            }
        }
    result.request = request;
    const LlmCounter counter(request.modelPath, request.settings);
    result.signature = counter.signature();
    checkRequest(request, result.signature);

    result.prefill = counter.count({request.batch, request.prompt, 0});
    result.generation =
        countDecodeSeries(counter, request.batch, request.prompt + 1, request.prompt + request.generate);
    std::vector<int64_t> reported = request.contexts;
    if (reported.empty()) {
        reported.push_back(result.generation.firstContext);
        if (result.generation.lastContext != result.generation.firstContext)
            reported.push_back(result.generation.lastContext);
    }
    for (int64_t c : reported)
        result.decodeSteps.push_back(decodeStepAt(counter, result.generation, request.batch, c));
    if (request.sweepTo > 0)
        result.sweepContexts = sweepContextsOf(request.sweepFrom, request.sweepTo, request.sweepPoints);

    std::set<std::string> assumed(result.prefill.workload.info.assumedDims.begin(),
                                  result.prefill.workload.info.assumedDims.end());
    for (const std::string& dim : assumed)
        result.assumptions.push_back("dim " + dim + " (no --dim gave it; assumed)");
    if (!result.generation.affine)
        result.assumptions.push_back(
            "a decode step's counts are not affine in the context here (a sliding window "
            "or a fixed buffer): the generation is summed from " +
            std::to_string(result.generation.points.size()) + " counted steps");

    // The generation's and the reported steps' cache; the sweep is a what-if across contexts.
    const int64_t largestContext = std::max<int64_t>(request.prompt + request.generate,
                                                     *std::max_element(reported.begin(), reported.end()));
    const auto reserveGiB = [&](const DeviceSpec& device) {
        return request.reserveGiB.value_or(memoryReserveGiB(device));
    };
    const auto sizeMemory = [&](const DeviceSpec& device) {
        result.memory = llmMemory(counter.weightBytes(), counter.kvBytesPerToken(),
                                  largestActivationBytes(result.prefill.workload.layers), request.batch,
                                  largestContext, device, reserveGiB(device), result.signature.maxPositions);
    };
    sizeMemory(DeviceSpec{});
    if (request.deviceId.empty()) return result;

    AnalysisRequest boardRequest;
    boardRequest.deviceId = request.deviceId;
    boardRequest.profilePath = request.profilePath;
    boardRequest.modes = request.modes;
    boardRequest.currentStockId = request.currentStockId;
    boardRequest.settings.precision = request.settings.precision;
    const PhaseRuntimes runtimes = phaseRuntimes(request.runtime);
    boardRequest.runtime = runtimes.decode;
    const AnalysisResult board = runAnalysis(boardRequest);
    if (request.reserveGiB && *request.reserveGiB >= board.device.memoryGiB)
        throw InputError("--reserve-gib " + general(*request.reserveGiB, 4) + " leaves nothing of " +
                         board.device.id + "'s " + general(board.device.memoryGiB, 4) + " GiB");
    // The board's modes are derived again only when prefill has a runtime of its own.
    std::optional<AnalysisResult> prefillBoard;
    if (runtimes.prefill.name != runtimes.decode.name) {
        boardRequest.runtime = runtimes.prefill;
        prefillBoard = runAnalysis(boardRequest);
    }
    result.device = board.device;
    result.runtime = board.runtime;
    result.prefillRuntime = prefillBoard ? prefillBoard->runtime : board.runtime;
    if (predictor) checkPredictorRuntime(*predictor, request.predictorPath, result.runtime.name); // decode's
    sizeMemory(result.device);
    result.assumptions.push_back(
        "memory: " + fixed(reserveGiB(result.device), 1) + " GiB left to " + memoryReserveFor(result.device) +
        (request.reserveGiB ? " (--reserve-gib, an estimate)" : " (an estimate; --reserve-gib)"));
    // The prefill at the prior's error on whole passes, the decode steps at its error on decode steps.
    result.spread = priorDecodeSpread();
    result.spreadBasis = "decode: " + priorDecodeSpreadBasis() + "; prefill: " + priorSpreadBasis();
    result.ttftSpread = priorSpread().latency;
    result.prefillPowerSpread = priorSpread().power;
    std::string prefillBasis = priorSpreadBasis();
    if (result.runtime.latencySpread > 0 && result.prefillRuntime.latencySpread > 0) {
        // Calibrated phases: their own error for time; power its fit's held-out error when generations
        // measured it, else the prior's.
        result.spread.latency = std::max(result.runtime.latencySpread, result.prefillRuntime.latencySpread);
        result.ttftSpread = result.spread.latency;
        const std::optional<RuntimePowerFit>& power = result.runtime.power;
        const bool powerChecked = power && power->spread > 0;
        result.spread.power = powerChecked ? power->spread : priorDecodeSpread().power;
        result.prefillPowerSpread = result.spread.power;
        result.spread.energy = std::sqrt(result.spread.latency * result.spread.latency +
                                         result.spread.power * result.spread.power);
        result.spreadBasis =
            "time: " + result.runtime.name + ", " + result.runtime.latencySpreadBasis + "; " +
            result.prefillRuntime.name + ", " + result.prefillRuntime.latencySpreadBasis + "; power: " +
            (powerChecked
                 ? fixed(100 * power->spread, 0) + " %, " + power->spreadBasis
                 : fixed(100 * priorDecodeSpread().power, 0) + " %, the prior's own error on decode steps") +
            "; energy both together";
        prefillBasis = result.spreadBasis;
    }
    result.predictionBasis = "decode: " + rooflinePredictionBasis(result.runtime) +
                             "; prefill: " + rooflinePredictionBasis(result.prefillRuntime);
    StepSummaries learned;
    if (predictor) {
        const Precision precision = predictorPrecision(request.settings.precision); // settled above
        const DeviceSpec device = result.device;
        learned = [&predictor, device, precision](const Workload& step,
                                                  const std::vector<ModeProfile>& profiles) {
            return rooftop::predictModes(*predictor, device, step, precision, profiles);
        };
        if (predictor->llmPrompt != request.prompt || predictor->llmGenerate != request.generate)
            result.assumptions.push_back("the predictor learned generations of " +
                                         std::to_string(predictor->llmPrompt) + " + " +
                                         std::to_string(predictor->llmGenerate) +
                                         " tokens; its decode steps at other contexts are its "
                                         "features' extrapolation");
        if (request.batch < predictor->range.minBatch || request.batch > predictor->range.maxBatch)
            result.assumptions.push_back(
                "the predictor learned batch " + std::to_string(predictor->range.minBatch) +
                (predictor->range.maxBatch != predictor->range.minBatch
                     ? "-" + std::to_string(predictor->range.maxBatch)
                     : std::string()) +
                "; batch " + std::to_string(request.batch) + " is its extrapolation");
        result.spread = predictor->trueValueSpread(); // the prefill keeps the roofline's error
        // its error says nothing of a batch or a context its runs never ran: 10 % more a doubling beyond them
        const int64_t learnedFirst = predictor->llmPrompt + 1,
                      learnedLast = predictor->llmPrompt + predictor->llmGenerate;
        const double contextBeyond =
            std::max(spreadBeyondBatches(learnedFirst, learnedLast, request.prompt + 1),
                     spreadBeyondBatches(learnedFirst, learnedLast, request.prompt + request.generate));
        const PredictionSpread beyond = predictor->spreadBeyondRuns(request.batch, contextBeyond);
        result.spread = result.spread + beyond;
        result.extrapolated = beyond.latency > 0;
        result.spreadBasis =
            "decode: " + predictor->spreadBasis(false) +
            (result.extrapolated ? "; widened 10 % a doubling of the batch or the context beyond its runs' "
                                   "(here time " +
                                       fixed(100 * result.spread.latency, 0) + " %, power " +
                                       fixed(100 * result.spread.power, 0) + " %)"
                                 : std::string()) +
            "; prefill: " + prefillBasis;
        result.predictionBasis =
            "decode: " + predictor->basis() + "; prefill: " + rooflinePredictionBasis(result.prefillRuntime);
        result.assumptions.push_back("decode steps: " + predictor->basis() +
                                     "; the prefill stays the roofline's (" + result.prefillRuntime.name +
                                     ")");
    }
    predictModes(result, prefillBoard ? prefillBoard->modeProfiles : board.modeProfiles, board.modeProfiles,
                 counter, learned, predictor ? predictor->provenance() : Provenance::Estimate);
    if (predictor) {
        const Precision precision = predictorPrecision(request.settings.precision);
        size_t outside = 0;
        for (LlmModeAnswer& answer : result.modes) {
            answer.extrapolated = predictor->extrapolates(answer.profile.mode, request.batch, precision);
            outside += answer.extrapolated ? 1 : 0;
        }
        if (outside > 0)
            result.assumptions.push_back(
                std::to_string(outside) + " of " + std::to_string(result.modes.size()) +
                " modes lie outside the ranges the predictor learned (" + predictor->range.describe() +
                "): their decode numbers are its extrapolation, their bounds its spread there");
    }
    return result;
}

} // namespace rooftop
