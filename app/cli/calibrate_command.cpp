// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop calibrate MODEL --device ID --runs RUNS.csv`: tunes a runtime's efficiencies and per-layer
// dispatch cost to a user's measured latencies (calibrateRuntime: L = a x roofline time + b x dispatching
// layers x CPU clock ratio), reports the fit and its residuals, compares the estimated power model with the
// measured average power (informational), and writes the tuned runtime for --runtime-file.
#include "cli/analysis_options.h"
#include "cli/argument_list.h"
#include "cli/commands.h"
#include "core/report/text_table.h"
#include "cli/runtime_option.h"
#include "core/session/analysis_session.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/common/errors.h"
#include "core/roofline/calibration.h"
#include "core/roofline/energy_fit.h"
#include "core/roofline/least_squares.h"
#include "core/roofline/prediction.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

namespace rooftop::cli {

namespace {

struct Options {
    std::string model, deviceId, runsPath, outputPath, name, format = "table";
    RuntimeSelection runtime;
    AnalysisSettings settings;
};

/// One measured run with what Rooftop predicts for it before and after calibration.
struct RunRow {
    CalibrationRun run;
    PowerMode mode;
    ModelPrediction start;      ///< with the starting runtime
    ModelPrediction calibrated; ///< with the tuned runtime
    double rooflineSeconds = 0; ///< sum of max(W/peak, Q/BW) with the starting runtime
    int dispatchingLayers = 0;
    double residualSeconds = 0; ///< measured - calibrated
};

/// How the estimated power model compares with the measured average power (runs that measured it).
struct PowerComparison {
    int runs = 0;
    double meanRatio = 0; ///< mean of measured / predicted average power
    bool fitted =
        false; ///< measured energy = dynamicScale x (eps_flop W + eps_byte Q) + constantScale x pi0 T
    double dynamicScale = 0, constantScale = 0, rSquared = 0;
};

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string general(double value, int digits = 6) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

std::string where(const Options& o, const CalibrationRun& run) {
    return o.runsPath + ":" + std::to_string(run.line) + ": ";
}

// Measured average power against the prediction at the calibrated latency, and a two-scale fit of the energy.
PowerComparison comparePower(const std::vector<RunRow>& rows) {
    PowerComparison result;
    std::vector<const RunRow*> measured;
    double ratioSum = 0;
    for (const RunRow& r : rows) {
        if (!(r.run.averageWatts > 0) || !(r.calibrated.averageWatts > 0)) continue;
        measured.push_back(&r);
        ratioSum += r.run.averageWatts / r.calibrated.averageWatts;
    }
    result.runs = static_cast<int>(measured.size());
    if (measured.empty()) return result;
    result.meanRatio = ratioSum / static_cast<double>(measured.size());
    if (measured.size() < 2) return result;

    // Relative residuals (each row over its measured energy), as fitEnergyModel weights its samples.
    const Eigen::Index n = static_cast<Eigen::Index>(measured.size());
    Eigen::MatrixXd design(n, 2);
    Eigen::VectorXd energy(n), weight(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const RunRow& r = *measured[static_cast<size_t>(i)];
        const double constant = r.calibrated.profile.power.constantPower.value * r.calibrated.latencySeconds;
        design(i, 0) = std::max(0.0, r.calibrated.energyJoules - constant);
        design(i, 1) = constant;
        energy(i) = r.run.averageWatts * r.run.latencySeconds;
        weight(i) = 1.0 / energy(i);
    }
    if (scaledRank(design) < 2) return result;
    const Eigen::VectorXd x =
        nonNegativeLeastSquares(weight.asDiagonal() * design, weight.asDiagonal() * energy);
    result.fitted = true;
    result.dynamicScale = x(0);
    result.constantScale = x(1);
    result.rSquared = rSquared(energy, design * x);
    return result;
}

QJsonObject runtimeObject(const RuntimeProfile& runtime) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(runtimeJson(runtime))).object();
}

