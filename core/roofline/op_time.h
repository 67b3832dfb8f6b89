// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/roofline/prediction.h"

#include <string>
#include <vector>

namespace rooftop {

/// The predicted time of all layers of one op type (as TensorRT's engine explorer sums it).
struct OpTypeTime {
    std::string op;       ///< the ONNX op type (LayerCount::op)
    double seconds = 0.0; ///< sum of the layers' times (dispatch t0 included)
    /// Of all layers' summed time, 0..1, so the shares add up to 1: the model's latency also holds the fixed
    /// cost per inference, or is a predictor's, and is not that sum.
    double shareOfTime = 0.0;
    int layers = 0; ///< layers of this op type with time
};

/// Time per op type of a prediction, longest first (ties by name); layers with no time are left out.
std::vector<OpTypeTime> timeByOpType(const Workload& workload, const ModelPrediction& prediction);

} // namespace rooftop
