// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/operator_class.h"

#include <string>

namespace rooftop {

/// The parallel work of one layer's kernel: what the kernel-size model needs of its shape.
struct KernelWork {
    double outputs = 0.0; ///< output elements, batch included
    double depth = 0.0;   ///< multiply-adds per output (the reduction depth K of a matrix product)
    bool tiled = false;   ///< output tiles of a matrix product (convolutions, GEMMs, attention), else
                          ///< element-wise blocks
};

/// The work of one of a layer's launches (its repeat): outputs from its first output's shape (its output
/// bytes when the shape is not numeric), depth from its MACs.
KernelWork kernelWorkOf(const LayerCount& layer, OperatorClass operatorClass);

/// How a kernel spreads over the active SMs: thread blocks in waves of resident slots.
struct KernelFill {
    double blocks = 0.0;         ///< thread blocks (split-K parts included)
    double residentBlocks = 0.0; ///< blocks resident at once on the active SMs
    double busyFraction = 1.0;   ///< of the slots, averaged over the waves (1: every wave full)
};

/// The fill of a kernel on `activeSms` SMs (busyFraction 1 when activeSms is not positive or there is no
/// work). A matrix product runs 64x64 output tiles, two resident per SM, and splits its depth (parts of at
/// least 256) when its tiles leave slots idle; element-wise work runs blocks of 256 threads x 4 outputs, six
/// resident per SM (1,536 threads). The last wave is partial: busyFraction = blocks / (waves x slots).
KernelFill kernelFill(const KernelWork& work, double activeSms);

/// The busy fraction of a kernel of several waves when the runtime pays a share g of its partial last wave's
/// idle slots (its kernel choice, tile sizes or stream-K, recovers the rest): 1 / (1 + g (1 / busy - 1)); the
/// wave model's at g = 1, none at 0. A kernel of one wave (fewer blocks than slots) keeps its busy fraction:
/// no kernel choice fills SMs it has no work for.
double tailScaledBusyFraction(const KernelFill& fill, double tailScale);

/// "small kernel: 1.3 of 16 SMs busy" when a kernel keeps under 90 % of the SMs busy, else "".
std::string smallKernelText(double busyFraction, double activeSms);

} // namespace rooftop