std::string toJson(const Options& o, const DeviceSpec& device, const RuntimeProfile& start,
                   const RuntimeCalibration& fit, const std::vector<RunRow>& rows,
                   const PowerComparison& power) {
    QJsonArray runs;
    for (const RunRow& r : rows) {
        QJsonObject run{{"line", r.run.line},
                        {"mode", QString::fromStdString(r.mode.name)},
                        {"batch", static_cast<double>(r.run.batch)},
                        {"measured_latency_ms", r.run.latencySeconds * 1e3},
                        {"start_latency_ms", r.start.latencySeconds * 1e3},
                        {"calibrated_latency_ms", r.calibrated.latencySeconds * 1e3},
                        {"residual_ms", r.residualSeconds * 1e3},
                        {"roofline_ms", r.rooflineSeconds * 1e3},
                        {"dispatching_layers", r.dispatchingLayers},
                        {"predicted_power_w", r.calibrated.averageWatts}};
        if (r.run.averageWatts > 0) {
            run.insert("measured_power_w", r.run.averageWatts);
            if (r.calibrated.averageWatts > 0)
                run.insert("power_ratio", r.run.averageWatts / r.calibrated.averageWatts);
        }
        runs.append(run);
    }
    QJsonObject powerJson{{"runs", power.runs}};
    if (power.runs > 0) powerJson.insert("mean_ratio", power.meanRatio);
    if (power.fitted)
        powerJson.insert("fit", QJsonObject{{"dynamic_scale", power.dynamicScale},
                                            {"constant_scale", power.constantScale},
                                            {"r_squared", power.rSquared}});
    const QJsonObject root{
        {"schema", "rooftop-calibration/1"},
        {"model", QString::fromStdString(o.model)},
        {"device", QString::fromStdString(device.id)},
        {"runs_file", QString::fromStdString(o.runsPath)},
        {"start_runtime", runtimeObject(start)},
        {"runtime", runtimeObject(fit.runtime)},
        {"roofline_scale", fit.rooflineScale},
        {"dispatch_seconds_at_max_cpu", fit.dispatchSecondsAtMaxCpu},
        {"r_squared", fit.rSquared},
        {"runs", runs},
        {"power", powerJson},
        {"output", o.outputPath.empty() ? QJsonValue() : QString::fromStdString(o.outputPath)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string toTable(const Options& o, const DeviceSpec& device, const RuntimeProfile& start,
                    const RuntimeCalibration& fit, const std::vector<RunRow>& rows,
                    const PowerComparison& power) {
    const RuntimeProfile& tuned = fit.runtime;
    const double cpuMhz = static_cast<double>(device.maxCpuKhz()) / 1e3;
    std::string out = "Calibrated " + start.name + " -> " + tuned.name + " on " + device.id + " (" +
                      device.name + ") from " + std::to_string(rows.size()) + " runs of " + o.model + " (" +
                      o.runsPath + ")\n";
    out +=
        "  latency = a x roofline time + b x dispatching layers x CPU clock ratio (fitted, non-negative)\n";
    out += "  a, roofline scale     " + general(fit.rooflineScale) + "  (compute efficiency " +
           general(start.computeEfficiency, 4) + " -> " + general(tuned.computeEfficiency, 4) +
           ", bandwidth efficiency " + general(start.bandwidthEfficiency, 4) + " -> " +
           general(tuned.bandwidthEfficiency, 4) + ")\n";
    out += "  b, dispatch cost      " + general(fit.dispatchSecondsAtMaxCpu * 1e6) + " us per layer" +
           (cpuMhz > 0 ? " at " + general(cpuMhz) + " MHz CPU" : std::string()) + "  (" + start.name + ": " +
           general(start.dispatchSecondsAtMaxCpu * 1e6) + " us)\n";
    out += "  R^2                   " + general(fit.rSquared) + "\n";
    if (!(fit.rooflineScale > 0))
        out += "  warning: the fit puts all of the latency in dispatch (a = 0); the efficiencies are "
               "unchanged\n";

    std::vector<std::vector<std::string>> cells = {{"LINE", "MODE", "BATCH", "LAYERS", "MEASURED ms",
                                                    start.name + " ms", "CALIBRATED ms", "RESIDUAL ms",
                                                    "RESIDUAL %"}};
    for (const RunRow& r : rows)
        cells.push_back({std::to_string(r.run.line), r.mode.name, std::to_string(r.run.batch),
                         std::to_string(r.dispatchingLayers), fixed(r.run.latencySeconds * 1e3, 4),
                         fixed(r.start.latencySeconds * 1e3, 4), fixed(r.calibrated.latencySeconds * 1e3, 4),
                         fixed(r.residualSeconds * 1e3, 4),
                         fixed(100.0 * r.residualSeconds / r.run.latencySeconds, 2)});
    out += "\nRuns (LAYERS: layers that dispatch a kernel; residual = measured - calibrated):\n" +
           formatTable(cells, 2, "  ");

    out +=
        "\nPower (informational; the runtime file holds no power model): measured average power against the\n"
        "estimated power model at the calibrated latency.\n";
    if (power.runs == 0) {
        out += "  no run has both a measured power_w and a predicted power model to compare with\n";
    } else {
        std::vector<std::vector<std::string>> powerCells = {
            {"LINE", "MODE", "BATCH", "MEASURED W", "PREDICTED W", "MEASURED / PREDICTED"}};
        for (const RunRow& r : rows) {
            if (!(r.run.averageWatts > 0) || !(r.calibrated.averageWatts > 0)) continue;
            powerCells.push_back({std::to_string(r.run.line), r.mode.name, std::to_string(r.run.batch),
                                  fixed(r.run.averageWatts, 2), fixed(r.calibrated.averageWatts, 2),
                                  fixed(r.run.averageWatts / r.calibrated.averageWatts, 3)});
        }
        out += formatTable(powerCells, 2, "  ");
        out += "  mean measured / predicted " + fixed(power.meanRatio, 3) + " over " +
               std::to_string(power.runs) + " run" + (power.runs == 1 ? "" : "s") + "\n";
        if (power.fitted)
            out += "  fit: measured energy = " + general(power.dynamicScale, 4) +
                   " x (eps_flop W + eps_byte Q) + " + general(power.constantScale, 4) + " x pi0 T, R^2 " +
                   general(power.rSquared, 4) + "\n";
        out += "  rooftop bench measures the power model itself.\n";
    }
    out += "\n" +
           (o.outputPath.empty()
                ? std::string("-o FILE writes the calibrated runtime; use it with --runtime-file FILE.\n")
                : "Wrote runtime '" + tuned.name + "' to " + o.outputPath + "; use it with --runtime-file " +
                      o.outputPath + " (rooftop modes, roofline, recommend).\n");
    return out;
}

void printHelp() {
    std::cout
        << "Usage: rooftop calibrate MODEL.onnx --device ID --runs RUNS.csv [options]\n"
           "Tunes a runtime to latencies you measured: fits latency = a x roofline time + b x dispatching\n"
           "layers x CPU clock ratio over the runs (efficiencies / a, dispatch b at the top CPU clock), "
           "prints\n"
           "the fit, R^2 and the residual of every run, compares the estimated power model with the "
           "measured\n"
           "average power, and writes the calibrated runtime with -o.\n\n"
           "RUNS.csv: header mode,batch,latency_ms,power_w, one measured run per line (power_w may be "
           "empty).\n"
           "mode is a stock name or id (rooftop modes --device ID), a custom mode's name as rooftop modes\n"
           "--grid prints it (c8-cpu1728-gpu612-emc3199), or a quoted \"cores=N,cpu=KHZ,gpu=HZ,emc=HZ\".\n"
           "Measure at least 2 runs that differ in batch size or CPU clock.\n\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --runs FILE               the measured runs (CSV)\n"
        << runtimeOptionsHelp()
        << "                            (the runtime to start from and whose model is tuned)\n"
           "  --name NAME               name of the calibrated runtime (default: <runtime>-calibrated)\n"
           "  --dim NAME=VALUE          bind a symbolic input dimension (repeatable)\n"
           "  --precision P             as-model | fp32 | fp16 | int8 (element sizes of float tensors)\n"
           "  --convention C            default | pagoda (per-op FLOP constants of the Pagoda study)\n"
           "  --traffic T               per-node | fused (DRAM traffic model)\n"
           "  -o, --output FILE         write the calibrated runtime (JSON) to FILE\n"
           "  --format F                table | json (the report on standard output)\n";
}

} // namespace

int runCalibrate(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    Options o;
    while (args.more()) {
        if (!args.nextIsOption()) {
            if (!o.model.empty())
                throw InputError("calibrate takes one model, got a second: '" + args.takePositional() + "'");
            o.model = args.takePositional();
            continue;
        }
        const std::string option = args.takeOption();
        if (option == "--batch")
            throw InputError(
                "calibrate: the batch sizes come from the runs file (column batch), not --batch");
        if (takeAnalysisOption(option, args, o.settings)) continue;
        if (option == "--device") {
            o.deviceId = args.takeValue(option);
        } else if (option == "--runs") {
            o.runsPath = args.takeValue(option);
        } else if (isRuntimeOption(option)) {
            takeRuntimeOption(option, args.takeValue(option), o.runtime);
        } else if (option == "--name") {
            o.name = args.takeValue(option);
            if (o.name.empty()) throw InputError("--name needs a non-empty runtime name");
        } else if (option == "-o" || option == "--output") {
            o.outputPath = args.takeValue(option);
            if (o.outputPath.empty() || o.outputPath == "-")
                throw InputError(option + " needs a file name (the report goes to standard output)");
        } else if (option == "--format") {
            o.format = args.takeValue(option);
            if (o.format != "table" && o.format != "json")
                throw InputError("--format must be table or json, got '" + o.format + "'");
        } else if (option == "-h" || option == "--help") {
            printHelp();
            return ExitOk;
        } else {
            throw InputError("calibrate: unknown option '" + option + "'");
        }
    }
    if (o.model.empty())
        throw InputError("calibrate needs a model: rooftop calibrate MODEL.onnx --device ID --runs FILE");
    if (o.deviceId.empty())
        throw InputError("calibrate needs a board: --device ID (rooftop devices lists them)");
    if (o.runsPath.empty())
        throw InputError("calibrate needs the measured runs: --runs FILE (mode,batch,latency_ms,power_w)");

    const DeviceSpec device = resolveDevice(o.deviceId);
    const RuntimeProfile start = resolveRuntime(o.runtime);
    const std::vector<CalibrationRun> runs = loadCalibrationCsv(o.runsPath);
    if (runs.size() < 2)
        throw InputError(where(o, runs.front()) +
                         "only 1 run; calibration needs at least 2 (different batch sizes "
                         "or CPU clocks)");

    // Modes first, so that a bad name is reported before any model is analysed.
    std::vector<RunRow> rows(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
        rows[i].run = runs[i];
        try {
            rows[i].mode = resolvePowerMode(device, runs[i].mode);
        } catch (const InputError& error) {
            throw InputError(where(o, runs[i]) + "column 'mode': " + error.what());
        }
    }

    std::map<int64_t, Workload> workloads;
    auto workloadAt = [&](int64_t batch) -> const Workload& {
        auto found = workloads.find(batch);
        if (found != workloads.end()) return found->second;
        AnalysisSettings settings = o.settings;
        settings.dims.batch = batch;
        return workloads.emplace(batch, analyzeModelFile(o.model, settings)).first->second;
    };

    std::vector<std::pair<CalibrationRun, ModelPrediction>> pairs;
    pairs.reserve(rows.size());
    for (RunRow& r : rows) {
        r.start = predict(workloadAt(r.run.batch), deriveModeProfile(device, r.mode, start));
        for (const LayerPrediction& layer : r.start.layers) {
            r.rooflineSeconds += layer.seconds - layer.dispatchSeconds;
            if (layer.dispatches) ++r.dispatchingLayers;
        }
        pairs.emplace_back(r.run, r.start);
    }
    RuntimeCalibration fit;
    try {
        fit = calibrateRuntime(device, start, pairs);
    } catch (const std::runtime_error& error) { // too few runs (InputError) or runs that cannot be fitted
        throw InputError(o.runsPath + ": " + error.what());
    }
    if (!o.name.empty()) fit.runtime.name = o.name;
    for (size_t i = 0; i < rows.size(); ++i) {
        RunRow& r = rows[i];
        r.calibrated = predict(workloadAt(r.run.batch), deriveModeProfile(device, r.mode, fit.runtime));
        r.residualSeconds = fit.residualSeconds[i];
    }
    const PowerComparison power = comparePower(rows);

    if (!o.outputPath.empty()) saveRuntimeFile(o.outputPath, fit.runtime);
    writeOutput("", o.format == "json" ? toJson(o, device, start, fit, rows, power)
                                       : toTable(o, device, start, fit, rows, power));
    return ExitOk;
}

} // namespace rooftop::cli
