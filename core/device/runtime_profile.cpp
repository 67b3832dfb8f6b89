// SPDX-License-Identifier: GPL-3.0-or-later
// Named inference runtimes: per-layer dispatch overhead and kernel efficiencies (resources/runtimes.json).
#include "core/device/runtime_profile.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/device/catalog.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSaveFile>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <set>

namespace rooftop {

namespace {

const char* const runtimesSchema = "rooftop-runtimes/1";
const char* const runtimeSchema = "rooftop-runtime/1";

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& message) {
    throw InputError(file + ": " + (path.empty() ? std::string() : path + ": ") + message);
}

std::string member(const std::string& path, const char* key) {
    return path.empty() ? key : path + "." + key;
}

std::string textField(const std::string& file, const QJsonObject& object, const std::string& path,
                      const char* key) {
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined()) fail(file, member(path, key), "missing");
    if (!value.isString() || value.toString().isEmpty())
        fail(file, member(path, key), "expected a non-empty string");
    return value.toString().toStdString();
}

double numberField(const std::string& file, const QJsonObject& object, const std::string& path,
                   const char* key, double minimum, double maximum) {
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined()) fail(file, member(path, key), "missing");
    if (!value.isDouble() || !std::isfinite(value.toDouble()))
        fail(file, member(path, key), "expected a number");
    const double number = value.toDouble();
    if (number < minimum || number > maximum) {
        char range[96];
        std::snprintf(range, sizeof range, "expected a number from %g to %g, got %g", minimum, maximum,
                      number);
        fail(file, member(path, key), range);
    }
    return number;
}

bool boolField(const std::string& file, const QJsonObject& object, const std::string& path, bool fallback) {
    const QJsonValue value = object.value(QString::fromStdString(path.substr(path.rfind('.') + 1)));
    if (value.isUndefined()) return fallback;
    if (!value.isBool()) fail(file, path, "expected true or false");
    return value.toBool();
}

RuntimePowerFit parsePowerFit(const std::string& file, const QJsonObject& o, const std::string& at) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = it.key().toStdString();
        if (key != "constant_scale" && key != "flop_scale" && key != "byte_scale" && key != "fitted" &&
            key != "r_squared" && key != "basis" && key != "spread" && key != "spread_basis")
            fail(file, at + "." + key, "unknown field");
    }
    RuntimePowerFit fit;
    fit.constantScale = numberField(file, o, at, "constant_scale", 0.0, 1e3);
    fit.flopScale = numberField(file, o, at, "flop_scale", 0.0, 1e3);
    fit.byteScale = numberField(file, o, at, "byte_scale", 0.0, 1e3);
    const QJsonValue fitted = o.value(QLatin1String("fitted"));
    if (!fitted.isArray())
        fail(file, at + ".fitted", "expected an array of \"constant\", \"flop\", \"byte\"");
    for (const QJsonValue name : fitted.toArray()) {
        const std::string n = name.toString().toStdString();
        if (n == "constant")
            fit.constantFitted = true;
        else if (n == "flop")
            fit.flopFitted = true;
        else if (n == "byte")
            fit.byteFitted = true;
        else
            fail(file, at + ".fitted", "expected \"constant\", \"flop\" or \"byte\", got '" + n + "'");
    }
    if (o.contains(QLatin1String("r_squared")))
        fit.rSquared = numberField(file, o, at, "r_squared", -1e9, 1.0);
    fit.basis = textField(file, o, at, "basis");
    if (o.contains(QLatin1String("spread"))) {
        fit.spread = numberField(file, o, at, "spread", 0.0, 10.0);
        fit.spreadBasis = textField(file, o, at, "spread_basis");
    }
    return fit;
}

// {"depthwise_conv": 0.2, ...} under `key`, with its basis under `basisKey`; `each` takes every class and
// value. Returns the basis, or nothing when the key is absent.
std::optional<std::string> parseClassFactors(const std::string& file, const QJsonObject& o,
                                             const std::string& at, const char* key, const char* basisKey,
                                             double lowest, double highest,
                                             const std::function<void(size_t, double)>& each) {
    const std::string prefix = at.empty() ? std::string() : at + ".";
    const QJsonValue classes = o.value(QLatin1String(key));
    if (classes.isUndefined()) {
        if (o.contains(QLatin1String(basisKey))) fail(file, prefix + basisKey, std::string("without ") + key);
        return std::nullopt;
    }
    if (!classes.isObject()) fail(file, prefix + key, "expected an object of class: efficiency");
    const QJsonObject byClass = classes.toObject();
    for (auto it = byClass.begin(); it != byClass.end(); ++it) {
        const std::string name = it.key().toStdString();
        const std::optional<OperatorClass> c = parseOperatorClass(name);
        if (!c)
            fail(file, prefix + key + "." + name,
                 "unknown operator class (dense_conv, depthwise_conv, gemm, attention, pointwise, "
                 "normalization, reduction, data_movement)");
        each(static_cast<size_t>(*c),
             numberField(file, byClass, member(at, key), name.c_str(), lowest, highest));
    }
    return textField(file, o, at, basisKey);
}

