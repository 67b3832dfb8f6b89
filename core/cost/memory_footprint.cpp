// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/memory_footprint.h"

#include "core/common/wide_integer.h"
#include "core/cost/optimizer_update.h"
#include "core/cost/traffic.h"

#include <algorithm>
#include <limits>

namespace rooftop {

namespace {

// saturating: a footprint beyond 64 bits is simply more than any board holds
int64_t saturatingSum(int64_t a, int64_t b) {
    int64_t result = 0;
    return __builtin_add_overflow(a, b, &result) ? std::numeric_limits<int64_t>::max() : result;
}

int64_t saturatingProduct(int64_t a, int64_t b) {
    int64_t result = 0;
    return __builtin_mul_overflow(a, b, &result) ? std::numeric_limits<int64_t>::max() : result;
}

} // namespace

const char* memoryFootprintWords(Phase phase) {
    return phase == Phase::Training ? "weights, gradients, optimizer states and activations"
                                    : "weights and activations";
}

int64_t memoryFootprintBytes(const Workload& workload) {
    int64_t largestLayer = 0;
    for (const LayerCount& layer :
         workload.layers) // a loop body's counts hold every trip; one is held at once
        largestLayer = std::max(largestLayer, saturatingSum(layer.inputBytes, layer.outputBytes) /
                                                  std::max<int64_t>(1, layer.repeat));
    const WorkloadTotals& t = workload.totals;
    // held whole and once: the layers' weight reads count a shared weight (a tied embedding) once per reader
    // and a table a lookup reads in part by the rows it reads
    const int64_t weights = t.weightHeldBytes > 0 ? t.weightHeldBytes : t.weightBytes;
    int64_t held = saturatingSum(weights, largestLayer);
    if (workload.settings.phase == Phase::Training) {
        // the gradients and the states beside each parameter: what the update reads besides the parameter
        const int statesAndGradient =
            std::max(1, optimizerConstants(workload.settings.optimizer).tensorsRead - 1);
        // of the weights the optimizer updates (not BatchNorm's running statistics, not integer tables)
        int64_t trainable = weights;
        if (t.params > 0 && t.trainableParams >= 0 && t.trainableParams < t.params)
            trainable =
                static_cast<int64_t>(static_cast<WideInteger>(weights) * t.trainableParams / t.params);
        held = saturatingSum(held, saturatingProduct(trainable, int64_t{statesAndGradient}));
        held = saturatingSum(held, t.savedBytes);
    }
    return held;
}

} // namespace rooftop
