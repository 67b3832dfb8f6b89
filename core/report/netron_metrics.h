// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/roofline/prediction.h"

#include <string>

namespace rooftop {

/// Netron's side-car attachment ({"signature": "netron:attachment", "metadata": [...], "metrics": [...]};
/// each item {"kind", "target", "name", "value"}) with per-node metrics keyed by node name (kind "node") and
/// the totals (kind "model", target ""): flops, macs, sfu_ops, weight/input/output bytes, bytes, intensity,
/// and with a prediction (layers index-aligned with the workload's) time_s, energy_j, bound,
/// share_of_time_percent. Open the model in Netron, then drop this file on it. Nodes without an ONNX name
/// cannot be matched by Netron.
std::string netronMetricsJson(const Workload& workload, const ModelPrediction* prediction);

} // namespace rooftop
