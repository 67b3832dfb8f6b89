// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/device/measured_profile.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/prediction.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rooftop::gui {

/// Which modes the advisor chooses among.
enum class ModeSet { Stock, Grid, All };

/// Everything one analysis needs: the model, the board and the question asked of the advisor.
struct AnalysisRequest {
    std::string modelPath;
    std::string deviceId;
    AnalysisSettings settings;
    std::string runtimeName = "tensorrt";
    std::string profilePath; ///< measured profile (rooftop bench), empty for derived ceilings
    ModeSet modeSet = ModeSet::Stock;
    Constraints constraints;
    Objective objective = Objective::Energy;
};

/// What the window shows: counts, the board's stock modes predicted per layer, and the advisor's answer.
struct AnalysisResult {
    AnalysisRequest request;
    Workload workload;
    DeviceSpec device;
    RuntimeProfile runtime;
    std::shared_ptr<const MeasuredProfile> measured;  ///< the request's profile, read once; null without one
    std::vector<ModelPrediction> stockPredictions; ///< one per stock mode, nvpmodel id order
    Recommendation recommendation;                 ///< over request.modeSet
    std::string advisorError;                      ///< why there is no recommendation (malformed limit), or empty
};

/// Reports a stage ("Counting…") and whether the caller still wants the result; false stops the work early.
using ProgressCallback = std::function<bool(const std::string& stage)>;

/// Runs the whole analysis (no Qt): count, derive or load ceilings, predict stock modes, advise.
/// Throws InputError/UnavailableError; returns early (result incomplete) when progress() returns false.
AnalysisResult runAnalysis(const AnalysisRequest& request, const ProgressCallback& progress = {});

/// The profile of one mode on the result's board and runtime (measured when the loaded profile has it); no I/O.
ModeProfile profileForMode(const AnalysisResult& result, const PowerMode& mode);

/// The power modes of a mode set.
std::vector<PowerMode> powerModesOf(const DeviceSpec& device, ModeSet modeSet);

} // namespace rooftop::gui
