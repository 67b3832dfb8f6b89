// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/trtexec_runner.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/learn/predictor_file.h"
#include "core/measure/child_process.h"
#include "core/measure/trtexec_layer_profile.h"
#include "core/onnx/dim_text.h"
#include "core/onnx/model_graph.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace rooftop {

namespace {

constexpr double timedSeconds = 3.0; ///< trtexec --duration: the inferences that are timed and power-sampled

std::string shellQuoted(const std::string& text) {
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// "median = X ms" and "percentile(99%) = Y ms" (0 without one) of the first line that holds `label`.
bool summary(const std::string& output, const std::string& label, double* median, double* p99) {
    std::istringstream in(output);
    std::string line;
    static const std::regex medianRe(R"(median\s*=\s*([0-9.eE+-]+)\s*ms)");
    static const std::regex p99Re(R"(percentile\(99%\)\s*=\s*([0-9.eE+-]+)\s*ms)");
    while (std::getline(in, line)) {
        if (line.find(label) == std::string::npos) continue;
        std::smatch m;
        if (!std::regex_search(line, m, medianRe)) continue;
        *median = std::strtod(m[1].str().c_str(), nullptr);
        *p99 = std::regex_search(line, m, p99Re) ? std::strtod(m[1].str().c_str(), nullptr) : 0.0;
        return true;
    }
    return false;
}

/// trtexec's last "[E]" line (it logs errors on stdout), shortened; empty when there is none.
std::string lastErrorLine(const std::string& output) {
    std::istringstream in(output);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find("[E]") != std::string::npos) last = line.substr(line.find("[E]") + 3);
    const size_t from = last.find_first_not_of(' ');
    last = from == std::string::npos ? std::string() : last.substr(from);
    return last.size() > 120 ? last.substr(0, 117) + "..." : last;
}

/// Which TensorRT build made an engine: the trtexec executable's size and modification time. An engine only
/// loads in the TensorRT version that built it, and upgrading TensorRT replaces trtexec.
std::string trtexecFingerprint(const std::string& trtexec) {
    const QFileInfo info(QString::fromStdString(trtexec));
    return QString::number(info.size(), 16).toStdString() + "-" +
           QString::number(info.lastModified().toSecsSinceEpoch(), 16).toStdString();
}

/// Median and nearest-rank 99th percentile of the values, in place.
void medianAndP99(std::vector<double>& values, double* median, double* p99) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    *median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    *p99 = values[static_cast<size_t>(std::ceil(0.99 * static_cast<double>(n))) - 1];
}

/// The layers of trtexec's --exportProfile file, or a note on why there are none.
std::vector<LayerTime> readLayerProfile(const std::string& path, std::string* note) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly)) {
        *note = "no layer profile: trtexec wrote no --exportProfile file";
        return {};
    }
    try {
        std::vector<LayerTime> layers =
            parseTrtexecLayerProfile(file.readAll().toStdString(), "--exportProfile");
        if (layers.empty()) *note = "no layer profile: trtexec's profile has no layers";
        return layers;
    } catch (const InputError& error) {
        *note = std::string("no layer profile: ") + error.what();
        return {};
    }
}

} // namespace

std::string parseTensorRtVersion(const std::string& output) {
    static const std::regex banner(R"(&&&& RUNNING TensorRT\.trtexec \[TensorRT v([0-9]{1,12})\])");
    std::smatch m;
    return std::regex_search(output, m, banner) ? m[1].str() : std::string();
}

std::string engineCacheFolder() {
    if (const char* set = std::getenv("ROOFTOP_CACHE_DIR"); set && *set) return std::string(set) + "/engines";
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/rooftop/engines";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.cache/rooftop/engines";
}

RunResult parseTrtexecTimes(const std::string& json) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError || !document.isArray())
        return RunResult::failed("trtexec's exported times are not a JSON array");
    std::vector<double> times;
    for (const QJsonValue value : document.array()) {
        const QJsonObject inference = value.toObject();
        const QJsonValue compute =
            inference.contains("computeMs") ? inference.value("computeMs") : inference.value("latencyMs");
        if (!compute.isDouble() || !(compute.toDouble() > 0) || !std::isfinite(compute.toDouble()) ||
            compute.toDouble() > 1e12)
            return RunResult::failed("trtexec's exported times hold an inference without a positive time");
        times.push_back(compute.toDouble());
    }
    if (times.empty()) return RunResult::failed("trtexec exported no inference times");
    RunResult result;
    result.ok = true;
    double p99 = 0.0;
    medianAndP99(times, &result.latencyMs, &p99);
    result.p99Ms = p99;
    return result;
}

std::string findTrtexec() {
    if (const char* set = std::getenv("ROOFTOP_TRTEXEC")) return set;
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/trtexec";
        if (isExecutableFile(candidate)) return candidate;
    }
    const std::string jetpack = "/usr/src/tensorrt/bin/trtexec";
    return isExecutableFile(jetpack) ? jetpack : std::string();
}

