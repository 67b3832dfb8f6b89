// SPDX-License-Identifier: GPL-3.0-or-later
// Decode and prefill stress different roofs (decode: DRAM bandwidth and the host's per-token work; prefill:
// the tensor cores), so a decoder gets one runtime per phase, each fitted with the same model as any run
// (docs/calibration.md): measured = a x roofline + (b x kernels + c) x CPU clock ratio. A decode test of G
// steps after d cached tokens is predicted as its mean step (context d + (G + 1) / 2): every column of a step
// is affine in the context, so the mean step is the steps' mean.
#include "core/llm/llm_calibration.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/device/ceilings.h"
#include "core/device/power_plausibility.h"
#include "core/llm/llm_pass.h"
#include "core/llm/mlc_bench.h"
#include "core/report/text_table.h"
#include "core/session/analysis_session.h"

#include <filesystem>
#include <map>
#include <sstream>

namespace rooftop {
namespace {

std::string phaseName(bool prefill) {
    return prefill ? "prefill" : "decode";
}

// The pass a test measured: its prompt after its depth, or its mean decode step.
LlmPass passOf(const LlamaBenchRecord& record) {
    return record.prefill() ? LlmPass{record.batch, record.prompt, record.depth}
                            : meanDecodeStep(record.batch, record.depth, record.generate);
}

std::string baseName(const LlmCalibrationRequest& request, const RuntimeProfile& start) {
    return request.name.empty() ? start.name + "-llm" : request.name;
}

std::optional<RuntimeCalibration>
fitPhase(const DeviceSpec& device, const RuntimeProfile& start,
         const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs, const std::string& name) {
    if (runs.empty()) return std::nullopt;
    try {
        RuntimeCalibration fit = calibrateRuntime(device, start, runs);
        fit.runtime.name = name;
        return fit;
    } catch (const NumericalError& error) {
        throw InputError(name + ": the tests do not identify even a roofline scale (" +
                         std::string(error.what()) + ")");
    }
}

/// Refuses a benchmark of another model: llama-bench names its parameter count, and a GGUF of the same model
/// holds about as many as the ONNX export (tied or untied embeddings apart), not 1.5 times more or fewer.
void checkSameModel(const LlamaBenchRecord& record, const std::string& file, const std::string& modelPath,
                    int64_t modelParameters) {
    if (record.modelParameters <= 0 || modelParameters <= 0) return;
    const double ratio = double(record.modelParameters) / double(modelParameters);
    if (ratio <= 1.5 && ratio >= 1 / 1.5) return;
    throw InputError(file + ": record " + std::to_string(record.index) + " benchmarks a model of " +
                     general(double(record.modelParameters), 4) + " parameters" +
                     (record.modelType.empty() ? std::string() : " ('" + record.modelType + "')") + ", not " +
                     std::filesystem::path(modelPath).filename().string() + " (" +
                     general(double(modelParameters), 4) +
                     " parameters): a benchmark of another model calibrates nothing");
}

} // namespace

std::vector<RuntimeProfile> LlmCalibrationResult::runtimes() const {
    const std::string base = baseName(request, start);
    RuntimeProfile p = prefill ? prefill->runtime : start;
    RuntimeProfile d = decode ? decode->runtime : start;
    if (power.fit) p.power = d.power = power.fit;
    p.name = base + "-prefill";
    d.name = base + "-decode";
    if (request.settings.precision != Precision::AsModel)
        p.calibratedPrecision = d.calibratedPrecision = precisionName(request.settings.precision);
    return {p, d};
}

LlmCalibrationResult runLlmCalibration(const LlmCalibrationRequest& request) {
    if (request.files.empty() && request.tests.empty())
        throw InputError("calibrate --llama-bench or --mlc-bench needs at least one file, each with the "
                         "--mode it was measured in");
    LlmCalibrationResult result;
    result.request = request;
    result.device = resolveDevice(request.deviceId);
    result.start = resolveRuntime(request.runtime, result.device.id);

    std::vector<LlmBenchTest> tests; // every file's tests, then the request's, each with its mode
    for (const LlamaBenchInput& input : request.files) {
        const bool mlc = input.format == LlmBenchFormat::Mlc;
        if (input.mode.empty())
            throw InputError(input.path + ": give the power mode it was measured in (--mode after " +
                             (mlc ? "--mlc-bench)" : "--llama-bench)"));
        resolvePowerMode(result.device, input.mode); // before reading and counting: a bad name first
        const LlamaBenchFile file = mlc ? readMlcBench(input.path) : readLlamaBench(input.path);
        result.mixedSkipped += file.mixedSkipped;
        for (const LlamaBenchRecord& record : file.records)
            tests.push_back({record, input.mode, input.path});
    }
    tests.insert(tests.end(), request.tests.begin(), request.tests.end());

    const LlmCounter counter(request.modelPath, request.settings);
    std::vector<std::pair<CalibrationRun, ModelPrediction>> runs[2]; // [decode, prefill]
    std::vector<Workload> workloads;                                 // per test, counted once
    std::map<std::string, ModeProfile> profiles;                     // per mode
    for (const LlmBenchTest& test : tests) {
        const LlamaBenchRecord& record = test.record;
        LlmCalibratedRecord row;
        row.record = record;
        row.file = test.file;
        row.mode = resolvePowerMode(result.device, test.mode);
        auto profile = profiles.find(row.mode.name);
        if (profile == profiles.end())
            profile =
                profiles.emplace(row.mode.name, deriveModeProfile(result.device, row.mode, result.start))
                    .first;
        row.measuredSeconds =
            record.prefill() ? record.averageSeconds : record.averageSeconds / double(record.generate);
        workloads.push_back(counter.count(passOf(record)).workload);
        checkSameModel(record, test.file, request.modelPath, workloads.back().totals.params);
        const ModelPrediction prediction = predict(workloads.back(), profile->second);
        row.startSeconds = prediction.latencySeconds;
        CalibrationRun run;
        run.mode = row.mode.name;
        run.batch = record.batch;
        run.latencySeconds = row.measuredSeconds;
        run.line = record.index;
        if (request.simulated) run.runner = "sim"; // the fit's basis then says simulated, not measured
        runs[record.prefill() ? 1 : 0].push_back({run, prediction});
        result.records.push_back(row);
    }
    const std::string base = baseName(request, result.start);
    // Energy of each measured generation against the estimated power model's terms: pi0 over its time, the
    // prefill's dynamic energy and G mean decode steps' (a step's counts are affine in the context).
    std::vector<PowerRun> powerRuns;
    for (const LlmGenerationPower& g : request.generations) {
        const PowerMode mode = resolvePowerMode(result.device, g.mode);
        if (const std::string why = implausiblePower(result.device, g.watts); !why.empty())
            throw InputError("a generation in " + g.mode + ": " + why);
        const PowerModel estimate = estimatePowerModel(result.device, mode);
        const DynamicEnergy prefill = dynamicEnergy(counter.count({g.batch, g.prompt, 0}).workload, estimate);
        const DynamicEnergy step =
            dynamicEnergy(counter.count(meanDecodeStep(g.batch, g.prompt, g.generate)).workload, estimate);
        powerRuns.push_back({g.watts * g.seconds, estimate.constantPower.value * g.seconds,
                             prefill.flopJoules + double(g.generate) * step.flopJoules,
                             prefill.byteJoules + double(g.generate) * step.byteJoules});
    }
    result.power = calibratePower(powerRuns, base, request.simulated);
    result.prefill = fitPhase(result.device, result.start, runs[1], base + "-prefill");
    result.decode = fitPhase(result.device, result.start, runs[0], base + "-decode");
    for (const std::optional<RuntimeCalibration>* fit : {&result.prefill, &result.decode})
        if (*fit)
            for (const std::string& warning : efficiencyWarnings((*fit)->runtime))
                result.warnings.push_back((*fit)->runtime.name + ": " + warning);
    const std::vector<RuntimeProfile> fitted = result.runtimes();
    for (size_t r = 0; r < result.records.size(); ++r) {
        LlmCalibratedRecord& row = result.records[r];
        const RuntimeProfile& runtime = fitted[row.record.prefill() ? 0 : 1];
        row.calibratedSeconds =
            predict(workloads[r], deriveModeProfile(result.device, row.mode, runtime)).latencySeconds;
    }
    return result;
}

std::string llmCalibrationTable(const LlmCalibrationResult& r, const std::string& outputPath) {
    std::ostringstream out;
    out << "Model: " << r.request.modelPath << " on " << r.device.name << ", from " << r.start.name << "\n";
    const char* measured = r.request.simulated ? "simulated" : "measured";
    if (r.request.simulated)
        out << "The runs are the simulated board's (runner sim), not measurements: the fit shows the method, "
               "not this board\n";
    if (r.mixedSkipped)
        out << "Left out: " << r.mixedSkipped
            << " mixed test(s) (llama-bench -pg), whose time mixes the phases\n";
    for (const bool prefill : {true, false}) {
        const std::optional<RuntimeCalibration>& fit = prefill ? r.prefill : r.decode;
        out << "\n" << (prefill ? "Prefill" : "Decode") << ": ";
        if (!fit) {
            out << "no test; the starting runtime is kept\n";
            continue;
        }
        out << "roofline scale " << fixed(fit->rooflineScale, 3) << " (compute efficiency "
            << fixed(fit->runtime.computeEfficiency, 3) << ", bandwidth efficiency "
            << fixed(fit->runtime.bandwidthEfficiency, 3) << "), per kernel "
            << general(fit->dispatchSecondsAtMaxCpu * 1e6, 3) << " µs"
            << (fit->dispatchFitted ? "" : " (estimate)") << ", per pass "
            << general(fit->inferenceSecondsAtMaxCpu * 1e6, 3) << " µs"
            << (fit->inferenceFitted ? "" : " (estimate)") << " at the top CPU clock\n  " << fit->quality
            << "\n";
        for (const std::string& kept : fit->keptEstimates)
            out << "  kept: " << kept << "\n";
        out << "  spread of its times: " << fixed(fit->runtime.latencySpread * 100, 0) << " % ("
            << fit->runtime.latencySpreadBasis << "), the width of rooftop llm's intervals\n";
    }
    std::vector<std::vector<std::string>> rows = {{"file", "test", "mode", "phase",
                                                   std::string(measured) + " ms", "start ms", "fitted ms",
                                                   "fitted error"}};
    for (const LlmCalibratedRecord& row : r.records) {
        const std::string test = (row.record.prefill() ? "pp" + std::to_string(row.record.prompt)
                                                       : "tg" + std::to_string(row.record.generate)) +
                                 (row.record.batch > 1 ? " x" + std::to_string(row.record.batch) : "");
        rows.push_back({row.file, test + (row.record.depth ? " @ d" + std::to_string(row.record.depth) : ""),
                        row.mode.name,
                        phaseName(row.record.prefill()) + (row.record.prefill() ? "" : " (per token)"),
                        general(row.measuredSeconds * 1e3, 4), general(row.startSeconds * 1e3, 4),
                        general(row.calibratedSeconds * 1e3, 4),
                        fixed((row.calibratedSeconds / row.measuredSeconds - 1) * 100, 1) + " %"});
    }
    if (r.power.fit) {
        out << "\nPower (both phases, from " << r.power.runs << " generation(s) that "
            << (r.request.simulated ? "simulated" : "measured") << " it): " << r.power.quality << "\n";
        for (const std::string& kept : r.power.keptEstimates)
            out << "  kept: " << kept << "\n";
    } else if (!r.request.generations.empty()) {
        out << "\nPower: not fitted (" << r.power.quality << "); energy stays the estimate\n";
    }
    out << "\n" << formatTable(rows, 4, "  ");
    for (const std::string& warning : r.warnings)
        out << "warning: " << warning << "\n";
    if (!outputPath.empty()) {
        const std::vector<RuntimeProfile> runtimes = r.runtimes();
        out << "\nWrote " << outputPath << " (" << runtimes[0].name << ", " << runtimes[1].name
            << "): rooftop llm MODEL --device " << r.request.deviceId << " --runtime-file " << outputPath
            << "\n";
    }
    return out.str();
}

} // namespace rooftop
