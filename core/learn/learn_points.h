// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/runtime_profile.h"
#include "core/learn/predictor.h"

#include <functional>
#include <string>
#include <vector>

namespace rooftop {

/// One measured run before it is turned into features.
struct MeasuredRun {
    PowerMode mode;                                          ///< the mode it ran in
    int64_t batch = 1;                                       ///< samples per batch
    Precision precision = Precision::FP32;                   ///< the precision it ran at
    double latencySeconds = 0.0;                             ///< measured latency of one batch, seconds
    double watts = std::numeric_limits<double>::quiet_NaN(); ///< NaN when not measured
    std::string runner; ///< what ran it ("sim:7", "trtexec"); may be empty
};

/// The model counted at a batch size and precision (the caller counts each once).
using WorkloadLookup = std::function<const Workload&(int64_t batch, Precision precision)>;

/// The learner's points: each run with the features of Rooftop's roofline prediction of its configuration
/// (profiles derived from the device and runtime).
std::vector<LearnPoint> learnPoints(const DeviceSpec& device, const RuntimeProfile& runtime,
                                    const std::vector<MeasuredRun>& runs, const WorkloadLookup& workload);

} // namespace rooftop
