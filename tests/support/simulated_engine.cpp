// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/simulated_engine.h"

#include "core/common/splitmix.h"
#include "core/device/ceilings.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <cstdlib>
#include <map>

namespace rooftop::test {

namespace {

struct OpPhysics {
    double compute; ///< fraction of the FP32 / tensor peak
    double memory;  ///< fraction of the DRAM bandwidth
};

OpPhysics physicsOf(const LayerCount& layer) {
    if (layer.op == "Conv") {
        const bool depthwise = layer.inputShapes.size() > 1 && shapeTextDim(layer.inputShapes[1], 1) == 1 &&
                               shapeTextDim(layer.inputShapes[0], 1) > 1;
        return depthwise ? OpPhysics{0.07, 0.40} : OpPhysics{0.58, 0.72};
    }
    static const std::map<std::string, OpPhysics> byOp{{"Gemm", {0.62, 0.78}},
                                                       {"MatMul", {0.60, 0.75}},
                                                       {"Relu", {0.3, 0.85}},
                                                       {"Clip", {0.3, 0.83}},
                                                       {"HardSwish", {0.2, 0.62}},
                                                       {"HardSigmoid", {0.22, 0.66}},
                                                       {"Sigmoid", {0.2, 0.7}},
                                                       {"Add", {0.3, 0.80}},
                                                       {"Mul", {0.3, 0.76}},
                                                       {"GlobalAveragePool", {0.2, 0.42}},
                                                       {"MaxPool", {0.2, 0.50}},
                                                       {"AveragePool", {0.2, 0.48}},
                                                       {"BatchNormalization", {0.15, 0.55}},
                                                       {"LayerNormalization", {0.12, 0.5}},
                                                       {"Softmax", {0.1, 0.45}},
                                                       {"Concat", {1.0, 0.55}},
                                                       {"Transpose", {1.0, 0.4}},
                                                       {"Flatten", {1.0, 0.9}}};
    const auto found = byOp.find(layer.op);
    return found != byOp.end() ? found->second : OpPhysics{0.25, 0.6};
}

bool launches(const LayerCount& layer) {
    return layer.kind == OpKind::Matrix || layer.kind == OpKind::Vector ||
           layer.kind == OpKind::DataMovement || (layer.kind == OpKind::Pointwise && !layer.fused);
}

double nodeSeconds(const LayerCount& layer, const Ceilings& c) {
    const OpPhysics physics = physicsOf(layer);
    const double w = double(layer.flops), q = double(layer.bytes());
    const bool tensor = layer.kind == OpKind::Matrix && layer.computeType == DataType::Float16;
    const double peak =
        tensor ? c.peak(ComputeClass::TensorFp16).value : c.peak(ComputeClass::Fp32CudaCore).value;
    const double compute = w > 0 ? w / (peak * physics.compute * w / (w + 3e5)) : 0.0;
    const double memory = q > 0 ? q / (c.bandwidth.value * physics.memory) : 0.0;
    return std::pow(std::pow(compute, 2.5) + std::pow(memory, 2.5), 1.0 / 2.5);
}

double noise(SplitMix64& random) {
    return 1.0 + 0.02 * (2.0 * random.uniform() - 1.0) * std::sqrt(3.0);
}

} // namespace

std::string trtexecTimesJson(const std::vector<double>& computeMs) {
    QJsonArray inferences;
    double start = 0.0;
    for (double ms : computeMs) {
        inferences.append(QJsonObject{{"startEnqMs", start},
                                      {"endEnqMs", start + 0.01},
                                      {"startComputeMs", start},
                                      {"endComputeMs", start + ms},
                                      {"h2dMs", 0.0},
                                      {"computeMs", ms},
                                      {"d2hMs", 0.0},
                                      {"latencyMs", ms}});
        start += ms + 0.02;
    }
    return QJsonDocument(inferences).toJson(QJsonDocument::Compact).toStdString();
}

SimulatedEngineRun simulateEngine(const DeviceSpec& device, const Workload& w, const PowerMode& mode,
                                  uint64_t seed) {
    const Ceilings c = deriveCeilings(device, mode, RuntimeProfile{}); // the hardware roofs, no runtime
    const double cpuMax = double(device.maxCpuKhz());
    const double launch =
        4e-6 * std::pow(cpuMax > 0 && mode.cpuKhz > 0 ? cpuMax / double(mode.cpuKhz) : 1.0, 0.9);
    SplitMix64 random(seed * 7919 + uint64_t(w.layers.size()));
    SimulatedEngineRun run;
    std::string name;
    double seconds = 0.0;
    auto flush = [&]() {
        if (name.empty()) return;
        run.layers.emplace_back(name, (seconds + launch) * 1e3 * noise(random));
        name.clear();
        seconds = 0.0;
    };
    for (const LayerCount& layer : w.layers) {
        if (layer.kind == OpKind::Alias || layer.kind == OpKind::Control) continue; // folded by the builder
        if (launches(layer)) {
            flush();
            if (run.layers.empty())
                run.layers.emplace_back("Reformatting CopyNode for Input Tensor 0 to " + layer.name,
                                        (double(layer.inputBytes) / (c.bandwidth.value * 0.5) + launch) *
                                            1e3);
            name = layer.name;
            seconds = nodeSeconds(layer, c);
        } else {
            name += (name.empty() ? "" : " + ") + layer.name;
            seconds += 0.2 * nodeSeconds(layer, c);
        }
    }
    flush();
    double sum = 0.0;
    for (const auto& layer : run.layers)
        sum += layer.second;
    run.inferenceMs = sum + 0.04;
    std::vector<double> times;
    for (int i = 0; i < 20; ++i)
        times.push_back(run.inferenceMs * noise(random));
    run.timesJson = trtexecTimesJson(times);
    return run;
}

} // namespace rooftop::test