// "class_efficiency" (fitted, with "class_basis"), then "class_estimate" (with "class_estimate_basis"): the
// estimates of the classes no profile or run fitted; a class not named keeps 1.
void parseClassEfficiency(const std::string& file, const QJsonObject& o, const std::string& at,
                          RuntimeProfile& r) {
    if (auto basis = parseClassFactors(file, o, at, "class_efficiency", "class_basis", 1e-4, 1e3,
                                       [&](size_t k, double value) {
                                           r.classEfficiency[k] = value;
                                           r.classFitted[k] = true;
                                       }))
        r.classBasis = *basis;
    if (auto basis = parseClassFactors(file, o, at, "class_estimate", "class_estimate_basis", 1e-4, 1e3,
                                       [&](size_t k, double value) {
                                           if (!r.classFitted[k]) r.classEfficiency[k] = value;
                                       }))
        r.classEstimateBasis = *basis;
}

// One runtime object; `at` is its path in the file ("runtimes[2]", or "" for a bare runtime file).
RuntimeProfile parseRuntime(const std::string& file, const QJsonObject& o, const std::string& at, bool bare) {
    const std::string prefix = at.empty() ? std::string() : at + ".";
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = it.key().toStdString();
        const bool known =
            key == "name" || key == "dispatch_us_at_max_cpu" || key == "compute_efficiency" ||
            key == "bandwidth_efficiency" || key == "basis" || key == "calibrated" ||
            key == "inference_us_at_max_cpu" || key == "inference_fitted" || key == "dispatch_fitted" ||
            key == "power" || key == "class_efficiency" || key == "class_basis" ||
            key == "efficiency_fitted" || key == "latency_spread" || key == "latency_spread_basis" ||
            key == "class_estimate" || key == "class_estimate_basis" || key == "kernel_size_model" ||
            key == "kernel_floor_scale" || key == "kernel_tail_scale" || key == "calibrated_batches" ||
            key == "calibrated_precision" || key == "calibrated_on_simulator" || key == "calibrated_device" ||
            key.rfind('_', 0) == 0 || (bare && key == "schema");
        if (!known) fail(file, prefix + key, "unknown field");
    }
    RuntimeProfile r;
    const QJsonValue calibrated = o.value(QLatin1String("calibrated"));
    if (!calibrated.isUndefined()) {
        if (!calibrated.isBool()) fail(file, prefix + "calibrated", "expected true or false");
        r.calibrated = calibrated.toBool();
    }
    // A calibrated runtime may beat the counted traffic (efficiency above 1) or be far below the roofs.
    const double minEfficiency = r.calibrated ? 1e-6 : 1e-3, maxEfficiency = r.calibrated ? 1e3 : 1.0;
    r.name = textField(file, o, at, "name");
    r.dispatchSecondsAtMaxCpu = numberField(file, o, at, "dispatch_us_at_max_cpu", 0.0, 1e6) * 1e-6;
    r.computeEfficiency = numberField(file, o, at, "compute_efficiency", minEfficiency, maxEfficiency);
    r.bandwidthEfficiency = numberField(file, o, at, "bandwidth_efficiency", minEfficiency, maxEfficiency);
    r.basis = textField(file, o, at, "basis");
    if (o.contains(QLatin1String("inference_us_at_max_cpu")))
        r.inferenceSecondsAtMaxCpu = numberField(file, o, at, "inference_us_at_max_cpu", 0.0, 1e7) * 1e-6;
    r.inferenceFitted = boolField(file, o, prefix + "inference_fitted", false);
    r.calibratedOnSimulator = boolField(file, o, prefix + "calibrated_on_simulator", false);
    // Files written before dispatch_fitted existed fitted the dispatch cost whenever they were calibrated.
    r.dispatchFitted = boolField(file, o, prefix + "dispatch_fitted", r.calibrated);
    // ... and their efficiencies, before a calibration could fit the operator classes alone.
    r.efficiencyFitted = boolField(file, o, prefix + "efficiency_fitted", r.calibrated);
    const QJsonValue power = o.value(QLatin1String("power"));
    if (!power.isUndefined()) {
        if (!power.isObject()) fail(file, prefix + "power", "expected an object");
        r.power = parsePowerFit(file, power.toObject(), prefix + "power");
    }
    parseClassEfficiency(file, o, at, r);
    // a calibrated file from before the kernel-size model was fitted on the bare roofline: it keeps it
    r.kernelSizeModel = boolField(file, o, prefix + "kernel_size_model", !r.calibrated);
    if (o.contains(QLatin1String("calibrated_batches"))) {
        const QJsonArray range = o.value(QLatin1String("calibrated_batches")).toArray();
        if (range.size() != 2 || !range.at(0).isDouble() || !range.at(1).isDouble() ||
            range.at(0).toDouble() < 1 || range.at(1).toDouble() < range.at(0).toDouble() ||
            range.at(1).toDouble() > 1e6)
            fail(file, prefix + "calibrated_batches", "expected [lowest, highest] batch sizes, 1 or more");
        r.calibratedBatchLow = static_cast<int64_t>(range.at(0).toDouble());
        r.calibratedBatchHigh = static_cast<int64_t>(range.at(1).toDouble());
    }
    if (o.contains(QLatin1String("calibrated_precision"))) {
        r.calibratedPrecision = textField(file, o, at, "calibrated_precision");
        const std::array<const char*, 5> precisions{"fp32", "fp16", "int8", "fp8", "fp4"};
        if (std::find(precisions.begin(), precisions.end(), r.calibratedPrecision) == precisions.end())
            fail(file, prefix + "calibrated_precision", "expected fp32, fp16, int8, fp8 or fp4");
    }
    if (o.contains(QLatin1String("calibrated_device")))
        r.calibratedDevice = textField(file, o, at, "calibrated_device");
    if (o.contains(QLatin1String("kernel_floor_scale")))
        r.kernelFloorScale = numberField(file, o, at, "kernel_floor_scale", 1e-3, 1e3);
    if (o.contains(QLatin1String("kernel_tail_scale")))
        r.kernelTailScale = numberField(file, o, at, "kernel_tail_scale", 0.0, 10.0);
    if (o.contains(QLatin1String("latency_spread"))) {
        r.latencySpread = numberField(file, o, at, "latency_spread", 0.0, 10.0);
        r.latencySpreadBasis = textField(file, o, at, "latency_spread_basis");
    }
    return r;
}

} // namespace

