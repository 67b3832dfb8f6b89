// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"
#include "core/cost/workload.h"
#include "plots/roofline_scene.h"

namespace rooftop::plots {

/// The measured layers of a comparison that can sit on the time roofline: each at (intensity, achieved
/// FLOP/s) with the predicted point of the ONNX nodes it covers (their FLOPs / bytes and FLOPs / predicted
/// time, Rooftop's counts from `workload`). Layers without nodes, FLOPs, bytes or time are counted as
/// skipped.
MeasuredOverlay measuredOverlay(const Comparison& comparison, const Workload& workload);

} // namespace rooftop::plots
