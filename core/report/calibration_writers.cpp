// SPDX-License-Identifier: GPL-3.0-or-later
// The calibration report (rooftop calibrate) as a table or JSON ("rooftop-calibration/3").
#include "core/report/calibration_writers.h"

#include "core/common/text_format.h"
#include "core/device/power_mode.h"
#include "core/report/text_table.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rooftop {

namespace {

QJsonObject runtimeObject(const RuntimeProfile& runtime) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(runtimeJson(runtime))).object();
}

QJsonArray stringArray(const std::vector<std::string>& lines) {
    QJsonArray out;
    for (const std::string& line : lines)
        out.append(QString::fromStdString(line));
    return out;
}

} // namespace

std::string calibrationJson(const CalibrationResult& result, const std::string& outputPath) {
    const CalibrationRequest& o = result.request;
    const DeviceSpec& device = result.device;
    const RuntimeProfile& start = result.start;
    const RuntimeCalibration& fit = result.fit;
    const std::vector<CalibratedRun>& rows = result.runs;
    const PowerCalibration& power = result.power;
    QJsonArray runs;
    for (const CalibratedRun& r : rows) {
        QJsonObject run{{"line", r.run.line},
                        {"mode", QString::fromStdString(r.mode.name)},
                        {"batch", static_cast<double>(r.run.batch)},
                        {"precision", QString::fromStdString(
                                          precisionName(r.run.precision.value_or(o.settings.precision)))},
                        {"measured_latency_ms", r.run.latencySeconds * 1e3},
                        {"measured_provenance", result.simulated ? "simulated" : "measured"},
                        {"start_latency_ms", r.start.latencySeconds * 1e3},
                        {"calibrated_latency_ms", r.calibrated.latencySeconds * 1e3},
                        {"residual_ms", r.residualSeconds * 1e3},
                        {"roofline_latency_ms", r.rooflineSeconds * 1e3},
                        {"dispatching_layers", r.dispatchingLayers},
                        {"start_power_w", r.start.averageWatts},
                        {"calibrated_power_w", r.calibrated.averageWatts}};
        if (r.run.averageWatts > 0) {
            run.insert("measured_power_w", r.run.averageWatts);
            if (r.calibrated.averageWatts > 0)
                run.insert("power_ratio", r.run.averageWatts / r.calibrated.averageWatts);
        }
        runs.append(run);
    }
    QJsonObject powerJson{{"runs", power.runs},
                          {"quality", QString::fromStdString(power.quality)},
                          {"kept_estimates", stringArray(power.keptEstimates)}};
    if (power.fit) {
        QJsonObject multipliers = runtimeObject(fit.runtime)["power"].toObject();
        powerJson.insert("fit", multipliers);
    }
    const QJsonObject root{
        {"schema", "rooftop-calibration/3"},
        {"model", QString::fromStdString(o.modelPath)},
        {"device", QString::fromStdString(device.id)},
        {"runs_file", QString::fromStdString(o.runsPath)},
        {"start_runtime", runtimeObject(start)},
        {"runtime", runtimeObject(fit.runtime)},
        {"roofline_scale", fit.rooflineScale},
        {"dispatch_s_at_max_cpu", fit.dispatchSecondsAtMaxCpu},
        {"dispatch_fitted", fit.dispatchFitted},
        {"inference_s_at_max_cpu", fit.inferenceSecondsAtMaxCpu},
        {"inference_fitted", fit.inferenceFitted},
        {"r_squared", fit.rSquared},
        {"quality", QString::fromStdString(fit.quality)},
        {"kept_estimates", stringArray(fit.keptEstimates)},
        {"classes_at_estimate", QString::fromStdString(fit.classesAtEstimate)},
        {"runs", runs},
        {"runs_simulated", result.simulated},
        {"warnings", stringArray(result.warnings)},
        {"power", powerJson},
        {"output", outputPath.empty() ? QJsonValue() : QString::fromStdString(outputPath)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

CalibrationReportParts calibrationReportParts(const CalibrationResult& result, const std::string& outputPath,
                                              bool readableModes) {
    const auto modeText = [readableModes](const PowerMode& mode) {
        return readableModes ? readableModeName(mode) : mode.name;
    };
    const CalibrationRequest& o = result.request;
    const DeviceSpec& device = result.device;
    const RuntimeProfile& start = result.start;
    const RuntimeCalibration& fit = result.fit;
    const std::vector<CalibratedRun>& rows = result.runs;
    const PowerCalibration& power = result.power;
    const RuntimeProfile& tuned = fit.runtime;
    const double cpuMhz = static_cast<double>(device.maxCpuKhz()) / 1e3;
    const std::string atCpu = cpuMhz > 0 ? " at " + general(cpuMhz, 6) + " MHz CPU" : std::string();
    auto how = [&](bool fitted) {
        return fitted ? "fitted; " + start.name + ":" : "kept, " + start.name + "'s";
    };
    CalibrationReportParts parts;
    parts.headline = "Calibrated " + start.name + " -> " + tuned.name + " on " + device.id + " (" +
                     device.name + ") from " + std::to_string(rows.size()) + " runs of " + o.modelPath +
                     " (" + o.runsPath + ")";
    const std::string measured = result.simulated ? "simulated" : "measured";
    const std::string MEASURED = result.simulated ? "SIMULATED" : "MEASURED";
    std::vector<std::string>& fitLines = parts.fitLines;
    if (result.simulated)
        fitLines.push_back(
            "the runs are the simulated board's (runner sim), not measurements: the fit shows the "
            "method, not this board");
    fitLines.push_back(
        "latency = a x roofline time + (b x dispatching layers + c) x CPU clock ratio (relative, "
        "non-negative)");
    fitLines.push_back("a, roofline scale       " + general(fit.rooflineScale, 6) + "  (compute efficiency " +
                       general(start.computeEfficiency, 4) + " -> " + general(tuned.computeEfficiency, 4) +
                       ", bandwidth efficiency " + general(start.bandwidthEfficiency, 4) + " -> " +
                       general(tuned.bandwidthEfficiency, 4) + ")");
    fitLines.push_back("b, dispatch per layer   " + general(fit.dispatchSecondsAtMaxCpu * 1e6, 6) + " µs" +
                       atCpu + "  (" + how(fit.dispatchFitted) + " " +
                       general(start.dispatchSecondsAtMaxCpu * 1e6, 6) + " µs)");
    fitLines.push_back("c, fixed per inference  " + general(fit.inferenceSecondsAtMaxCpu * 1e6, 6) + " µs" +
                       atCpu + "  (" + how(fit.inferenceFitted) + " " +
                       general(start.inferenceSecondsAtMaxCpu * 1e6, 6) + " µs)");
    fitLines.push_back(fit.quality);
    for (const std::string& line : fit.keptEstimates)
        fitLines.push_back("not fitted: " + line);
    if (!fit.classesAtEstimate.empty()) fitLines.push_back(fit.classesAtEstimate);
    if (!(fit.rooflineScale > 0))
        fitLines.push_back(
            "warning: the fit puts all of the latency in fixed costs (a = 0); the efficiencies are "
            "unchanged");

    parts.runs.title =
        "Runs (LAYERS: layers that dispatch a kernel; residual = " + measured + " - calibrated):";
    // the layers that launch a kernel (the dispatch term's count), not every layer of the model
    parts.runs.rows = {{"LINE", "MODE", "BATCH", "PRECISION", "KERNEL LAYERS", MEASURED + " ms",
                        start.name + " ms", "CALIBRATED ms", "RESIDUAL ms", "RESIDUAL %"}};
    for (const CalibratedRun& r : rows)
        parts.runs.rows.push_back(
            {std::to_string(r.run.line), modeText(r.mode), std::to_string(r.run.batch),
             precisionName(r.run.precision.value_or(result.request.settings.precision)),
             std::to_string(r.dispatchingLayers), fixed(r.run.latencySeconds * 1e3, 4),
             fixed(r.start.latencySeconds * 1e3, 4), fixed(r.calibrated.latencySeconds * 1e3, 4),
             fixed(r.residualSeconds * 1e3, 4), fixed(100.0 * r.residualSeconds / r.run.latencySeconds, 2)});

    parts.power.title = "Power: " + measured + " average power against the estimated power model (" +
                        start.name + ") and the calibrated one.";
    if (power.runs == 0) {
        parts.powerLines.push_back(
            "no run has a measured power_w; the runtime keeps the estimated power model");
    } else {
        parts.power.rows = {{"LINE", "MODE", "BATCH", "PRECISION", MEASURED + " W", "ESTIMATED W",
                             "CALIBRATED W", "ERROR %"}};
        for (const CalibratedRun& r : rows) {
            if (!(r.run.averageWatts > 0)) continue;
            parts.power.rows.push_back(
                {std::to_string(r.run.line), modeText(r.mode), std::to_string(r.run.batch),
                 precisionName(r.run.precision.value_or(result.request.settings.precision)),
                 fixed(r.run.averageWatts, 2), fixed(r.start.averageWatts, 2),
                 fixed(r.calibrated.averageWatts, 2),
                 fixed(100.0 * (r.calibrated.averageWatts - r.run.averageWatts) / r.run.averageWatts, 2)});
        }
        if (power.fit)
            parts.powerLines.push_back(
                "multipliers of the estimate: pi0 x " + general(power.fit->constantScale, 4) +
                ", eps_flop x " + general(power.fit->flopScale, 4) + ", eps_byte x " +
                general(power.fit->byteScale, 4) + " (provenance fitted in roofline, recommend and report)");
        parts.powerLines.push_back(power.quality);
    }
    for (const std::string& line : power.keptEstimates)
        parts.powerLines.push_back("not fitted: " + line);
    for (const std::string& line : result.warnings)
        parts.powerLines.push_back("warning: " + line);
    parts.footer =
        outputPath.empty()
            ? std::string("-o FILE writes the calibrated runtime; use it with --runtime-file FILE.")
            : "Wrote runtime '" + tuned.name + "' to " + outputPath + "; use it with --runtime-file " +
                  outputPath + " (rooftop modes, roofline, recommend, report, compare, llm).";
    return parts;
}

std::string calibrationTable(const CalibrationResult& result, const std::string& outputPath) {
    const CalibrationReportParts parts = calibrationReportParts(result, outputPath);
    std::string out = parts.headline + "\n";
    for (const std::string& line : parts.fitLines)
        out += "  " + line + "\n";
    out += "\n" + parts.runs.title + "\n" + formatTable(parts.runs.rows, 2, "  ");
    out += "\n" + parts.power.title + "\n";
    if (!parts.power.rows.empty()) out += formatTable(parts.power.rows, 2, "  ");
    for (const std::string& line : parts.powerLines)
        out += "  " + line + "\n";
    return out + "\n" + parts.footer + "\n";
}

} // namespace rooftop