namespace {

const char* const classEstimateBasis =
    "ESTIMATE, relative to the runtime's efficiency on large dense convolutions: depthwise and grouped "
    "convolutions have no tensor-core path and little reuse per loaded byte; GEMMs reach what implicit-GEMM "
    "convolutions do; attention outside a fused kernel writes and reads its scores; "
    "normalisations, reductions and layout changes are two-pass or strided memory kernels. rooftop compare "
    "--calibrate-classes (a measured layer profile) and rooftop calibrate (the classes a model exercises) "
    "replace them.";

// dense_conv, depthwise_conv, gemm, attention, pointwise, normalization, reduction, data_movement
void setClassEstimate(RuntimeProfile& runtime, const ClassFactors& factors) {
    runtime.classEfficiency = factors;
    runtime.classEstimateBasis = classEstimateBasis;
}

// An uncalibrated built-in runtime: its dispatch cost, uniform efficiencies and the basis of its estimates.
RuntimeProfile builtIn(const char* name, double dispatchSeconds, double compute, double bandwidth,
                       const char* basis) {
    RuntimeProfile runtime;
    runtime.name = name;
    runtime.dispatchSecondsAtMaxCpu = dispatchSeconds;
    runtime.computeEfficiency = compute;
    runtime.bandwidthEfficiency = bandwidth;
    runtime.basis = basis;
    return runtime;
}

std::vector<RuntimeProfile> builtInRuntimeValues() {
    return {
        builtIn("tensorrt", 6e-6, 0.75, 0.8,
                "ESTIMATE. Dispatch: TensorRT fuses the graph and enqueues one kernel (rarely two, with a "
                "reformat) "
                "per fused "
                "layer from a prebuilt engine, with no framework code between kernels; a CUDA kernel launch "
                "costs "
                "~3-5 µs of "
                "CPU time on a Cortex-A78AE at the top clock and the GPU-side gap between back-to-back small "
                "kernels is a few "
                "µs, so 6 µs per fused layer at the board's top CPU clock. Efficiency: TensorRT's tuned "
                "GEMM/convolution "
                "tactics reach ~70-80 % of the FP32/tensor peak on large layers (0.75) and streaming kernels "
                "~80 % "
                "of the "
                "theoretical LPDDR bandwidth (0.8). Calibrate with rooftop bench and a measured engine."),
        builtIn(
            "onnxruntime-cuda", 25e-6, 0.6, 0.75,
            "ESTIMATE. Dispatch: ONNX Runtime's CUDA execution provider runs one kernel per (lightly fused) "
            "node through "
            "its session executor: per-node scheduling, shape checks, arena allocation and the cuDNN/cuBLAS "
            "call add "
            "~10 µs on a desktop x86 core, roughly 2-3x that on a Cortex-A78AE, so 25 µs per node at the "
            "board's top CPU "
            "clock. Efficiency: generic cuDNN/cuBLAS heuristics without engine-level tactic search, ~0.6 of "
            "the "
            "compute "
            "peak; ~0.75 of the DRAM bandwidth. Calibrate with measured latencies."),
        builtIn(
            "pytorch-eager", 50e-6, 0.5, 0.7,
            "ESTIMATE. Dispatch: eager PyTorch runs every operator through Python, the dispatcher and ATen "
            "before its "
            "launch, tens of µs per op on Jetson CPUs (~15-20 µs on a desktop core, 2-3x on a Cortex-A78AE), "
            "so "
            "50 µs per "
            "op at the board's top CPU clock; no fusion, so every node is a layer. Efficiency: unfused "
            "kernels "
            "and generic "
            "algorithm choices, ~0.5 of the compute peak, ~0.7 of the DRAM bandwidth. Calibrate with "
            "measured "
            "latencies."),
        builtIn("ideal", 0.0, 1.0, 1.0,
                "No runtime: the hardware roofs exactly as the catalog derives them (datasheet peaks, no "
                "dispatch "
                "overhead). "
                "A bound, not a prediction."),
    };
}

} // namespace

