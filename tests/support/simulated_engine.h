// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated TensorRT engine for tests: it "profiles" a counted model the way trtexec --exportProfile and
// --exportTimes would report it, with per-operator physics written apart from Rooftop's prior (which is
// max(W / peak, Q / BW) / e_class + t0 per dispatching node), so that per-class calibration is judged on laws
// it was not built around.
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/device/power_mode.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rooftop::test {

/// What a simulated trtexec run writes.
struct SimulatedEngineRun {
    std::vector<std::pair<std::string, double>> layers; ///< fused layer name, averageMs (profile order)
    double inferenceMs = 0.0;                           ///< GPU time per inference (--exportTimes)
    std::string timesJson;                              ///< --exportTimes: 20 inferences around inferenceMs
};

/// The engine's run of `w` (counted at the run's batch and precision) in `mode`. Layers: each
/// kernel-launching node with the pointwise nodes fused after it ("A + B + C"), a reformat of the input. A
/// node's time is a smooth maximum (p = 2.5: compute and memory overlap partly) of W / (peak x c_op x W / (W
/// + 3e5)) and Q / (BW x m_op) with compute and memory efficiencies of its own per op type (a depthwise
/// convolution 0.07 and 0.4, a dense one 0.58 and 0.72, HardSwish slower than Relu); a fused node adds 20 %
/// of its time; every layer 4 us of launch x (f_cpu,max / f_cpu)^0.9; the inference 40 us beside its layers;
/// 2 % seeded noise.
SimulatedEngineRun simulateEngine(const DeviceSpec& device, const Workload& w, const PowerMode& mode,
                                  uint64_t seed);

/// A trtexec --exportTimes JSON of these per-inference GPU times.
std::string trtexecTimesJson(const std::vector<double>& computeMs);

} // namespace rooftop::test
