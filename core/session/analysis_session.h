// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/device/device_spec.h"
#include "core/device/measured_profile.h"
#include "core/device/runtime_profile.h"
#include "core/learn/predictor.h"
#include "core/platform/detected_catalog.h" // resolveDevice
#include "core/roofline/prediction.h"
#include "core/session/analysis_request.h"
#include "core/session/workload_cache.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// The advisor's answer over the stock modes and the custom grid, when it beats the answer over the stock
/// modes alone (AnalysisRequest::compareWithGrid).
struct GridHint {
    Candidate best;             ///< the grid's answer (a custom mode)
    double savingPercent = 0.0; ///< its energy per inference saved against the baseline
    std::string nvpmodelBlock;  ///< what to run to apply it
};

/// The advisor's answer at another precision than the request's (AnalysisRequest::comparePrecisions).
struct PrecisionHint {
    Precision precision = Precision::FP16; ///< the other precision: FP16 or INT8
    Candidate best;             ///< the answer at that precision, over the request's modes and batches
    double savingPercent = 0.0; ///< its energy per inference saved against the request's answer
};

/// What the pipeline found for one request; the parts the request did not ask for stay empty.
struct AnalysisResult {
    AnalysisRequest request; ///< what was asked, its precision settled against the predictor's runs
    std::vector<BatchWorkload> workloads; ///< the model at every requested batch size, first one first
    DeviceSpec device;                    ///< the request's board; empty when it named none
    RuntimeProfile runtime;               ///< the request's runtime for that board
    std::shared_ptr<const MeasuredProfile> measured; ///< the request's profile, read once; null without one
    std::vector<ModeProfile> modeProfiles;           ///< one per mode of request.modes
    std::vector<ModelPrediction> predictions;        ///< one per modeProfiles entry, at the first batch size
    std::vector<ModelPrediction> stockPredictions;   ///< one per stock mode, nvpmodel id order (predictStock)
    ModeProfile baseline;                            ///< the board's fastest stock mode
    Recommendation recommendation;                   ///< over modeProfiles x workloads (advise)
    std::string advisorError;                        ///< why there is no recommendation (a malformed limit)
    std::optional<GridHint>
        gridHint; ///< compareWithGrid: the grid's better answer; empty when it is not better
    /// comparePrecisions: the answers at FP16 and INT8 that beat the request's on its objective by 1 % or
    /// more, FP16 first
    std::vector<PrecisionHint> precisionHints;
    std::shared_ptr<const Predictor> predictor; ///< the request's predictor; null without one
    /// With a predictor: where latency, energy and power come from ("learned from N runs of MODEL (CV ...)"),
    /// and how many predicted modes lie outside its profiled ranges.
    std::string predictorBasis;
    /// What the answer says of the precision against the predictor's runs (settled to theirs for as-model, or
    /// an extrapolation); empty when the precision is one they ran.
    std::string precisionNote;
    std::vector<bool> extrapolated; ///< with a predictor: per predictions entry, outside the profiled ranges

    /// The model at the first batch size (an empty workload when the request had no model).
    const Workload& workload() const;
};

/// Reports a stage ("Counting…") and whether the caller still wants the result; false stops the work early.
using ProgressCallback = std::function<bool(const std::string& stage)>;

/// Services a long-lived caller may lend the pipeline; all optional.
struct SessionContext {
    WorkloadCache* workloads = nullptr;               ///< reuse counted models across requests (the GUI)
    const std::vector<DeviceSpec>* catalog = nullptr; ///< an already loaded catalog; null: load it
};

/// Runs the one analysis pipeline: count the model at each batch size, resolve board, runtime, measured
/// profile and mode set, derive or load each mode's profile, predict, advise. Throws InputError /
/// UnavailableError for the request's inputs; advisor failures land in advisorError. Returns early
/// (incomplete) when progress() says stop.
AnalysisResult runAnalysis(const AnalysisRequest& request, const ProgressCallback& progress = {},
                           const SessionContext& context = {});

/// The profile of one mode on the result's board and runtime (measured when the loaded profile has it); no
/// I/O.
ModeProfile profileForMode(const AnalysisResult& result, const PowerMode& mode);

/// The result's model in one mode: the roofline's prediction, with the predictor's totals (provenance
/// predicted) when the result has a predictor; no I/O.
ModelPrediction predictMode(const AnalysisResult& result, const PowerMode& mode);

/// True when the result has a predictor and the mode (at the result's first batch size and precision) lies
/// outside its profiled ranges.
bool predictorExtrapolates(const AnalysisResult& result, const PowerMode& mode);

/// A mode the user tries (the what-if sliders) weighed as the advisor would: its prediction at the first
/// batch size, the limits it breaks and its energy saved against the baseline.
struct WhatIfOutcome {
    ModelPrediction prediction; ///< the mode at the first batch size (predictMode)
    LimitBreaches breaches;     ///< the request's limits it breaks
    /// Energy per inference saved against the baseline; 0 without a recommendation.
    double savingPercent = 0.0;
    bool extrapolated = false; ///< the predictor's numbers lie outside its profiled ranges
    PredictionSpread spread;   ///< how far the prediction may be off (the predictor's or the prior's)
};

/// Weighs a mode against the result's limits and baseline; no I/O.
WhatIfOutcome weighWhatIf(const AnalysisResult& result, const PowerMode& mode);

/// The runtime a selection names for board `deviceId`; throws InputError for an unknown name, a bad file or
/// a runtime calibrated on another board.
RuntimeProfile resolveRuntime(const RuntimeSelection& selection, const std::string& deviceId);

/// The board catalog and the discrete GPUs the CUDA driver reports on this machine.
struct DeviceCatalog {
    std::vector<DeviceSpec> boards;   ///< the catalog's boards (defaultCatalogFolder)
    std::vector<DeviceSpec> detected; ///< ids cuda:0, cuda:1, ...
};

/// Loads the catalog (defaultCatalogFolder) and probes CUDA; throws InputError for a malformed device file.
DeviceCatalog loadDeviceCatalog();

} // namespace rooftop