std::vector<RuntimeProfile> builtInRuntimes() {
    // Keep in step with resources/runtimes.json (test_power_modes checks that they agree).
    std::vector<RuntimeProfile> runtimes = builtInRuntimeValues();
    setClassEstimate(runtimes[0], {1.0, 0.5, 1.0, 0.8, 0.9, 0.75, 0.6, 0.7});
    setClassEstimate(runtimes[1], {1.0, 0.4, 1.0, 0.7, 0.85, 0.65, 0.55, 0.65});
    setClassEstimate(runtimes[2], {1.0, 0.35, 1.0, 0.6, 0.85, 0.6, 0.5, 0.6});
    for (size_t i = 0; i < 3; ++i)
        runtimes[i].kernelSizeModel = true; // the ideal runtime (the last) stays the bare roofline
    return runtimes;
}

std::vector<RuntimeProfile> loadRuntimeFile(const std::string& path) {
    const std::string file = QFileInfo(QString::fromStdString(path)).fileName().toStdString();
    const std::string text = readInputFile(path, "a runtime file");
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        fail(file, "",
             "invalid JSON at offset " + std::to_string(error.offset) + ": " +
                 error.errorString().toStdString());
    if (!document.isObject()) fail(file, "", "expected a JSON object at the top level");
    const QJsonObject root = document.object();
    if (!root.contains(QLatin1String("runtimes")) && root.contains(QLatin1String("name"))) {
        // One bare runtime, as `rooftop calibrate -o` writes it.
        const QJsonValue schema = root.value(QLatin1String("schema"));
        if (!schema.isUndefined() && schema.toString().toStdString() != runtimeSchema)
            fail(file, "schema",
                 std::string("expected \"") + runtimeSchema + "\" (or a \"" + runtimesSchema +
                     "\" file with a runtimes array)");
        return {parseRuntime(file, root, "", true)};
    }
    if (root.value(QLatin1String("schema")).toString().toStdString() != runtimesSchema)
        fail(file, "schema",
             std::string("expected \"") + runtimeSchema +
                 "\" (one runtime, as rooftop calibrate -o writes it) or \"" + runtimesSchema +
                 "\" (a runtimes array)");
    const QJsonValue list = root.value(QLatin1String("runtimes"));
    if (list.isUndefined()) fail(file, "runtimes", "missing");
    if (!list.isArray() || list.toArray().isEmpty()) fail(file, "runtimes", "expected a non-empty array");
    std::vector<RuntimeProfile> runtimes;
    std::set<std::string> names;
    const QJsonArray array = list.toArray();
    for (int i = 0; i < array.size(); ++i) {
        const std::string at = "runtimes[" + std::to_string(i) + "]";
        if (!array.at(i).isObject()) fail(file, at, "expected an object");
        RuntimeProfile r = parseRuntime(file, array.at(i).toObject(), at, false);
        if (!names.insert(r.name).second) fail(file, at + ".name", "duplicate runtime '" + r.name + "'");
        runtimes.push_back(std::move(r));
    }
    return runtimes;
}

