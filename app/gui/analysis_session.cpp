// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/analysis_session.h"

#include "core/device/catalog.h"
#include "core/device/measured_profile.h"
#include "core/onnx/input_error.h"

#include <memory>

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

std::vector<ModeProfile> profilesFor(const AnalysisRequest& request, const DeviceSpec& device,
                                     const RuntimeProfile& runtime, const std::vector<PowerMode>& modes) {
    std::unique_ptr<MeasuredProfile> measured;
    if (!request.profilePath.empty())
        measured = std::make_unique<MeasuredProfile>(loadMeasuredProfile(request.profilePath));
    return resolveModeProfiles(device, modes, runtime, measured.get());
}

} // namespace

ModeProfile profileForMode(const AnalysisResult& result, const PowerMode& mode) {
    return profilesFor(result.request, result.device, result.runtime, {mode}).front();
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

    if (!wanted("Predicting stock modes…")) return result;
    const std::vector<ModeProfile> stock =
        profilesFor(request, result.device, result.runtime, stockPowerModes(result.device));
    for (const ModeProfile& profile : stock) result.stockPredictions.push_back(predict(result.workload, profile));

    if (!wanted("Advising…")) return result;
    try {
        const std::vector<PowerMode> modes = powerModesOf(result.device, request.modeSet);
        const std::vector<ModeProfile> profiles = modes.size() == stock.size() && request.modeSet == ModeSet::Stock
                                                      ? stock
                                                      : profilesFor(request, result.device, result.runtime, modes);
        const PowerMode fastest = powerModeFrom(result.device, result.device.fastestStockMode());
        const ModeProfile baseline = profilesFor(request, result.device, result.runtime, {fastest}).front();
        std::vector<BatchWorkload> workloads{{request.settings.dims.batch.value_or(1), result.workload}};
        result.recommendation =
            recommendMode(result.device, workloads, profiles, baseline, request.constraints, request.objective);
    } catch (const InputError& error) {
        result.advisorError = error.what();
    }
    return result;
}

} // namespace rooftop::gui
