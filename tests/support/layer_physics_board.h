// SPDX-License-Identifier: GPL-3.0-or-later
// A third board physics for tests, per layer, written apart from Rooftop's prior
// (core/roofline/prediction.cpp, kernel_size.cpp): its own operator classes and efficiencies, a smooth
// occupancy curve over its own tile, compute and memory combined smoothly, unfused element-wise work and a
// kernel floor. The prior's kernel-size and class model is judged on it (test_prior_physics).
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/device/power_mode.h"

#include <string>
#include <utility>
#include <vector>

namespace rooftop::test {

/// The noise-free latency (seconds, one batch) of a workload in a mode on the layer physics: the layers'
/// times plus 5 us per kernel launch at the top CPU clock (x (f_max / f)^0.9) and 200 us per inference.
double layerPhysicsSeconds(const DeviceSpec& device, const Workload& workload, const PowerMode& mode);

/// The same run as a per-layer profile reports it (name, ms): a node that runs a kernel, the fused nodes
/// after it joined to its name ("A + B"), as a builder that fused them names them; with the inference's
/// fixed cost they add up to layerPhysicsSeconds.
std::vector<std::pair<std::string, double>>
layerPhysicsProfile(const DeviceSpec& device, const Workload& workload, const PowerMode& mode);

} // namespace rooftop::test
