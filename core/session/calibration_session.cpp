// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration: a runtime tuned to measured runs (calibrateRuntime), with each run predicted before and after.
#include "core/session/calibration_session.h"

#include "core/common/errors.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/power_plausibility.h"
#include "core/learn/predictor_file.h"
#include "core/onnx/dim_text.h"
#include "core/session/analysis_session.h"

#include <algorithm>
#include <map>

namespace rooftop {

namespace {

std::string where(const CalibrationRequest& o, const CalibrationRun& run) {
    return o.runsPath + ":" + std::to_string(run.line) + ": ";
}

/// A mode's cores and clocks in the canonical name's words ("c12-cpu2201.6-gpu1300.5-emc3199").
std::string clocksOf(const PowerMode& m) {
    return customModeName(m.onlineCores, m.cpuKhz, m.gpuHz, m.emcHz);
}

/// Refuses a row recorded at other cores or clocks than its mode has on `device`: a run of another board.
void checkClocksOfMode(const CalibrationRequest& o, const DeviceSpec& device, const CalibrationRun& run,
                       const PowerMode& mode) {
    PowerMode recorded = mode;
    if (run.cores) recorded.onlineCores = int(*run.cores);
    if (run.cpuKhz) recorded.cpuKhz = *run.cpuKhz;
    if (run.gpuHz) recorded.gpuHz = *run.gpuHz;
    if (run.emcHz) recorded.emcHz = *run.emcHz;
    if (recorded.onlineCores == mode.onlineCores && recorded.cpuKhz == mode.cpuKhz &&
        recorded.gpuHz == mode.gpuHz && recorded.emcHz == mode.emcHz)
        return;
    throw InputError(where(o, run) + "the run was made at " + clocksOf(recorded) + ", but " + mode.name +
                     " of " + device.id + " is " + clocksOf(mode) +
                     ": a run of another board (give the --device it ran on)");
}

} // namespace

CalibrationResult runCalibration(const CalibrationRequest& o) {
    CalibrationResult result;
    result.request = o;
    result.device = resolveDevice(o.deviceId);
    result.start = resolveRuntime(o.runtime, result.device.id);
    const DeviceSpec& device = result.device;
    const RuntimeProfile& start = result.start;
    std::vector<CalibrationRun> runs = loadCalibrationCsv(o.runsPath, &result.warnings);
    const auto generations =
        std::count_if(runs.begin(), runs.end(), [](const CalibrationRun& r) { return r.llmGeneration; });
    if (generations > 0) // a generation's latency is a prompt and many decode steps, not one pass
        throw InputError(o.runsPath + ": " + std::to_string(generations) +
                         " LLM generation run(s): rooftop calibrate MODEL --llm --runs " + o.runsPath +
                         " fits their prefill and decode");
    const Phase phase = o.settings.phase;
    const auto otherPhase = std::stable_partition(
        runs.begin(), runs.end(), [phase](const CalibrationRun& r) { return !r.phase || *r.phase == phase; });
    const size_t leftOut = static_cast<size_t>(runs.end() - otherPhase);
    runs.erase(otherPhase, runs.end());
    if (runs.empty())
        throw InputError(o.runsPath + ": no " + phaseName(phase) + " run to calibrate with (" +
                         std::to_string(leftOut) + " of the other phase)");
    if (leftOut > 0)
        result.warnings.push_back(std::to_string(leftOut) +
                                  " run(s) of the other phase left out (the runtime is fitted to " +
                                  phaseName(phase) + " runs)");
    // a run counts at the precision it ran at; --precision where none is recorded
    for (CalibrationRun& run : runs)
        if (!run.precision) run.precision = o.settings.precision;
    const std::string modelKey = modelFileKey(o.modelPath);
    for (const CalibrationRun& run : runs) {
        if (!run.model.empty() && run.model != modelKey)
            throw InputError(where(o, run) + "a run of " + run.model + ", not of " + modelKey +
                             " (calibrate with the runs of this model)");
        if (run.averageWatts > 0) {
            const std::string why = implausiblePower(device, run.averageWatts);
            if (!why.empty()) throw InputError(where(o, run) + "column 'power_w': " + why);
        }
    }
    // a simulated run is no measurement of this board: a fit to both would be labelled neither
    const auto simulatedRuns =
        std::count_if(runs.begin(), runs.end(), [](const CalibrationRun& r) { return r.simulated(); });
    if (simulatedRuns > 0 && simulatedRuns < static_cast<std::ptrdiff_t>(runs.size()))
        throw InputError(o.runsPath + ": " + std::to_string(simulatedRuns) +
                         " run(s) of the simulated board beside " +
                         std::to_string(runs.size() - static_cast<size_t>(simulatedRuns)) +
                         " measured: calibrate from one or the other (the runner column says which)");
    result.simulated = simulatedRuns > 0;
    for (const CalibrationRun& run : runs) {
        if (!run.dims) continue; // a hand-written calibration CSV records no dims
        const std::string where = o.runsPath + ":" + std::to_string(run.line);
        const std::map<std::string, int64_t> dims = parseNamedDimsText(*run.dims, where + ": field 'dims'");
        if (dims != o.settings.dims.named)
            throw InputError(where + ": a run at " + describeNamedDims(dims) + ", not at " +
                             describeNamedDims(o.settings.dims.named) +
                             " (give the dims it was run at with --dim, or a runs file of these dims)");
    }

    // Modes first, so that a bad name is reported before any model is analysed.
    std::vector<CalibratedRun> rows(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
        rows[i].run = runs[i];
        try {
            rows[i].mode = resolvePowerMode(device, runs[i].mode);
        } catch (const InputError& error) {
            throw InputError(where(o, runs[i]) + "column 'mode': " + error.what());
        }
        checkClocksOfMode(o, device, runs[i], rows[i].mode);
    }

    std::map<std::pair<int64_t, Precision>, Workload> workloads;
    auto workloadAt = [&](const CalibrationRun& run) -> const Workload& {
        const std::pair<int64_t, Precision> key{run.batch, run.precision.value_or(o.settings.precision)};
        auto found = workloads.find(key);
        if (found != workloads.end()) return found->second;
        AnalysisSettings settings = o.settings;
        settings.dims.batch = key.first;
        settings.precision = key.second;
        return workloads.emplace(key, analyzeModelFile(o.modelPath, settings)).first->second;
    };

    std::vector<std::pair<CalibrationRun, ModelPrediction>> pairs;
    pairs.reserve(rows.size());
    for (CalibratedRun& r : rows) {
        r.start = predict(workloadAt(r.run), deriveModeProfile(device, r.mode, start));
        for (const LayerPrediction& layer : r.start.layers) {
            r.rooflineSeconds += layer.seconds - layer.dispatchSeconds;
            if (layer.dispatches) ++r.dispatchingLayers;
        }
        pairs.emplace_back(r.run, r.start);
    }
    RuntimeCalibration& fit = result.fit;
    try {
        fit = calibrateRuntime(device, start, pairs);
    } catch (const std::runtime_error& error) { // too few runs (InputError) or runs that cannot be fitted
        throw InputError(o.runsPath + ": " + error.what());
    }
    if (!o.name.empty()) fit.runtime.name = o.name;
    if (fit.rooflineScale < 1 && o.settings.traffic == TrafficView::PerNode)
        fit.runtime.basis += " (try --traffic fused)";
    for (std::string& warning : efficiencyWarnings(fit.runtime))
        result.warnings.push_back(std::move(warning));

    // Power multipliers relative to the raw estimate, so that recalibrating a calibrated runtime replaces
    // them.
    std::vector<PowerRun> powerRuns;
    for (const CalibratedRun& r : rows) {
        if (!(r.run.averageWatts > 0)) continue;
        const PowerModel estimate = estimatePowerModel(device, r.mode);
        const DynamicEnergy dynamic = dynamicEnergy(workloadAt(r.run), estimate);
        powerRuns.push_back({r.run.averageWatts * r.run.latencySeconds,
                             estimate.constantPower.value * r.run.latencySeconds, dynamic.flopJoules,
                             dynamic.byteJoules});
    }
    result.power = calibratePower(powerRuns, fit.runtime.name, result.simulated);
    if (result.power.fit) {
        fit.runtime.power = result.power.fit;
    } else if (start.power) {
        result.power.keptEstimates.push_back("the power multipliers of " + start.name + " are kept (" +
                                             start.power->basis + ")");
    }

    for (size_t i = 0; i < rows.size(); ++i) {
        CalibratedRun& r = rows[i];
        r.calibrated = predict(workloadAt(r.run), deriveModeProfile(device, r.mode, fit.runtime));
        r.residualSeconds = fit.residualSeconds[i];
    }
    result.runs = std::move(rows);
    return result;
}

} // namespace rooftop