RuntimeProfile loadRuntimeFromFile(const std::string& path, const std::string& name) {
    const std::vector<RuntimeProfile> runtimes = loadRuntimeFile(path);
    std::string known;
    for (const auto& runtime : runtimes) {
        if (runtime.name == name || (name.empty() && runtimes.size() == 1)) return runtime;
        known += (known.empty() ? "" : ", ") + runtime.name;
    }
    const std::string file = QFileInfo(QString::fromStdString(path)).fileName().toStdString();
    if (name.empty())
        throw InputError(file + ": holds several runtimes; name one with --runtime (" + known + ")");
    throw InputError(file + ": no runtime '" + name + "'; it holds " + known);
}

QJsonObject fittedClassEfficiencyJson(const RuntimeProfile& runtime) {
    QJsonObject classes;
    for (int c = 0; c < operatorClassCount; ++c)
        if (runtime.classFitted[static_cast<size_t>(c)])
            classes.insert(operatorClassName(static_cast<OperatorClass>(c)),
                           runtime.classEfficiency[static_cast<size_t>(c)]);
    return classes;
}

QJsonObject estimatedClassEfficiencyJson(const RuntimeProfile& runtime) {
    QJsonObject classes;
    for (int c = 0; c < operatorClassCount; ++c)
        if (!runtime.classFitted[static_cast<size_t>(c)] &&
            runtime.classEfficiency[static_cast<size_t>(c)] != 1.0)
            classes.insert(operatorClassName(static_cast<OperatorClass>(c)),
                           runtime.classEfficiency[static_cast<size_t>(c)]);
    return classes;
}

namespace {

QJsonObject runtimeObject(const RuntimeProfile& runtime) {
    const QJsonObject object{{"schema", runtimeSchema},
                             {"name", QString::fromStdString(runtime.name)},
                             {"dispatch_us_at_max_cpu", runtime.dispatchSecondsAtMaxCpu * 1e6},
                             {"compute_efficiency", runtime.computeEfficiency},
                             {"bandwidth_efficiency", runtime.bandwidthEfficiency},
                             {"calibrated", runtime.calibrated},
                             {"basis", QString::fromStdString(runtime.basis)}};
    QJsonObject full = object;
    if (runtime.inferenceSecondsAtMaxCpu > 0 || runtime.inferenceFitted)
        full.insert("inference_us_at_max_cpu", runtime.inferenceSecondsAtMaxCpu * 1e6);
    if (runtime.inferenceFitted) full.insert("inference_fitted", true);
    if (runtime.calibratedOnSimulator) full.insert("calibrated_on_simulator", true);
    if (runtime.latencySpread > 0) {
        full.insert("latency_spread", runtime.latencySpread);
        full.insert("latency_spread_basis", QString::fromStdString(runtime.latencySpreadBasis));
    }
    if (runtime.calibrated) full.insert("dispatch_fitted", runtime.dispatchFitted);
    if (runtime.calibrated) full.insert("efficiency_fitted", runtime.efficiencyFitted);
    if (const auto& p = runtime.power) {
        QJsonArray fitted;
        if (p->constantFitted) fitted.append("constant");
        if (p->flopFitted) fitted.append("flop");
        if (p->byteFitted) fitted.append("byte");
        QJsonObject power{{"constant_scale", p->constantScale},
                          {"flop_scale", p->flopScale},
                          {"byte_scale", p->byteScale},
                          {"fitted", fitted},
                          {"basis", QString::fromStdString(p->basis)}};
        if (p->rSquared) power.insert("r_squared", *p->rSquared);
        if (p->spread > 0) {
            power.insert("spread", p->spread);
            power.insert("spread_basis", QString::fromStdString(p->spreadBasis));
        }
        full.insert("power", power);
    }
    const QJsonObject classes = fittedClassEfficiencyJson(runtime);
    if (!classes.isEmpty()) {
        full.insert("class_efficiency", classes);
        full.insert("class_basis", QString::fromStdString(runtime.classBasis));
    }
    const QJsonObject estimates = estimatedClassEfficiencyJson(runtime);
    if (!estimates.isEmpty()) {
        full.insert("class_estimate", estimates);
        full.insert("class_estimate_basis", QString::fromStdString(runtime.classEstimateBasis));
    }
    if (!runtime.kernelSizeModel || runtime.calibrated)
        full.insert("kernel_size_model", runtime.kernelSizeModel);
    if (runtime.kernelFloorScale != 1.0) full.insert("kernel_floor_scale", runtime.kernelFloorScale);
    if (runtime.kernelTailScale != 1.0) full.insert("kernel_tail_scale", runtime.kernelTailScale);
    if (runtime.calibratedBatchHigh > 0)
        full.insert("calibrated_batches",
                    QJsonArray{qint64(runtime.calibratedBatchLow), qint64(runtime.calibratedBatchHigh)});
    if (!runtime.calibratedPrecision.empty())
        full.insert("calibrated_precision", QString::fromStdString(runtime.calibratedPrecision));
    if (!runtime.calibratedDevice.empty())
        full.insert("calibrated_device", QString::fromStdString(runtime.calibratedDevice));
    return full;
}

void saveText(const std::string& path, const std::string& text) {
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(path + ": cannot write (" + file.errorString().toStdString() + ")");
}

} // namespace

