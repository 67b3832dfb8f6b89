// SPDX-License-Identifier: GPL-3.0-or-later
// The per-mode roofline predictions of an analysis as a table, long-format CSV or JSON
// ("rooftop-roofline/4").
#include "core/report/roofline_writers.h"

#include "core/common/text_format.h"
#include "core/report/json_values.h"
#include "core/report/prediction_bounds.h"
#include "core/report/recommendation_writers.h"
#include "core/report/text_table.h"
#include "core/report/workload_writers.h"
#include "core/roofline/roofline_curves.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <numeric>

namespace rooftop {
namespace {

// Training steps in an epoch of settings.samples; 0 when no epoch was asked for.
int64_t epochMinibatches(const AnalysisSettings& settings) {
    if (settings.phase != Phase::Training || settings.samples <= 0) return 0;
    return minibatchesPerEpoch(settings.samples, settings.dims.batch.value_or(1));
}

std::string sourced(const SourcedValue& v, double scale, const char* unit) {
    return general(v.value / scale, 4) + " " + unit + " (" + provenanceName(v.provenance) + ")";
}

} // namespace

std::string rooflineJson(const AnalysisResult& result) {
    const double confidence = result.request.constraints.confidence; // of the predictions' bounds
    const AnalysisRequest& o = result.request;
    const DeviceSpec& device = result.device;
    const RuntimeProfile& runtime = result.runtime;
    const Workload& workload = result.workload();
    const std::vector<ModelPrediction>& predictions = result.predictions;
    QJsonArray modes;
    for (const ModelPrediction& p : predictions) {
        const ModeProfile& profile = p.profile;
        QJsonObject power{{"constant_w", sourcedJson(profile.power.constantPower)},
                          {"j_per_flop", sourcedJson(profile.power.energyPerFlop)},
                          {"j_per_byte", sourcedJson(profile.power.energyPerByte)},
                          {"tensor_flop_energy_ratio", profile.power.tensorFlopEnergyRatio}};
        if (profile.power.rSquared >= 0) power.insert("r_squared", profile.power.rSquared);
        QJsonArray layers;
        for (size_t i = 0; i < p.layers.size(); ++i) {
            const LayerCount& l = workload.layers[i];
            const LayerPrediction& lp = p.layers[i];
            layers.append(QJsonObject{{"name", QString::fromStdString(l.name)},
                                      {"op", QString::fromStdString(l.op)},
                                      {"flops", static_cast<double>(l.flops)},
                                      {"bytes", static_cast<double>(l.bytes())},
                                      {"time_ms", lp.seconds * 1e3},
                                      {"dispatch_ms", lp.dispatchSeconds * 1e3},
                                      {"energy_mj", lp.joules * 1e3},
                                      {"bound", boundName(lp.bound)},
                                      {"compute_class", computeClassName(lp.computeClass)}});
        }
        const PowerMode& m = profile.mode;
        QJsonObject mode{
            {"mode", QString::fromStdString(m.name)},
            {"stock", m.stock},
            {"cores", m.onlineCores},
            {"cpu_khz", static_cast<double>(m.cpuKhz)},
            {"gpu_hz", static_cast<double>(m.gpuHz)},
            {"emc_hz", static_cast<double>(m.emcHz)},
            {"active_tpcs", m.activeTpcs},
            {"latency_ms", p.latencySeconds * 1e3},
            {"latency_ms_interval", boundsJson(p.latencySeconds, p.spread.latency, 1e3, confidence)},
            {"batch_energy_mj", p.energyJoules * 1e3},
            {"batch_energy_mj_interval", boundsJson(p.energyJoules, p.spread.energy, 1e3, confidence)},
            {"energy_mj", p.energyPerInference() * 1e3},
            {"energy_mj_interval", boundsJson(p.energyPerInference(), p.spread.energy, 1e3, confidence)},
            {"inferences_per_s", p.inferencesPerSecond()},
            // a rate's bounds are the latency's, turned over (the spread is of the log)
            {"inferences_per_s_interval",
             boundsJson(p.inferencesPerSecond(), p.spread.latency, 1.0, confidence)},
            {"power_w", p.averageWatts},
            {"power_w_interval", boundsJson(p.averageWatts, p.spread.power, 1.0, confidence)},
            {"provenance", provenanceName(p.provenance)},
            {"power_model", power},
            {"balance",
             QJsonObject{{"time_fp32", timeBalance(profile.ceilings, ComputeClass::Fp32CudaCore)},
                         {"time_tensor_fp16", timeBalance(profile.ceilings, ComputeClass::TensorFp16)},
                         {"energy", energyBalance(profile.power, ComputeClass::Fp32CudaCore)}}},
            {"layers", layers}};
        insertCeilingsJson(mode, profile.ceilings); // modes' names (roofline/2: ceilings.fp32_flops, ...)
        if (m.stock) mode.insert("stock_id", m.stockId);
        if (const int64_t steps = epochMinibatches(o.settings); steps > 0) {
            mode.insert("epoch_minibatches", static_cast<double>(steps));
            const double n = static_cast<double>(steps);
            mode.insert("epoch_s", p.latencySeconds * n);
            mode.insert("epoch_s_interval",
                        boundsJson(p.latencySeconds * n, p.spread.latency, 1.0, confidence));
            mode.insert("epoch_kj", p.energyJoules * n * 1e-3);
            mode.insert("epoch_kj_interval",
                        boundsJson(p.energyJoules * n, p.spread.energy, 1e-3, confidence));
        }
        const size_t index = static_cast<size_t>(&p - predictions.data());
        if (index < result.extrapolated.size()) mode.insert("extrapolated", bool(result.extrapolated[index]));
        modes.append(mode);
    }
    QJsonObject root{{"schema", "rooftop-roofline/4"},
                     {"model", QString::fromStdString(o.modelPath)},
                     {"device", QString::fromStdString(device.id)},
                     {"runtime", runtimeSummaryJson(runtime)},
                     {"batch", static_cast<double>(o.settings.dims.batch.value_or(1))},
                     {"precision", QString::fromStdString(precisionName(o.settings.precision))},
                     {"traffic", QString::fromStdString(trafficViewName(o.settings.traffic))},
                     {"convention", QString::fromStdString(conventionName(o.settings.convention))},
                     {"confidence", confidence},
                     {"interval_basis", QString::fromStdString(predictionBoundsBasis(result))},
                     {"modes", modes}};
    if (!o.profilePath.empty()) root.insert("profile", QString::fromStdString(o.profilePath));
    root.insert("dims", namedDimsJson(o.settings.dims.named));
    root.insert("phase", QString::fromStdString(phaseName(o.settings.phase)));
    if (o.settings.phase == Phase::Training)
        root.insert("optimizer", QString::fromStdString(optimizerName(o.settings.optimizer)));
    if (!result.predictions.empty()) // as recommend and modes give it
        root.insert("prediction_basis", QString::fromStdString(analysisPredictionBasis(result)));
    if (!result.predictorBasis.empty()) {
        // each mode's totals are the predictor's; its layers' times and energies stay the roofline's
        root.insert("layers_basis", "the roofline's per-layer prediction (an estimate): the predictor "
                                    "predicts each mode's latency, power and energy, not its layers");
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

// Long format: one line per mode and layer, the mode's totals repeated on each.
std::string rooflineCsv(const AnalysisResult& result) {
    const double confidence = result.request.constraints.confidence; // of the predictions' bounds
    const Workload& workload = result.workload();
    const std::vector<ModelPrediction>& predictions = result.predictions;
    std::string out =
        "mode,mode_latency_ms,mode_batch_energy_mj,mode_power_w,mode_provenance,layer,op,compute_class,"
        "bound,flops,bytes,time_ms,dispatch_ms,energy_mj,mode_latency_ms_low,mode_latency_ms_high,"
        "mode_batch_energy_mj_low,mode_batch_energy_mj_high,mode_power_w_low,mode_power_w_high,bounds_"
        "confidence\n";
    for (const ModelPrediction& p : predictions) {
        const std::string prefix = csvField(p.profile.mode.name) + "," + general(p.latencySeconds * 1e3, 9) +
                                   "," + general(p.energyJoules * 1e3, 9) + "," + general(p.averageWatts, 9) +
                                   "," + provenanceName(p.provenance) + ",";
        // the mode's totals' bounds, after each line's own columns
        const std::string bounds = boundsCsv(p.latencySeconds, p.spread.latency, 1e3, confidence) +
                                   boundsCsv(p.energyJoules, p.spread.energy, 1e3, confidence) +
                                   boundsCsv(p.averageWatts, p.spread.power, 1.0, confidence) +
                                   boundsConfidenceCsv(confidence);
        for (size_t i = 0; i < p.layers.size(); ++i) {
            const LayerCount& l = workload.layers[i];
            const LayerPrediction& lp = p.layers[i];
            out += prefix + csvField(l.name) + "," + csvField(l.op) + "," +
                   computeClassName(lp.computeClass) + "," + boundName(lp.bound) + "," +
                   std::to_string(l.flops) + "," + std::to_string(l.bytes()) + "," +
                   general(lp.seconds * 1e3, 9) + "," + general(lp.dispatchSeconds * 1e3, 9) + "," +
                   general(lp.joules * 1e3, 9) + bounds + "\n";
        }
    }
    return out;
}

std::string rooflineTable(const AnalysisResult& result) {
    const double confidence = result.request.constraints.confidence; // of the predictions' bounds
    const AnalysisRequest& o = result.request;
    const DeviceSpec& device = result.device;
    const RuntimeProfile& runtime = result.runtime;
    const Workload& workload = result.workload();
    const std::vector<ModelPrediction>& predictions = result.predictions;
    const int64_t batch = o.settings.dims.batch.value_or(1);
    std::string out =
        o.modelPath + " on " + device.id + " (" + device.name + "), runtime " + runtime.name +
        (runtime.calibratedOnSimulator ? " (" + calibrationWords(runtime) + ")" : std::string()) +
        ", batch " + std::to_string(batch) + ", " + trafficViewName(o.settings.traffic) + " traffic, " +
        precisionName(o.settings.precision) + " precision" +
        (o.profilePath.empty() ? std::string(", no measured profile") : ", profile " + o.profilePath) + "\n" +
        assumedDimsLine(workload.info, true);
    if (o.settings.phase == Phase::Training)
        out +=
            "Training step (" + optimizerName(o.settings.optimizer) +
            "): latency and energy are one minibatch's forward, backward and update; energy and rate are per "
            "sample\n";
    out += "\n";
    if (!result.predictorBasis.empty())
        out += "Latency, energy and power of each mode: predicted, " + result.predictorBasis +
               " (the layers below are the roofline's)\n\n";
    const bool training = o.settings.phase == Phase::Training;
    std::vector<std::vector<std::string>> summary = {
        {"MODE", "PROVENANCE", training ? "PER STEP" : "LATENCY", "ENERGY mJ",
         training ? "mJ/SAMPLE" : "mJ/INFERENCE", "AVG POWER W", training ? "SAMPLES/s" : "INFERENCES/s"}};
    for (const ModelPrediction& p : predictions) {
        // the rate's bounds are the latency's, inverted
        const Interval latency = intervalAt(p.latencySeconds, p.spread.latency, confidence);
        const std::string rateBounds = p.spread.latency > 0 && latency.low > 0 && confidence > 0.5
                                           ? " [" + compactNumber(double(p.batch) / latency.high) + "–" +
                                                 compactNumber(double(p.batch) / latency.low) + "]"
                                           : std::string();
        const size_t index = static_cast<size_t>(&p - predictions.data());
        const bool extrapolated = index < result.extrapolated.size() && result.extrapolated[index];
        summary.push_back(
            {p.profile.mode.name,
             std::string(provenanceName(p.provenance)) + (extrapolated ? " (extrapolated)" : ""),
             durationWithBounds(p.latencySeconds, p.spread.latency, confidence),
             withBounds(fixed(p.energyJoules * 1e3, 2), p.energyJoules, p.spread.energy, 1e3, confidence),
             withBounds(fixed(p.energyPerInference() * 1e3, 2), p.energyPerInference(), p.spread.energy, 1e3,
                        confidence),
             withBounds(fixed(p.averageWatts, 2), p.averageWatts, p.spread.power, 1.0, confidence),
             fixed(p.inferencesPerSecond(), 1) + rateBounds});
    }
    out += formatTable(summary, 2, "");
    if (!predictions.empty() && confidence > 0.5) out += boundsLegend(result) + "\n";
    if (const int64_t steps = epochMinibatches(o.settings); steps > 0) {
        std::vector<std::vector<std::string>> epoch = {{"MODE", "EPOCH s", "EPOCH kJ"}};
        for (const ModelPrediction& p : predictions)
            epoch.push_back({p.profile.mode.name,
                             // three digits, as the bounds beside them (an epoch of 0.0992 kJ read 0.10)
                             withBounds(compactNumber(p.latencySeconds * double(steps)),
                                        p.latencySeconds * double(steps), p.spread.latency, 1.0, confidence),
                             withBounds(compactNumber(p.energyJoules * double(steps) * 1e-3),
                                        p.energyJoules * double(steps), p.spread.energy, 1e-3, confidence)});
        out += "\nEpoch of " + countedNoun(o.settings.samples, "sample", "samples") + " = " +
               countedNoun(steps, "minibatch", "minibatches") + " of " + std::to_string(batch) + ":\n" +
               formatTable(epoch, 2, "");
    }

    for (const ModelPrediction& p : predictions) {
        const ModeProfile& profile = p.profile;
        const PowerMode& m = profile.mode;
        out += "\n" + m.name + ": " + std::to_string(m.onlineCores) + " cores, CPU " + mhz(m.cpuKhz * 1e3) +
               " MHz, GPU " + mhz(static_cast<double>(m.gpuHz)) + " MHz, EMC " +
               mhz(static_cast<double>(m.emcHz)) + " MHz, " + std::to_string(m.activeTpcs) + " TPCs\n";
        // " (≤ HIGH UNIT)" after a total, HIGH formatted by `format`; nothing without a spread
        const auto bound = [confidence](double value, double spread, const auto& format) {
            const double high = upperBound(value, spread, confidence);
            return high > value ? " (≤ " + format(high) + ")" : std::string();
        };
        out += "  total: " + duration(p.latencySeconds) +
               bound(p.latencySeconds, p.spread.latency, [](double high) { return duration(high); }) + ", " +
               fixed(p.energyJoules * 1e3, 2) + " mJ" +
               bound(p.energyJoules, p.spread.energy,
                     [](double high) { return compactNumber(high * 1e3) + " mJ"; }) +
               ", " + fixed(p.averageWatts, 2) + " W" +
               bound(p.averageWatts, p.spread.power, [](double high) { return compactNumber(high) + " W"; }) +
               " average (" + provenanceName(p.provenance) +
               (p.spread.latency > 0 && confidence > 0.5 ? ", ≤: at " + confidenceText(confidence)
                                                         : std::string()) +
               ")\n";
        int bounds[3] = {};
        double boundSeconds[3] = {};
        // shares of the roofline's own time (its layers and fixed cost): a predictor's total replaces the
        // latency above, not the layers', so shares of it would not add up
        double rooflineSeconds = p.fixedSeconds;
        for (const LayerPrediction& l : p.layers) {
            if (l.seconds <= 0) continue;
            ++bounds[static_cast<int>(l.bound)];
            boundSeconds[static_cast<int>(l.bound)] += l.seconds;
            rooflineSeconds += l.seconds;
        }
        auto share = [&](double seconds, int decimals = 0) {
            return fixed(rooflineSeconds > 0 ? 100.0 * seconds / rooflineSeconds : 0.0, decimals) + " %";
        };
        out += "  layers: " + std::to_string(bounds[0]) + " compute-bound (" + share(boundSeconds[0]) +
               " of the roofline's time), " + std::to_string(bounds[1]) + " memory-bound (" +
               share(boundSeconds[1]) + "), " + std::to_string(bounds[2]) + " overhead-bound (" +
               share(boundSeconds[2]) + ")" +
               (p.fixedSeconds > 0 ? ", fixed cost per inference " + share(p.fixedSeconds) : std::string()) +
               "\n";
        out += "  roofs: FP32 " +
               sourced(profile.ceilings.peak(ComputeClass::Fp32CudaCore), 1e12, "TFLOP/s") +
               ", tensor FP16 " + sourced(profile.ceilings.peak(ComputeClass::TensorFp16), 1e12, "TFLOP/s") +
               ", BW " + sourced(profile.ceilings.bandwidth, 1e9, "GB/s") + ", t0 " +
               sourced(profile.ceilings.dispatchOverhead, 1e-6, "µs") +
               (profile.ceilings.inferenceOverhead.value > 0
                    ? ", per inference " + sourced(profile.ceilings.inferenceOverhead, 1e-6, "µs")
                    : std::string()) +
               "\n";
        out += "  power: pi0 " + sourced(profile.power.constantPower, 1, "W") + ", eps_flop " +
               sourced(profile.power.energyPerFlop, 1e-12, "pJ") + ", eps_byte " +
               sourced(profile.power.energyPerByte, 1e-12, "pJ") + "; B_tau " +
               general(timeBalance(profile.ceilings, ComputeClass::Fp32CudaCore), 4) +
               " FLOP/B (FP32), B_eps " +
               general(energyBalance(profile.power, ComputeClass::Fp32CudaCore), 4) + " FLOP/B\n";

        std::vector<size_t> order(p.layers.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return p.layers[a].seconds > p.layers[b].seconds; });
        if (order.size() > 10) order.resize(10);
        std::vector<std::vector<std::string>> rows = {
            {"LAYER", "OP", "CLASS", "BOUND", "TIME", "ENERGY mJ", "SHARE"}};
        for (size_t i : order) {
            const LayerPrediction& l = p.layers[i];
            rows.push_back({workload.layers[i].name, workload.layers[i].op, computeClassName(l.computeClass),
                            boundName(l.bound), duration(l.seconds), fixed(l.joules * 1e3, 3),
                            share(l.seconds, 1)});
        }
        out += "  top " + std::to_string(order.size()) + " layers by time:\n" + formatTable(rows, 2, "    ");
    }
    out +=
        "\nProvenance: datasheet = arithmetic on vendor figures; estimate = a modelling assumption (the "
        "runtime's\n"
        "efficiencies and dispatch cost, the catalog's energy basis); measured comes from --profile, fitted\n"
        "from --profile or --runtime-file (a calibration), predicted from --predictor (a learned model). A "
        "total\n"
        "carries the weakest provenance of its inputs. --format json gives every basis.\n";
    return out;
}

} // namespace rooftop