RunResult parseTrtexecOutput(const std::string& output) {
    double median = 0, p99 = 0;
    if (!summary(output, "GPU Compute Time:", &median, &p99) && !summary(output, "Latency:", &median, &p99))
        return RunResult::failed("no timing summary in trtexec's output (GPU Compute Time / Latency)");
    if (!(median > 0) || !(p99 >= 0) || median > 1e12 || p99 > 1e12)
        return RunResult::failed("trtexec reported a non-positive time");
    RunResult result;
    result.ok = true;
    result.latencyMs = median;
    if (p99 > 0) result.p99Ms = p99 < median ? median : p99; // 0: the summary has no percentile
    return result;
}

TrtexecRunner::TrtexecRunner(std::string trtexec, std::string modelPath, double timeoutSeconds)
    : trtexec_(std::move(trtexec)), modelPath_(std::move(modelPath)), timeoutSeconds_(timeoutSeconds) {
    if (!isExecutableFile(trtexec_))
        throw InputError("runner trtexec: '" + trtexec_ + "' is not an executable");
    if (!(timeoutSeconds_ > 0)) throw InputError("runner trtexec: the run timeout must be positive");
    const Graph graph = loadGraph(modelPath_, DimBindings{}); // throws InputError for a bad model
    modelHash_ = modelFileHash(modelPath_);
    trtexecBuild_ = trtexecFingerprint(trtexec_);
    // the banner comes first, before option parsing; --help loads no engine and builds nothing. Only its head
    // is kept: the help text can outgrow the output a child keeps (its last 64 KiB)
    const ChildOutcome help =
        runShellCommand(shellQuoted(trtexec_) + " --help 2>&1 | head -n 20", {}, 30, nullptr);
    const std::string version = parseTensorRtVersion(help.out);
    if (!version.empty()) trtexecBuild_ = "v" + version + "-" + trtexecBuild_;
    dynamicBatch_ = !graph.info.assumedDims.empty();
    for (int input : graph.inputs) {
        const Tensor& tensor = graph.tensors[static_cast<size_t>(input)];
        if (tensor.shapeKnown && !tensor.dims.empty()) {
            staticBatch_ = tensor.dims.front();
            break;
        }
    }
}

std::string TrtexecRunner::shapesFor(const RunConfig& config, std::string* why) {
    const int64_t batch = config.batch;
    if (!dynamicBatch_) {
        if (batch != staticBatch_)
            *why = "the model's batch is fixed at " + std::to_string(staticBatch_) +
                   " (export it with a dynamic batch)";
        else if (!config.dims.empty())
            *why = "the model has no symbolic dims to bind (" + describeNamedDims(config.dims) + ")";
        return {};
    }
    const std::string key = std::to_string(batch) + "|" + namedDimsText(config.dims);
    const auto found = shapes_.find(key);
    if (found != shapes_.end()) return found->second;
    DimBindings bindings;
    bindings.batch = batch;
    bindings.named = config.dims;
    const Graph graph = loadGraph(modelPath_, bindings);
    std::string shapes;
    for (int input : graph.inputs) {
        const Tensor& tensor = graph.tensors[static_cast<size_t>(input)];
        if (!tensor.shapeKnown || tensor.dims.empty()) continue;
        std::string dims;
        for (int64_t d : tensor.dims)
            dims += (dims.empty() ? "" : "x") + std::to_string(d);
        shapes += (shapes.empty() ? "" : ",") + tensor.name + ":" + dims;
    }
    return shapes_.emplace(key, shapes).first->second;
}

RunResult TrtexecRunner::run(const RunConfig& config, const std::atomic<bool>* cancel) {
    if (config.phase != Phase::Inference) return RunResult::failed("trtexec runs inference only");
    if (config.llm.active()) return RunResult::failed("trtexec runs no LLM generation");
    std::string why;
    const std::string shapes = shapesFor(config, &why);
    if (!why.empty()) return RunResult::failed(why);
    const std::string engine = enginePath(config);
    const bool cachedEngine = QFileInfo::exists(QString::fromStdString(engine));
    if (!cachedEngine) {
        const RunResult built = buildEngine(config, shapes, engine, cancel);
        if (!built.ok) return built;
    }
    QTemporaryDir scratch;
    if (!scratch.isValid()) return RunResult::failed("cannot make a temporary folder for trtexec's times");
    const std::string times = QDir(scratch.path()).filePath("times.json").toStdString();
    std::string load = shellQuoted(trtexec_) + " " + shellQuoted("--loadEngine=" + engine);
    if (!shapes.empty()) load += " " + shellQuoted("--shapes=" + shapes);
    const std::string command = load + " --warmUp=500 --duration=" + general(timedSeconds, 3) + " " +
                                shellQuoted("--exportTimes=" + times);
    std::string failure;
    std::string output = runTimed(command, config, cancel, &failure);
    if (!failure.empty() && cachedEngine && failure != "cancelled" && failure.rfind("timed out", 0) != 0) {
        // an engine from the cache that does not load (corrupt, another GPU's): build it again, once
        QFile::remove(QString::fromStdString(engine));
        const RunResult rebuilt = buildEngine(config, shapes, engine, cancel);
        if (!rebuilt.ok) return rebuilt;
        failure.clear();
        output = runTimed(command, config, cancel, &failure);
    }
    if (!failure.empty()) return RunResult::failed(failure);
    QFile exported(QString::fromStdString(times));
    RunResult result =
        exported.open(QIODevice::ReadOnly)
            ? parseTrtexecTimes(exported.readAll().toStdString())
            : parseTrtexecOutput(output); // an older trtexec without --exportTimes: its summary
    if (result.ok)
        result.layers = profileLayers(load, scratch.path().toStdString(), config, cancel, &result.note);
    return result;
}