std::string calibrationWords(const RuntimeProfile& runtime) {
    if (!runtime.calibrated) return {};
    return runtime.calibratedOnSimulator ? "calibrated on the simulated board's runs, not measurements"
                                         : "calibrated from runs";
}

void checkRuntimeBoard(const RuntimeProfile& runtime, const std::string& file, const std::string& deviceId) {
    if (runtime.calibratedDevice.empty() || deviceId.empty() || runtime.calibratedDevice == deviceId) return;
    throw InputError(file + ": runtime '" + runtime.name + "' was calibrated on " + runtime.calibratedDevice +
                     ", not " + deviceId +
                     ": a fit holds for the board that was measured (calibrate on this one, or leave "
                     "--runtime-file out for the estimate)");
}

std::string runtimeJson(const RuntimeProfile& runtime) {
    return QJsonDocument(runtimeObject(runtime)).toJson(QJsonDocument::Indented).toStdString();
}

void saveRuntimeFile(const std::string& path, const RuntimeProfile& runtime) {
    saveText(path, runtimeJson(runtime));
}

void saveRuntimesFile(const std::string& path, const std::vector<RuntimeProfile>& runtimes) {
    QJsonArray list;
    for (const RuntimeProfile& runtime : runtimes) {
        QJsonObject entry = runtimeObject(runtime);
        entry.remove(QLatin1String("schema"));
        list.append(entry);
    }
    const QJsonObject root{{"schema", runtimesSchema}, {"runtimes", list}};
    saveText(path, QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString());
}

std::vector<RuntimeProfile> knownRuntimes() {
    const std::string path = defaultDataFolder() + "/runtimes.json";
    if (QFileInfo::exists(QString::fromStdString(path))) return loadRuntimeFile(path);
    return builtInRuntimes();
}

RuntimeProfile findRuntime(const std::string& name) {
    const std::vector<RuntimeProfile> runtimes = knownRuntimes();
    std::string known;
    for (const auto& runtime : runtimes) {
        if (runtime.name == name) return runtime;
        known += (known.empty() ? "" : ", ") + runtime.name;
    }
    throw InputError("unknown runtime '" + name + "'; known runtimes: " + known);
}

double inferenceSeconds(const RuntimeProfile& runtime, double cpuKhz, double maxCpuKhz) {
    if (cpuKhz <= 0 || maxCpuKhz <= 0) return runtime.inferenceSecondsAtMaxCpu;
    return runtime.inferenceSecondsAtMaxCpu * maxCpuKhz / cpuKhz;
}

double dispatchSeconds(const RuntimeProfile& runtime, double cpuKhz, double maxCpuKhz) {
    if (cpuKhz <= 0 || maxCpuKhz <= 0) return runtime.dispatchSecondsAtMaxCpu;
    return runtime.dispatchSecondsAtMaxCpu * maxCpuKhz / cpuKhz;
}

} // namespace rooftop
