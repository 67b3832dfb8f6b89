// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/trtexec_runner.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/measure/child_process.h"
#include "core/onnx/model_graph.h"

#include <cstdlib>
#include <regex>
#include <sstream>

namespace rooftop {

namespace {

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// "median = X ms" and "percentile(99%) = Y ms" of the first line that holds `label`.
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
        *p99 = std::regex_search(line, m, p99Re) ? std::strtod(m[1].str().c_str(), nullptr) : *median;
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

} // namespace

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
    if (!(median > 0) || !(p99 > 0) || median > 1e12 || p99 > 1e12)
        return RunResult::failed("trtexec reported a non-positive time");
    RunResult result;
    result.ok = true;
    result.latencyMs = median;
    result.p99Ms = p99 < median ? median : p99;
    return result;
}

TrtexecRunner::TrtexecRunner(std::string trtexec, std::string modelPath, double timeoutSeconds)
    : trtexec_(std::move(trtexec)), modelPath_(std::move(modelPath)), timeoutSeconds_(timeoutSeconds) {
    if (!isExecutableFile(trtexec_))
        throw InputError("runner trtexec: '" + trtexec_ + "' is not an executable");
    if (!(timeoutSeconds_ > 0)) throw InputError("runner trtexec: the run timeout must be positive");
    const Graph graph = loadGraph(modelPath_, DimBindings{}); // throws InputError for a bad model
    dynamicBatch_ = !graph.info.assumedDims.empty();
    for (int input : graph.inputs) {
        const Tensor& tensor = graph.tensors[static_cast<size_t>(input)];
        if (tensor.shapeKnown && !tensor.dims.empty()) {
            staticBatch_ = tensor.dims.front();
            break;
        }
    }
}

std::string TrtexecRunner::shapesFor(int64_t batch, std::string* why) {
    if (!dynamicBatch_) {
        if (batch != staticBatch_)
            *why = "the model's batch is fixed at " + std::to_string(staticBatch_) +
                   " (export it with a dynamic batch)";
        return {};
    }
    const auto found = shapes_.find(batch);
    if (found != shapes_.end()) return found->second;
    DimBindings bindings;
    bindings.batch = batch;
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
    return shapes_.emplace(batch, shapes).first->second;
}

RunResult TrtexecRunner::run(const RunConfig& config, const std::atomic<bool>* cancel) {
    if (config.phase != "inference") return RunResult::failed("trtexec runs inference only");
    std::string why;
    const std::string shapes = shapesFor(config.batch, &why);
    if (!why.empty()) return RunResult::failed(why);
    std::string command = quoted(trtexec_) + " " + quoted("--onnx=" + modelPath_);
    if (!shapes.empty()) command += " " + quoted("--shapes=" + shapes);
    if (config.precision == "fp16") command += " --fp16";
    if (config.precision == "int8") command += " --int8";
    const ChildOutcome child =
        runShellCommand(command, runEnvironment(config, modelPath_), timeoutSeconds_, cancel);
    if (!child.started) return RunResult::failed("cannot start trtexec: " + child.error);
    if (child.cancelled) return RunResult::failed("cancelled");
    if (child.timedOut)
        return RunResult::failed("timed out after " + general(timeoutSeconds_, 6) +
                                 " s (process group killed)");
    if (child.signal != 0)
        return RunResult::failed("trtexec killed by signal " + std::to_string(child.signal));
    if (child.exitCode != 0) {
        const std::string why = lastErrorLine(child.out + "\n" + child.err);
        return RunResult::failed("trtexec exit " + std::to_string(child.exitCode) +
                                 (why.empty() ? "" : ": " + why));
    }
    return parseTrtexecOutput(child.out);
}

} // namespace rooftop
