// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop recommend MODEL --device ID [...]`: the power mode to use under latency / power limits, and why.
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/runtime_option.h"
#include "core/advisor/advisor.h"
#include "core/advisor/recommendation_writers.h"
#include "core/device/catalog.h"
#include "core/device/measured_profile.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/onnx/input_error.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

namespace rooftop::cli {
namespace {

const char* recommendHelp() {
    return "Usage: rooftop recommend MODEL.onnx --device ID [options]\n"
           "Recommends the power mode (stock or custom clocks) and batch size that meet the limits with the best\n"
           "objective, with the Pareto front of latency against energy per inference, the reasons and the nvpmodel\n"
           "commands to apply it.\n"
           "  --device ID               board id (rooftop devices lists them)\n"
           "  --latency-slo MS          latency limit per batch, in milliseconds\n"
           "  --power-cap W             average power limit, in watts\n"
           "  --max-slowdown PCT        latency at most PCT percent above the fastest candidate\n"
           "  --objective O             energy (least energy per inference, default) | latency (least latency per\n"
           "                            batch) | efficiency (most inferences per joule)\n"
           "  --modes M                 stock (default) | grid (the board's custom-clock grid) | all\n"
           "  --batch N[,N...]          batch sizes to consider (default 1); each replaces dim 0 of the inputs\n"
           "  --runtime NAME            inference runtime (default tensorrt): per-layer dispatch cost, kernel efficiency\n"
           "  --runtime-file FILE       a runtime from a file (rooftop calibrate -o writes one)\n"
           "  --profile FILE            measured profile (rooftop bench) instead of datasheet-derived ceilings\n"
           "  --dim NAME=VALUE          bind a symbolic input dimension (repeatable)\n"
           "  --precision P             as-model | fp32 | fp16 | int8 (element sizes of float tensors)\n"
           "  --convention C            default | pagoda (per-op FLOP constants of the Pagoda study)\n"
           "  --traffic T               per-node | fused (DRAM traffic model)\n"
           "  --format F                table (recommended mode, baseline and Pareto front) | json (every candidate)\n"
           "  -o, --output FILE         write to FILE instead of standard output\n"
           "Units: latency_ms is per batch; energy_mj is the energy per inference in millijoules (batch energy / batch);\n"
           "avg_power_w in watts. The baseline is the board's fastest stock mode at the first batch size.\n"
           "Limits that no mode can meet are not an error: the answer says so and lists the closest modes.\n";
}

std::vector<int64_t> parseBatchList(const std::string& text) {
    std::vector<int64_t> batches;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        size_t used = 0;
        long long value = 0;
        try {
            value = std::stoll(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (item.empty() || used != item.size() || value < 1 || value > DimBindings::maxDimValue)
            throw InputError("--batch expects a comma-separated list of integers from 1 to " +
                             std::to_string(DimBindings::maxDimValue) + ", got '" + text + "'");
        if (std::find(batches.begin(), batches.end(), value) == batches.end()) batches.push_back(value);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return batches;
}

} // namespace

int runRecommend(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    AnalysisSettings settings;
    Constraints constraints;
    Objective objective = Objective::Energy;
    std::string model, deviceId, modes = "stock", profilePath, format = "table", outputPath;
    RuntimeChoice runtimeChoice;
    std::vector<int64_t> batches;
    while (args.more()) {
        if (!args.nextIsOption()) {
            if (!model.empty())
                throw InputError("recommend takes one model, got a second: '" + args.takePositional() + "'");
            model = args.takePositional();
            continue;
        }
        const std::string option = args.takeOption();
        if (option == "--batch") {
            batches = parseBatchList(args.takeValue(option));
        } else if (takeAnalysisOption(option, args, settings)) {
            continue;
        } else if (option == "--device") {
            deviceId = args.takeValue(option);
        } else if (option == "--latency-slo") {
            constraints.latencySloSeconds =
                args.takeNumber(option, 0.0, false, "a positive number of milliseconds") / 1e3;
        } else if (option == "--power-cap") {
            constraints.powerCapWatts = args.takeNumber(option, 0.0, false, "a positive number of watts");
        } else if (option == "--max-slowdown") {
            constraints.maxSlowdownPercent =
                args.takeNumber(option, 0.0, true, "a percentage >= 0");
        } else if (option == "--objective") {
            const std::string value = args.takeValue(option);
            if (!parseObjective(value, objective))
                throw InputError("--objective must be energy, latency or efficiency, got '" + value + "'");
        } else if (option == "--modes") {
            modes = args.takeValue(option);
            if (modes != "stock" && modes != "grid" && modes != "all")
                throw InputError("--modes must be stock, grid or all, got '" + modes + "'");
        } else if (RuntimeChoice::isRuntimeOption(option)) {
            runtimeChoice.take(option, args.takeValue(option));
        } else if (option == "--profile") {
            profilePath = args.takeValue(option);
        } else if (option == "--format") {
            format = args.takeValue(option);
            if (format != "table" && format != "json")
                throw InputError("--format must be table or json, got '" + format + "'");
        } else if (option == "-o" || option == "--output") {
            outputPath = args.takeValue(option);
        } else if (option == "-h" || option == "--help") {
            std::cout << recommendHelp();
            return ExitOk;
        } else {
            throw InputError("recommend: unknown option '" + option + "'");
        }
    }
    if (model.empty()) throw InputError("recommend needs a model: rooftop recommend MODEL.onnx --device ID");
    if (deviceId.empty()) throw InputError("recommend needs --device ID (rooftop devices lists them)");
    validateConstraints(constraints);
    if (batches.empty()) batches.push_back(1);

    const std::vector<DeviceSpec> catalog = loadCatalogWithDetected(defaultCatalogFolder(), deviceId);
    const DeviceSpec& device = findDevice(catalog, deviceId);
    const RuntimeProfile runtime = runtimeChoice.resolve();
    std::unique_ptr<MeasuredProfile> measured;
    if (!profilePath.empty()) measured = std::make_unique<MeasuredProfile>(loadMeasuredProfile(profilePath));

    std::vector<PowerMode> powerModes;
    if (modes == "stock" || modes == "all") powerModes = stockPowerModes(device);
    if (modes == "grid" || modes == "all") {
        const std::vector<PowerMode> grid = gridPowerModes(device);
        if (grid.empty()) throw InputError(device.id + " has no custom-clock grid; use --modes stock");
        powerModes.insert(powerModes.end(), grid.begin(), grid.end());
    }
    if (powerModes.empty()) throw InputError(device.id + " has no power modes to choose from");
    const std::vector<ModeProfile> profiles = resolveModeProfiles(device, powerModes, runtime, measured.get());
    const StockMode& fastest = device.fastestStockMode();
    const ModeProfile baseline =
        resolveModeProfiles(device, {powerModeFrom(device, fastest)}, runtime, measured.get()).front();

    std::vector<BatchWorkload> workloads;
    for (int64_t batch : batches) {
        settings.dims.batch = batch;
        workloads.push_back(BatchWorkload{batch, analyzeModelFile(model, settings)});
    }
    const Recommendation recommendation = recommendMode(device, workloads, profiles, baseline, constraints, objective);
    writeOutput(outputPath, format == "json" ? recommendationToJson(device.id, recommendation)
                                             : recommendationToTable(device.name, recommendation, constraints, objective));
    return ExitOk;
}

} // namespace rooftop::cli
