// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/layer_physics_board.h"

#include "core/device/ceilings.h"
#include "support/test_support.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace rooftop::test {

namespace {

enum class Kind { Conv, Depthwise, MatMul, Norm, Elementwise, Pool, Layout, None };

double elements(const std::string& shape) {
    double product = 1.0;
    for (int i = 0; i < 8; ++i) {
        const long long d = shapeTextDim(shape, i);
        if (d < 0) break;
        product *= double(std::max(1LL, d));
    }
    return product;
}

Kind kindOf(const LayerCount& l) {
    const std::string& op = l.op;
    if (op == "Conv")
        return l.inputShapes.size() > 1 && shapeTextDim(l.inputShapes[1], 1) == 1 &&
                       shapeTextDim(l.inputShapes[0], 1) > 1
                   ? Kind::Depthwise
                   : Kind::Conv;
    if (op == "MatMul" || op == "Gemm") return Kind::MatMul;
    if (op == "BatchNormalization" || op == "LayerNormalization" || op == "Softmax" ||
        op == "SkipLayerNormalization")
        return Kind::Norm;
    if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "ReduceMean")
        return Kind::Pool;
    if (op == "Transpose" || op == "Concat" || op == "Gather" || op == "Slice" || op == "Split" ||
        op == "Expand" || op == "Where")
        return Kind::Layout;
    if (l.kind == OpKind::Alias || l.kind == OpKind::Control || l.bytes() + l.flops == 0) return Kind::None;
    return Kind::Elementwise;
}

// Its own efficiencies per kind, of the FP32 peak and of the DRAM bandwidth.
struct Efficiency {
    double compute, memory;
};

const Efficiency& efficiencyOf(Kind kind) {
    // Conv, Depthwise, MatMul, Norm, Elementwise, Pool, Layout, None
    static const Efficiency table[] = {{0.62, 0.75}, {0.2, 0.3}, {0.5, 0.7}, {0.6, 0.45},
                                       {0.6, 0.7},   {0.6, 0.5}, {0.6, 0.5}, {0.6, 0.7}};
    return table[static_cast<int>(kind)];
}

// The mode's roofs, CPU-clock launch cost and SM count, taken once per run.
struct Board {
    double sms, peak, bandwidth, cpuScale, launch;

    Board(const DeviceSpec& device, const PowerMode& mode) {
        const Ceilings c = deriveCeilings(device, mode, RuntimeProfile{});
        sms = activeSmCount(device, mode);
        peak = c.peak(ComputeClass::Fp32CudaCore).value;
        bandwidth = c.bandwidth.value;
        cpuScale = std::pow(double(device.maxCpuKhz()) / double(std::max<int64_t>(mode.cpuKhz, 1)), 0.9);
        launch = 5e-6 * cpuScale;
    }

    // One node's time with its launch (0 for a node that runs nothing).
    double nodeSeconds(const LayerCount& l) const {
        const Kind kind = kindOf(l);
        if (kind == Kind::None) return 0.0;
        const double outputs =
            l.outputShapes.empty() ? double(l.outputBytes) / 4 : elements(l.outputShapes[0]);
        const Efficiency& e = efficiencyOf(kind);
        const double extraBytes = kind == Kind::Norm ? 0.5 * double(l.inputBytes) : 0.0; // a second pass
        // occupancy: a smooth curve over 128x32 tiles, the depth spread over up to 8 parts
        const double depth = outputs > 0 ? double(l.macs) / outputs : 0.0;
        const double parallel = outputs * std::clamp(depth / 1024.0, 1.0, 8.0) / 4096.0;
        const double occupancy =
            kind == Kind::Conv || kind == Kind::MatMul ? 1.0 - std::exp(-parallel / (1.5 * sms)) : 1.0;
        const double compute = double(l.flops) / (peak * e.compute * std::max(occupancy, 1e-3));
        const double memory = (double(l.bytes()) + extraBytes) / (bandwidth * e.memory);
        double kernel = std::pow(std::pow(compute, 3.0) + std::pow(memory, 3.0), 1.0 / 3.0);
        // a fused element-wise layer still runs as a kernel of its own here: read and write its output
        if (l.fused && kind == Kind::Elementwise) kernel = 2.0 * double(l.outputBytes) / (bandwidth * 0.7);
        return std::max(kernel, 4e-6) + launch;
    }
};

} // namespace

double layerPhysicsSeconds(const DeviceSpec& device, const Workload& w, const PowerMode& mode) {
    const Board board(device, mode);
    double seconds = 200e-6 * board.cpuScale;
    for (const LayerCount& l : w.layers)
        seconds += board.nodeSeconds(l);
    return seconds;
}

std::vector<std::pair<std::string, double>> layerPhysicsProfile(const DeviceSpec& device, const Workload& w,
                                                                const PowerMode& mode) {
    const Board board(device, mode);
    std::vector<std::pair<std::string, double>> layers;
    for (const LayerCount& l : w.layers) {
        const double seconds = board.nodeSeconds(l);
        if (seconds <= 0) continue;
        if (l.fused && !layers.empty()) { // named with its producer, as a builder that fused it reports it
            layers.back().first += " + " + l.name;
            layers.back().second += seconds * 1e3;
        } else {
            layers.emplace_back(l.name, seconds * 1e3);
        }
    }
    return layers;
}

} // namespace rooftop::test
