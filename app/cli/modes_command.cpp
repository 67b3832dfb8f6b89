// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop modes --device ID`: the stock modes (or the custom grid, or given custom modes) of a board with the
// ceilings deriveCeilings() gives each, and the provenance of every ceiling.
#include "cli/argument_list.h"
#include "cli/commands.h"
#include "cli/text_table.h"
#include "cli/runtime_option.h"
#include "core/device/catalog.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/onnx/input_error.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace rooftop::cli {

namespace {

struct ModeRow {
    PowerMode mode;
    Ceilings ceilings;
};

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string mhz(double hz) {
    std::string text = fixed(hz / 1e6, 2);
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

std::string sourced(const SourcedValue& v, double scale, int decimals) {
    return fixed(v.value / scale, decimals) + " " + provenanceName(v.provenance);
}

std::string idText(const DeviceSpec& device, const PowerMode& mode) {
    if (!mode.stock) return "-";
    return std::to_string(mode.stockId) + (mode.stockId == device.defaultModeId ? "*" : "");
}

std::string modesTable(const DeviceSpec& device, const RuntimeProfile& runtime, const std::vector<ModeRow>& rows,
                       const std::string& what) {
    std::string out = device.id + " (" + device.name + "): " + what + "\n";
    out += "Runtime " + runtime.name + ": " + fixed(runtime.dispatchSecondsAtMaxCpu * 1e6, 1) +
           " us per layer at the top CPU clock, peaks x " + fixed(runtime.computeEfficiency, 2) + ", bandwidth x " +
           fixed(runtime.bandwidthEfficiency, 2) +
           (runtime.calibrated ? " (calibrated)" : runtime.name == "ideal" ? " (no runtime)" : " (estimates)") +
           (runtime.name == "ideal" ? "" : "; --runtime ideal shows the datasheet roofs") + "\n\n";
    std::vector<std::vector<std::string>> cells = {{"ID", "NAME", "CORES", "CPU MHz", "GPU MHz", "EMC MHz", "TPCs",
                                                    "BUDGET W", "FP32 TFLOP/s", "TENSOR FP16 TFLOP/s", "BW GB/s",
                                                    "DISPATCH us"}};
    for (const auto& r : rows) {
        const PowerMode& m = r.mode;
        cells.push_back({idText(device, m), m.name, std::to_string(m.onlineCores), mhz(m.cpuKhz * 1e3), mhz(m.gpuHz),
                         mhz(m.emcHz), std::to_string(m.activeTpcs), m.budgetWatts > 0 ? fixed(m.budgetWatts, 0) : "-",
                         sourced(r.ceilings.peak(ComputeClass::Fp32CudaCore), 1e12, 4),
                         sourced(r.ceilings.peak(ComputeClass::TensorFp16), 1e12, 2),
                         sourced(r.ceilings.bandwidth, 1e9, 1), sourced(r.ceilings.dispatchOverhead, 1e-6, 1)});
    }
    out += formatTable(cells, {false, false, true, true, true, true, true, true, true, true, true, true});
    out += "\n";
    if (std::any_of(rows.begin(), rows.end(), [](const ModeRow& r) { return r.mode.stock; }))
        out += "* = nvpmodel default mode. ";
    out += "Each ceiling is followed by its provenance (datasheet: arithmetic on vendor figures; estimate: a\n"
           "modelling assumption). --format json gives the basis of every number.\n";
    return out;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string modesCsv(const DeviceSpec& device, const std::vector<ModeRow>& rows) {
    std::string out = "device,id,name,stock,default,online_cores,cpu_mhz,gpu_mhz,emc_mhz,active_tpcs,budget_watts,"
                      "fp32_tflops,fp32_provenance,fp16_tflops,fp16_provenance,tensor_fp16_tflops,"
                      "tensor_fp16_provenance,tensor_int8_tops,tensor_int8_provenance,bandwidth_gbps,"
                      "bandwidth_provenance,dispatch_us,dispatch_provenance\n";
    for (const auto& r : rows) {
        const PowerMode& m = r.mode;
        std::string line = device.id + "," + (m.stock ? std::to_string(m.stockId) : std::string()) + "," +
                           csvField(m.name) + "," + (m.stock ? "1" : "0") + "," +
                           (m.stock && m.stockId == device.defaultModeId ? "1" : "0") + "," +
                           std::to_string(m.onlineCores) + "," + mhz(m.cpuKhz * 1e3) + "," + mhz(m.gpuHz) + "," +
                           mhz(m.emcHz) + "," + std::to_string(m.activeTpcs) + "," + fixed(m.budgetWatts, 1);
        for (int c = 0; c < computeClassCount; ++c) {
            const SourcedValue& v = r.ceilings.peakFlops[static_cast<size_t>(c)];
            line += "," + fixed(v.value / 1e12, 6) + "," + provenanceName(v.provenance);
        }
        line += "," + fixed(r.ceilings.bandwidth.value / 1e9, 3) + "," + provenanceName(r.ceilings.bandwidth.provenance);
        line += "," + fixed(r.ceilings.dispatchOverhead.value * 1e6, 3) + "," +
                provenanceName(r.ceilings.dispatchOverhead.provenance);
        out += line + "\n";
    }
    return out;
}

QJsonObject sourcedJson(const SourcedValue& v) {
    return QJsonObject{{"value", v.value},
                       {"provenance", provenanceName(v.provenance)},
                       {"basis", QString::fromStdString(v.basis)}};
}

std::string modesJson(const DeviceSpec& device, const RuntimeProfile& runtime, const std::vector<ModeRow>& rows) {
    QJsonArray modes;
    for (const auto& r : rows) {
        const PowerMode& m = r.mode;
        QJsonObject peaks;
        for (int c = 0; c < computeClassCount; ++c)
            peaks.insert(computeClassName(static_cast<ComputeClass>(c)),
                         sourcedJson(r.ceilings.peakFlops[static_cast<size_t>(c)]));
        QJsonObject mode{{"name", QString::fromStdString(m.name)},
                         {"stock", m.stock},
                         {"online_cores", m.onlineCores},
                         {"cpu_khz", static_cast<double>(m.cpuKhz)},
                         {"gpu_hz", static_cast<double>(m.gpuHz)},
                         {"emc_hz", static_cast<double>(m.emcHz)},
                         {"active_tpcs", m.activeTpcs},
                         {"budget_watts", m.budgetWatts},
                         {"peak_flops", peaks},
                         {"bandwidth", sourcedJson(r.ceilings.bandwidth)},
                         {"dispatch_seconds", sourcedJson(r.ceilings.dispatchOverhead)}};
        if (m.stock) {
            mode.insert("id", m.stockId);
            mode.insert("default", m.stockId == device.defaultModeId);
        }
        modes.append(mode);
    }
    const QJsonObject root{{"schema", "rooftop-modes/1"},
                           {"device", QString::fromStdString(device.id)},
                           {"device_name", QString::fromStdString(device.name)},
                           {"default_mode", device.defaultModeId},
                           {"runtime", QJsonObject{{"name", QString::fromStdString(runtime.name)},
                                                   {"dispatch_seconds_at_max_cpu", runtime.dispatchSecondsAtMaxCpu},
                                                   {"compute_efficiency", runtime.computeEfficiency},
                                                   {"bandwidth_efficiency", runtime.bandwidthEfficiency},
                                                   {"calibrated", runtime.calibrated},
                                                   {"basis", QString::fromStdString(runtime.basis)}}},
                           {"modes", modes}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

void printHelp() {
    std::cout << "Usage: rooftop modes --device ID [--grid | --custom SPEC ...] [options]\n"
                 "Lists a board's nvpmodel stock modes (or its custom-mode grid, or the custom modes given) with\n"
                 "id, name, online cores, CPU/GPU/EMC clocks, active TPCs, the budget the name states, and the\n"
                 "derived ceilings: FP32 and tensor FP16 peaks, DRAM bandwidth and per-layer dispatch overhead,\n"
                 "each followed by its provenance (datasheet, estimate, ...).\n\n"
                 "  --device ID               board id (rooftop devices lists them)\n"
                 "  --grid                    the custom-mode grid instead of the stock modes (4,368 on agx-orin-64gb)\n"
                 "  --custom SPEC             a custom mode, cores=N,cpu=KHZ,gpu=HZ,emc=HZ with values from the\n"
                 "                            board's ladders (repeatable)\n"
              << runtimeOptionsHelp()
              << "  --format F                table | csv | json\n"
                 "  -o, --output FILE         write to FILE instead of standard output\n";
}

} // namespace

int runModes(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    std::string deviceId, format = "table", outputPath;
    RuntimeChoice runtimeChoice;
    std::vector<std::string> customSpecs;
    bool grid = false;
    while (args.more()) {
        if (!args.nextIsOption()) throw InputError("modes takes no positional argument, got '" + args.takePositional() + "'");
        const std::string option = args.takeOption();
        if (option == "--device") {
            deviceId = args.takeValue(option);
        } else if (option == "--grid") {
            grid = true;
        } else if (option == "--custom") {
            customSpecs.push_back(args.takeValue(option));
        } else if (RuntimeChoice::isRuntimeOption(option)) {
            runtimeChoice.take(option, args.takeValue(option));
        } else if (option == "--format") {
            format = args.takeValue(option);
            if (format != "table" && format != "csv" && format != "json")
                throw InputError("--format must be table, csv or json, got '" + format + "'");
        } else if (option == "-o" || option == "--output") {
            outputPath = args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            printHelp();
            return ExitOk;
        } else {
            throw InputError("modes: unknown option '" + option + "'");
        }
    }
    if (deviceId.empty()) throw InputError("modes needs a board: rooftop modes --device ID (rooftop devices lists them)");
    if (grid && !customSpecs.empty()) throw InputError("modes: give --grid or --custom, not both");

    const std::vector<DeviceSpec> catalog = loadCatalogWithDetected(defaultCatalogFolder(), deviceId);
    const DeviceSpec& device = findDevice(catalog, deviceId);
    const RuntimeProfile runtime = runtimeChoice.resolve();

    std::vector<PowerMode> modes;
    std::string what;
    if (grid) {
        modes = gridPowerModes(device);
        what = std::to_string(modes.size()) + " custom grid modes (" + device.grid.basis + ")";
    } else if (!customSpecs.empty()) {
        for (const auto& spec : customSpecs) modes.push_back(parseCustomMode(device, spec));
        what = std::to_string(modes.size()) + " custom mode" + (modes.size() == 1 ? "" : "s");
    } else {
        modes = stockPowerModes(device);
        what = device.discrete ? std::string("one operating point (the clocks the CUDA driver reports)")
                               : std::to_string(modes.size()) + " nvpmodel stock modes";
    }
    std::vector<ModeRow> rows;
    rows.reserve(modes.size());
    for (auto& mode : modes) rows.push_back({mode, deriveCeilings(device, mode, runtime)});

    const std::string text = format == "json"  ? modesJson(device, runtime, rows)
                             : format == "csv" ? modesCsv(device, rows)
                                               : modesTable(device, runtime, rows, what);
    writeOutput(outputPath, text);
    return ExitOk;
}

} // namespace rooftop::cli
