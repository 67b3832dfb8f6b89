// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop roofline MODEL --device ID`: every layer's time, energy and bound, and the model's latency, energy
// and average power, in each requested power mode (stock modes by default), with the provenance of every
// number (DESIGN.md "Rooflines").
#include "cli/analysis_options.h"
#include "cli/argument_list.h"
#include "cli/commands.h"
#include "cli/text_table.h"
#include "cli/runtime_option.h"
#include "core/device/catalog.h"
#include "core/device/measured_profile.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/onnx/input_error.h"
#include "core/roofline/prediction.h"
#include "core/roofline/roofline_curves.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <numeric>

namespace rooftop::cli {

namespace {

const char* const ceilingKeys[computeClassCount] = {"fp32_flops", "fp16_flops", "tensor_fp16_flops", "tensor_int8_ops"};

struct Options {
    std::string model, deviceId, profilePath, format = "table", outputPath;
    RuntimeChoice runtime;
    std::vector<std::string> modeArgs;
    AnalysisSettings settings;
};

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string general(double value, int digits = 4) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

std::string mhz(double hz) { return general(hz / 1e6, 6); }

bool allDigits(const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string stockNames(const DeviceSpec& device) {
    std::string names;
    for (const auto& m : device.stockModes) names += (names.empty() ? "" : ", ") + m.name;
    return names.empty() ? std::string("none") : names;
}

// "all", a stock name or id, or a custom cores=..,cpu=..,gpu=..,emc=.. spec.
std::vector<PowerMode> selectModes(const DeviceSpec& device, const std::vector<std::string>& modeArgs) {
    std::vector<PowerMode> modes;
    auto add = [&](const PowerMode& m) {
        if (std::none_of(modes.begin(), modes.end(), [&](const PowerMode& x) { return x.name == m.name; }))
            modes.push_back(m);
    };
    const std::vector<std::string> wanted = modeArgs.empty() ? std::vector<std::string>{"all"} : modeArgs;
    for (const std::string& arg : wanted) {
        if (arg == "all") {
            for (const PowerMode& m : stockPowerModes(device)) add(m);
        } else if (arg.find('=') != std::string::npos) {
            add(parseCustomMode(device, arg));
        } else if (const StockMode* named = device.stockModeNamed(arg)) {
            add(powerModeFrom(device, *named));
        } else if (const StockMode* byId = allDigits(arg) && arg.size() < 9 ? device.stockMode(std::stoi(arg)) : nullptr) {
            add(powerModeFrom(device, *byId));
        } else {
            throw InputError("unknown mode '" + arg + "' for " + device.id + "; stock modes: " + stockNames(device) +
                             " (or all, or a custom mode cores=N,cpu=KHZ,gpu=HZ,emc=HZ)");
        }
    }
    if (modes.empty()) throw InputError(device.id + " has no stock power modes; give --mode cores=N,cpu=KHZ,gpu=HZ,emc=HZ");
    return modes;
}

QJsonObject sourcedJson(const SourcedValue& v) {
    return QJsonObject{{"value", v.value},
                       {"provenance", provenanceName(v.provenance)},
                       {"basis", QString::fromStdString(v.basis)}};
}

std::string toJson(const Options& o, const DeviceSpec& device, const RuntimeProfile& runtime, const Workload& workload,
                   const std::vector<ModelPrediction>& predictions) {
    QJsonArray modes;
    for (const ModelPrediction& p : predictions) {
        const ModeProfile& profile = p.profile;
        QJsonObject ceilings;
        for (int c = 0; c < computeClassCount; ++c)
            ceilings.insert(ceilingKeys[c], sourcedJson(profile.ceilings.peakFlops[static_cast<size_t>(c)]));
        ceilings.insert("bandwidth", sourcedJson(profile.ceilings.bandwidth));
        ceilings.insert("dispatch_s", sourcedJson(profile.ceilings.dispatchOverhead));
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
        QJsonObject mode{{"name", QString::fromStdString(m.name)},
                         {"stock", m.stock},
                         {"online_cores", m.onlineCores},
                         {"cpu_khz", static_cast<double>(m.cpuKhz)},
                         {"gpu_hz", static_cast<double>(m.gpuHz)},
                         {"emc_hz", static_cast<double>(m.emcHz)},
                         {"active_tpcs", m.activeTpcs},
                         {"latency_ms", p.latencySeconds * 1e3},
                         {"energy_mj", p.energyJoules * 1e3},
                         {"energy_per_inference_mj", p.energyPerInference() * 1e3},
                         {"inferences_per_s", p.inferencesPerSecond()},
                         {"avg_power_w", p.averageWatts},
                         {"provenance", provenanceName(p.provenance)},
                         {"ceilings", ceilings},
                         {"power_model", power},
                         {"balance", QJsonObject{{"time_fp32", timeBalance(profile.ceilings, ComputeClass::Fp32CudaCore)},
                                                 {"time_tensor_fp16", timeBalance(profile.ceilings, ComputeClass::TensorFp16)},
                                                 {"energy", energyBalance(profile.power, ComputeClass::Fp32CudaCore)}}},
                         {"layers", layers}};
        if (m.stock) mode.insert("stock_id", m.stockId);
        modes.append(mode);
    }
    QJsonObject root{{"schema", "rooftop-roofline/1"},
                     {"model", QString::fromStdString(o.model)},
                     {"device", QString::fromStdString(device.id)},
                     {"runtime", QString::fromStdString(runtime.name)},
                     {"batch", static_cast<double>(o.settings.dims.batch.value_or(1))},
                     {"precision", QString::fromStdString(precisionName(o.settings.precision))},
                     {"traffic", QString::fromStdString(trafficViewName(o.settings.traffic))},
                     {"convention", QString::fromStdString(conventionName(o.settings.convention))},
                     {"modes", modes}};
    if (!o.profilePath.empty()) root.insert("profile", QString::fromStdString(o.profilePath));
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// Long format: one line per mode and layer, the mode's totals repeated on each.
std::string toCsv(const Workload& workload, const std::vector<ModelPrediction>& predictions) {
    std::string out = "mode,mode_latency_ms,mode_energy_mj,mode_avg_power_w,mode_provenance,layer,op,compute_class,"
                      "bound,flops,bytes,time_ms,dispatch_ms,energy_mj\n";
    for (const ModelPrediction& p : predictions) {
        const std::string prefix = csvField(p.profile.mode.name) + "," + general(p.latencySeconds * 1e3, 9) + "," +
                                   general(p.energyJoules * 1e3, 9) + "," + general(p.averageWatts, 9) + "," +
                                   provenanceName(p.provenance) + ",";
        for (size_t i = 0; i < p.layers.size(); ++i) {
            const LayerCount& l = workload.layers[i];
            const LayerPrediction& lp = p.layers[i];
            out += prefix + csvField(l.name) + "," + csvField(l.op) + "," + computeClassName(lp.computeClass) + "," +
                   boundName(lp.bound) + "," + std::to_string(l.flops) + "," + std::to_string(l.bytes()) + "," +
                   general(lp.seconds * 1e3, 9) + "," + general(lp.dispatchSeconds * 1e3, 9) + "," +
                   general(lp.joules * 1e3, 9) + "\n";
        }
    }
    return out;
}

std::string sourced(const SourcedValue& v, double scale, const char* unit) {
    return general(v.value / scale) + " " + unit + " (" + provenanceName(v.provenance) + ")";
}

std::string toTable(const Options& o, const DeviceSpec& device, const RuntimeProfile& runtime, const Workload& workload,
                    const std::vector<ModelPrediction>& predictions) {
    const int64_t batch = o.settings.dims.batch.value_or(1);
    std::string out = o.model + " on " + device.id + " (" + device.name + "), runtime " + runtime.name + ", batch " +
                      std::to_string(batch) + ", " + trafficViewName(o.settings.traffic) + " traffic, " +
                      precisionName(o.settings.precision) + " precision" +
                      (o.profilePath.empty() ? std::string(", no measured profile") : ", profile " + o.profilePath) +
                      "\n\n";
    std::vector<std::vector<std::string>> summary = {
        {"MODE", "PROVENANCE", "LATENCY ms", "ENERGY mJ", "mJ/INFERENCE", "AVG POWER W", "INFERENCES/s"}};
    for (const ModelPrediction& p : predictions)
        summary.push_back({p.profile.mode.name, provenanceName(p.provenance), fixed(p.latencySeconds * 1e3, 3),
                           fixed(p.energyJoules * 1e3, 2), fixed(p.energyPerInference() * 1e3, 2),
                           fixed(p.averageWatts, 2), fixed(p.inferencesPerSecond(), 1)});
    out += formatTable(summary, 2, "");

    for (const ModelPrediction& p : predictions) {
        const ModeProfile& profile = p.profile;
        const PowerMode& m = profile.mode;
        out += "\n" + m.name + ": " + std::to_string(m.onlineCores) + " cores, CPU " + mhz(m.cpuKhz * 1e3) +
               " MHz, GPU " + mhz(static_cast<double>(m.gpuHz)) + " MHz, EMC " + mhz(static_cast<double>(m.emcHz)) +
               " MHz, " + std::to_string(m.activeTpcs) + " TPCs\n";
        out += "  total: " + fixed(p.latencySeconds * 1e3, 3) + " ms, " + fixed(p.energyJoules * 1e3, 2) + " mJ, " +
               fixed(p.averageWatts, 2) + " W average (" + provenanceName(p.provenance) + ")\n";
        int bounds[3] = {};
        double boundSeconds[3] = {};
        for (const LayerPrediction& l : p.layers) {
            if (l.seconds <= 0) continue;
            ++bounds[static_cast<int>(l.bound)];
            boundSeconds[static_cast<int>(l.bound)] += l.seconds;
        }
        auto share = [&](int b) {
            return fixed(p.latencySeconds > 0 ? 100.0 * boundSeconds[b] / p.latencySeconds : 0.0, 0) + " %";
        };
        out += "  layers: " + std::to_string(bounds[0]) + " compute-bound (" + share(0) + " of the time), " +
               std::to_string(bounds[1]) + " memory-bound (" + share(1) + "), " + std::to_string(bounds[2]) +
               " overhead-bound (" + share(2) + ")\n";
        out += "  roofs: FP32 " + sourced(profile.ceilings.peak(ComputeClass::Fp32CudaCore), 1e12, "TFLOP/s") +
               ", tensor FP16 " + sourced(profile.ceilings.peak(ComputeClass::TensorFp16), 1e12, "TFLOP/s") + ", BW " +
               sourced(profile.ceilings.bandwidth, 1e9, "GB/s") + ", t0 " +
               sourced(profile.ceilings.dispatchOverhead, 1e-6, "us") + "\n";
        out += "  power: pi0 " + sourced(profile.power.constantPower, 1, "W") + ", eps_flop " +
               sourced(profile.power.energyPerFlop, 1e-12, "pJ") + ", eps_byte " +
               sourced(profile.power.energyPerByte, 1e-12, "pJ") + "; B_tau " +
               general(timeBalance(profile.ceilings, ComputeClass::Fp32CudaCore)) + " FLOP/B (FP32), B_eps " +
               general(energyBalance(profile.power, ComputeClass::Fp32CudaCore)) + " FLOP/B\n";

        std::vector<size_t> order(p.layers.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return p.layers[a].seconds > p.layers[b].seconds; });
        if (order.size() > 10) order.resize(10);
        std::vector<std::vector<std::string>> rows = {{"LAYER", "OP", "CLASS", "BOUND", "TIME ms", "ENERGY mJ", "SHARE"}};
        for (size_t i : order) {
            const LayerPrediction& l = p.layers[i];
            rows.push_back({workload.layers[i].name, workload.layers[i].op, computeClassName(l.computeClass),
                            boundName(l.bound), fixed(l.seconds * 1e3, 4), fixed(l.joules * 1e3, 3),
                            fixed(p.latencySeconds > 0 ? 100.0 * l.seconds / p.latencySeconds : 0.0, 1) + " %"});
        }
        out += "  top " + std::to_string(order.size()) + " layers by time:\n" + formatTable(rows, 2, "    ");
    }
    out += "\nProvenance: datasheet = arithmetic on vendor figures; estimate = a modelling assumption (the runtime's\n"
           "efficiencies and dispatch cost, the catalog's energy basis); measured / fitted / predicted come from\n"
           "--profile. A total carries the weakest provenance of its inputs. --format json gives every basis.\n";
    return out;
}

void printHelp() {
    std::cout << "Usage: rooftop roofline MODEL.onnx --device ID [options]\n"
                 "Predicts every layer's time (max(W/peak, Q/BW) + t0), energy (eps_flop W + eps_byte Q + pi0 T)\n"
                 "and bound, and the model's latency, energy and average power, in each power mode.\n\n"
                 "  --device ID               board id (rooftop devices lists them)\n"
                 "  --mode M                  all (default: every stock mode), a stock mode name or id, or a custom\n"
                 "                            mode cores=N,cpu=KHZ,gpu=HZ,emc=HZ from the board's ladders (repeatable)\n"
              << runtimeOptionsHelp()
              << "  --profile FILE            a measured profile (rooftop bench) replacing derived ceilings\n"
                 "                            and power\n"
              << analysisOptionsHelp()
              << "  --format F                table | csv | json\n"
                 "  -o, --output FILE         write to FILE instead of standard output\n";
}

} // namespace

int runRoofline(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    Options o;
    while (args.more()) {
        if (!args.nextIsOption()) {
            if (!o.model.empty()) throw InputError("roofline takes one model, got a second: '" + args.takePositional() + "'");
            o.model = args.takePositional();
            continue;
        }
        const std::string option = args.takeOption();
        if (takeAnalysisOption(option, args, o.settings)) continue;
        if (option == "--device") {
            o.deviceId = args.takeValue(option);
        } else if (option == "--mode") {
            o.modeArgs.push_back(args.takeValue(option));
        } else if (RuntimeChoice::isRuntimeOption(option)) {
            o.runtime.take(option, args.takeValue(option));
        } else if (option == "--profile") {
            o.profilePath = args.takeValue(option);
        } else if (option == "--format") {
            o.format = args.takeValue(option);
            if (o.format != "table" && o.format != "csv" && o.format != "json")
                throw InputError("--format must be table, csv or json, got '" + o.format + "'");
        } else if (option == "-o" || option == "--output") {
            o.outputPath = args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            printHelp();
            return ExitOk;
        } else {
            throw InputError("roofline: unknown option '" + option + "'");
        }
    }
    if (o.model.empty()) throw InputError("roofline needs a model: rooftop roofline MODEL.onnx --device ID");
    if (o.deviceId.empty()) throw InputError("roofline needs a board: --device ID (rooftop devices lists them)");

    const std::vector<DeviceSpec> catalog = loadCatalogWithDetected(defaultCatalogFolder(), o.deviceId);
    const DeviceSpec& device = findDevice(catalog, o.deviceId);
    const RuntimeProfile runtime = o.runtime.resolve();
    const std::vector<PowerMode> modes = selectModes(device, o.modeArgs);
    std::optional<MeasuredProfile> measured;
    if (!o.profilePath.empty()) measured = loadMeasuredProfile(o.profilePath);
    const std::vector<ModeProfile> profiles =
        resolveModeProfiles(device, modes, runtime, measured ? &*measured : nullptr);

    const Workload workload = analyzeModelFile(o.model, o.settings);
    std::vector<ModelPrediction> predictions;
    predictions.reserve(profiles.size());
    for (const ModeProfile& profile : profiles) predictions.push_back(predict(workload, profile));

    const std::string text = o.format == "json"  ? toJson(o, device, runtime, workload, predictions)
                             : o.format == "csv" ? toCsv(workload, predictions)
                                                 : toTable(o, device, runtime, workload, predictions);
    writeOutput(o.outputPath, text);
    return ExitOk;
}

} // namespace rooftop::cli
