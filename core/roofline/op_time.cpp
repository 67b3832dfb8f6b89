// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/op_time.h"

#include <algorithm>
#include <map>

namespace rooftop {

std::vector<OpTypeTime> timeByOpType(const Workload& workload, const ModelPrediction& prediction) {
    std::map<std::string, OpTypeTime> byOp;
    const size_t count = std::min(workload.layers.size(), prediction.layers.size());
    for (size_t i = 0; i < count; ++i) {
        const double seconds = prediction.layers[i].seconds;
        if (seconds <= 0) continue;
        OpTypeTime& entry = byOp[workload.layers[i].op];
        entry.op = workload.layers[i].op;
        entry.seconds += seconds;
        ++entry.layers;
    }
    const double layersSeconds = prediction.layersSeconds();
    std::vector<OpTypeTime> times;
    times.reserve(byOp.size());
    for (auto& [op, entry] : byOp) {
        entry.shareOfTime = layersSeconds > 0 ? entry.seconds / layersSeconds : 0.0;
        times.push_back(entry);
    }
    std::sort(times.begin(), times.end(), [](const OpTypeTime& a, const OpTypeTime& b) {
        return a.seconds != b.seconds ? a.seconds > b.seconds : a.op < b.op;
    });
    return times;
}

} // namespace rooftop
