// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/analysis_session.h"

#include "core/device/catalog.h"
#include "core/device/measured_profile.h"
#include "core/onnx/input_error.h"


namespace rooftop::gui {

std::vector<PowerMode> powerModesOf(const DeviceSpec& device, ModeSet modeSet) {
    std::vector<PowerMode> modes;
    if (modeSet != ModeSet::Grid) modes = stockPowerModes(device);
    if (modeSet != ModeSet::Stock) {
        const std::vector<PowerMode> grid = gridPowerModes(device);
        modes.insert(modes.end(), grid.begin(), grid.end());
    }
    if (modes.empty()) modes = stockPowerModes(device); // boards without a grid
    return modes;
}

namespace {

std::vector<ModeProfile> profilesFor(const AnalysisResult& result, const std::vector<PowerMode>& modes) {
    return resolveModeProfiles(result.device, modes, result.runtime, result.measured.get());
}

} // namespace

ModeProfile profileForMode(const AnalysisResult& result, const PowerMode& mode) {
    return profilesFor(result, {mode}).front();
}

AnalysisResult runAnalysis(const AnalysisRequest& request, const ProgressCallback& progress) {
    auto wanted = [&](const char* stage) { return !progress || progress(stage); };
    AnalysisResult result;
    result.request = request;
    if (!wanted("Counting layers…")) return result;
    result.workload = analyzeModelFile(request.modelPath, request.settings);

    if (!wanted("Loading the board…")) return result;
    const std::vector<DeviceSpec> catalog = loadCatalogWithDetected(defaultCatalogFolder(), request.deviceId);
    result.device = findDevice(catalog, request.deviceId);
    result.runtime = findRuntime(request.runtimeName);
    if (!request.profilePath.empty())
        result.measured = std::make_shared<const MeasuredProfile>(loadMeasuredProfile(request.profilePath));

    if (!wanted("Predicting stock modes…")) return result;
    const std::vector<ModeProfile> stock = profilesFor(result, stockPowerModes(result.device));
    for (const ModeProfile& profile : stock) result.stockPredictions.push_back(predict(result.workload, profile));

    if (!wanted("Advising…")) return result;
    try {
        const std::vector<ModeProfile> profiles = request.modeSet == ModeSet::Stock
                                                      ? stock
                                                      : profilesFor(result, powerModesOf(result.device, request.modeSet));
        const ModeProfile baseline =
            profileForMode(result, powerModeFrom(result.device, result.device.fastestStockMode()));
        std::vector<BatchWorkload> workloads{{request.settings.dims.batch.value_or(1), result.workload}};
        result.recommendation =
            recommendMode(result.device, workloads, profiles, baseline, request.constraints, request.objective);
    } catch (const InputError& error) {
        result.advisorError = error.what();
    }
    return result;
}

} // namespace rooftop::gui
