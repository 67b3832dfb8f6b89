// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/llm/mode_sweep.h"

#include "core/common/wide_integer.h"
#include "core/graph/checked_math.h"
#include "core/roofline/layer_operator_class.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace rooftop {
namespace {

using Wide = WideInteger;

struct GroupKey {
    int computeClass;
    int operatorClass;
    bool dispatches;
    bool operator<(const GroupKey& o) const {
        return std::tie(computeClass, operatorClass, dispatches) <
               std::tie(o.computeClass, o.operatorClass, o.dispatches);
    }
};

// The same kernel (shape, and per launch the same MACs, FLOPs and bytes): the kernel-size model's busy
// fraction and floor are then the same per launch, and so is the FLOP/byte ratio.
bool mergeable(const LayerCount& a, const LayerCount& b) {
    const auto firstShape = [](const LayerCount& l) {
        return l.outputShapes.empty() ? std::string() : l.outputShapes.front();
    };
    const int64_t ra = std::max<int64_t>(a.repeat, 1), rb = std::max<int64_t>(b.repeat, 1);
    return firstShape(a) == firstShape(b) && Wide(a.macs) * Wide(rb) == Wide(b.macs) * Wide(ra) &&
           Wide(a.flops) * Wide(rb) == Wide(b.flops) * Wide(ra) &&
           Wide(a.bytes()) * Wide(rb) == Wide(b.bytes()) * Wide(ra) &&
           Wide(a.outputBytes) * Wide(rb) == Wide(b.outputBytes) * Wide(ra);
}

void addInto(LayerCount& sum, const LayerCount& layer) {
    sum.macs = checkedAdd(sum.macs, layer.macs);
    sum.flops = checkedAdd(sum.flops, layer.flops);
    sum.sfuOps = checkedAdd(sum.sfuOps, layer.sfuOps);
    sum.weightBytes = checkedAdd(sum.weightBytes, layer.weightBytes);
    sum.inputBytes = checkedAdd(sum.inputBytes, layer.inputBytes);
    sum.outputBytes = checkedAdd(sum.outputBytes, layer.outputBytes);
    sum.repeat = checkedAdd(std::max<int64_t>(sum.repeat, 1), std::max<int64_t>(layer.repeat, 1));
}

} // namespace

CompactWorkload compactForSweep(const Workload& workload) {
    CompactWorkload compact;
    compact.workload.info = workload.info;
    compact.workload.settings = workload.settings;
    compact.workload.totals = workload.totals;
    std::map<GroupKey, std::vector<size_t>> groups; // key -> indices into compact layers
    for (const LayerCount& layer : workload.layers) {
        const bool dispatches = dispatchesKernel(layer);
        const GroupKey key{layer.flops > 0 ? int(computeClassOf(layer)) : -1, int(operatorClassOf(layer)),
                           dispatches};
        std::vector<size_t>& members = groups[key];
        bool merged = false;
        for (size_t index : members) {
            LayerCount& into = compact.workload.layers[index];
            if (!mergeable(into, layer)) continue;
            addInto(into, layer);
            if (dispatches) ++compact.extraDispatches;
            merged = true;
            break;
        }
        if (merged) continue;
        members.push_back(compact.workload.layers.size());
        compact.workload.layers.push_back(layer);
    }
    return compact;
}

std::vector<ModeSummary> sweepCompact(const CompactWorkload& compact,
                                      const std::vector<ModeProfile>& profiles) {
    std::vector<ModeSummary> result = sweepModes(compact.workload, profiles);
    if (compact.extraDispatches == 0) return result;
    for (size_t m = 0; m < profiles.size(); ++m) {
        const double seconds = double(compact.extraDispatches) * profiles[m].ceilings.dispatchOverhead.value;
        result[m].latencySeconds += seconds;
        result[m].energyJoules += profiles[m].power.constantPower.value * seconds;
        result[m].averageWatts =
            result[m].latencySeconds > 0 ? result[m].energyJoules / result[m].latencySeconds : 0.0;
    }
    return result;
}

} // namespace rooftop
