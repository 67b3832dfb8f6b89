// SPDX-License-Identifier: GPL-3.0-or-later
// Where a GPU loses time on small kernels (shared/reference/microbench.md): a kernel's thread blocks run in
// waves over the SMs, and a layer with fewer blocks than resident slots, or a partial last wave, leaves SMs
// idle while it runs. Implicit-GEMM convolutions and GEMMs tile their output (64x64 is the tile libraries
// fall back to on small problems) and split the reduction depth across blocks when the tiles alone do not
// fill the GPU (split-K); element-wise kernels launch 256-thread blocks of 4 outputs per thread.
#include "core/roofline/kernel_size.h"

#include "core/common/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rooftop {

namespace {

constexpr double tileOutputs = 64.0 * 64.0;
constexpr double tilesPerSm = 2.0;
constexpr double splitDepth = 256.0;
constexpr double blockOutputs = 256.0 * 4.0;
constexpr double blocksPerSm = 1536.0 / 256.0;

// The product of a shape's dimensions as the layer table writes it ("1x16x112x112"); 0 when a dimension is
// not a positive number.
double elementsOf(const std::string& shape) {
    if (shape.empty()) return 0.0;
    double product = 1.0;
    const char* at = shape.c_str();
    while (*at != '\0') {
        char* end = nullptr;
        const long long dim = std::strtoll(at, &end, 10);
        if (end == at || dim <= 0 || (*end != 'x' && *end != '\0')) return 0.0;
        product *= static_cast<double>(dim);
        at = *end == 'x' ? end + 1 : end;
    }
    return product;
}

} // namespace

KernelWork kernelWorkOf(const LayerCount& layer, OperatorClass operatorClass) {
    KernelWork work;
    const double launches = static_cast<double>(std::max<int64_t>(layer.repeat, 1));
    work.outputs = layer.outputShapes.empty() ? 0.0 : elementsOf(layer.outputShapes.front());
    if (work.outputs <= 0) work.outputs = static_cast<double>(layer.outputBytes) / 4.0 / launches;
    work.depth = work.outputs > 0 ? static_cast<double>(layer.macs) / launches / work.outputs : 0.0;
    work.tiled = layer.kind == OpKind::Matrix &&
                 (operatorClass == OperatorClass::DenseConv || operatorClass == OperatorClass::Gemm ||
                  operatorClass == OperatorClass::Attention);
    return work;
}

KernelFill kernelFill(const KernelWork& work, double activeSms) {
    KernelFill fill;
    if (!(activeSms > 0) || !(work.outputs > 0)) return fill;
    if (work.tiled) {
        const double tiles = std::ceil(work.outputs / tileOutputs);
        fill.residentBlocks = tilesPerSm * activeSms;
        const double split = tiles >= fill.residentBlocks
                                 ? 1.0
                                 : std::max(1.0, std::min(std::ceil(fill.residentBlocks / tiles),
                                                          std::floor(work.depth / splitDepth)));
        fill.blocks = tiles * split;
    } else {
        fill.residentBlocks = blocksPerSm * activeSms;
        fill.blocks = std::ceil(work.outputs / blockOutputs);
    }
    const double waves = std::ceil(fill.blocks / fill.residentBlocks);
    fill.busyFraction = fill.blocks / (waves * fill.residentBlocks);
    return fill;
}

double tailScaledBusyFraction(const KernelFill& fill, double tailScale) {
    if (tailScale == 1.0 || !(fill.busyFraction > 0) || fill.blocks <= fill.residentBlocks)
        return fill.busyFraction;
    return 1.0 / (1.0 + tailScale * (1.0 / fill.busyFraction - 1.0));
}

std::string smallKernelText(double busyFraction, double activeSms) {
    if (!(activeSms > 0) || busyFraction >= 0.9) return {};
    return "small kernel: " + general(busyFraction * activeSms, 2) + " of " + general(activeSms, 4) +
           " SMs busy";
}

} // namespace rooftop