std::vector<LayerTime> TrtexecRunner::profileLayers(const std::string& load, const std::string& folder,
                                                    const RunConfig& config, const std::atomic<bool>* cancel,
                                                    std::string* note) {
    // a run of its own, after the timed one: the profiler syncs after every layer, which would slow the timed
    // inferences and lower their power
    const std::string profile = QDir(QString::fromStdString(folder)).filePath("profile.json").toStdString();
    std::string failure;
    runTrtexec(load + " --warmUp=0 --duration=0 --iterations=50 " + shellQuoted("--exportProfile=" + profile),
               config, cancel, &failure);
    if (!failure.empty()) {
        *note = "no layer profile: " + failure;
        return {};
    }
    return readLayerProfile(profile, note);
}

std::string TrtexecRunner::runTimed(const std::string& command, const RunConfig& config,
                                    const std::atomic<bool>* cancel, std::string* failure) {
    beginTimed();
    std::string output = runTrtexec(command, config, cancel, failure);
    endTimed();
    keepLastTimed(timedSeconds); // process start, CUDA init, engine load and warm-up come first
    return output;
}

namespace {

/// "-sequence128-past0" for bound dims (an engine is built for one shape), "" for none.
std::string engineDimsPart(const std::map<std::string, int64_t>& dims) {
    std::string part;
    for (const auto& [name, value] : dims) {
        std::string safe;
        for (char c : name)
            safe += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        part += "-" + safe + std::to_string(value);
    }
    return part;
}

} // namespace

std::string TrtexecRunner::enginePath(const RunConfig& config) const {
    return engineCacheFolder() + "/" + (modelHash_.empty() ? std::string("model") : modelHash_) + "-b" +
           std::to_string(config.batch) + engineDimsPart(config.dims) + "-" +
           precisionName(config.precision) + "-trt" + trtexecBuild_ + ".engine";
}

RunResult TrtexecRunner::buildEngine(const RunConfig& config, const std::string& shapes,
                                     const std::string& engine, const std::atomic<bool>* cancel) {
    if (!QDir().mkpath(QFileInfo(QString::fromStdString(engine)).absolutePath()))
        return RunResult::failed("cannot create the engine cache folder " + engineCacheFolder());
    const std::string partial = engine + ".partial";
    std::string command = shellQuoted(trtexec_) + " " + shellQuoted("--onnx=" + modelPath_);
    if (!shapes.empty()) command += " " + shellQuoted("--shapes=" + shapes);
    if (config.precision == Precision::FP16) command += " --fp16";
    if (config.precision == Precision::INT8) command += " --int8";
    command += " " + shellQuoted("--saveEngine=" + partial) + " --skipInference";
    std::string failure;
    runTrtexec(command, config, cancel, &failure);
    if (failure.empty() && !QFileInfo::exists(QString::fromStdString(partial)))
        failure = "trtexec wrote no engine";
    // the engine appears under its name only when whole, so an interrupted build is redone next time
    if (failure.empty() && !QFile::rename(QString::fromStdString(partial), QString::fromStdString(engine)))
        failure = "cannot store the engine in " + engineCacheFolder();
    QFile::remove(QString::fromStdString(partial));
    if (!failure.empty()) return RunResult::failed("engine build: " + failure);
    RunResult built;
    built.ok = true;
    return built;
}

std::string TrtexecRunner::runTrtexec(const std::string& command, const RunConfig& config,
                                      const std::atomic<bool>* cancel, std::string* failure) {
    const ChildOutcome child =
        runShellCommand(command, runEnvironment(config, modelPath_), timeoutSeconds_, cancel);
    if (!child.started) {
        *failure = "cannot start trtexec: " + child.error;
    } else if (child.cancelled) {
        *failure = "cancelled";
    } else if (child.timedOut) {
        *failure = "timed out after " + general(timeoutSeconds_, 6) + " s (process group killed)";
    } else if (child.signal != 0) {
        *failure = "trtexec killed by signal " + std::to_string(child.signal);
    } else if (!child.error.empty()) {
        *failure = child.error;
    } else if (child.exitCode != 0) {
        const std::string why = lastErrorLine(child.out + "\n" + child.err);
        *failure = "trtexec exit " + std::to_string(child.exitCode) + (why.empty() ? "" : ": " + why);
    }
    return child.out;
}

} // namespace rooftop
