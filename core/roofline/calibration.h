// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/energy_fit.h"
#include "core/roofline/prediction.h"

#include <string>
#include <utility>
#include <vector>

namespace rooftop {

/// A runtime tuned to a user's measured runs, with how well the tuned model explains them.
struct RuntimeCalibration {
    RuntimeProfile runtime;       ///< efficiencies and dispatch cost after tuning; calibrated = true
    double rooflineScale = 1.0;   ///< a: measured / predicted roofline time (efficiencies are divided by it)
    double dispatchSecondsAtMaxCpu = 0.0; ///< b: fitted per-layer dispatch cost at the top CPU clock
    double rSquared = 0.0;        ///< of the measured latencies
    std::vector<double> residualSeconds; ///< measured - calibrated prediction, one per run
};

/// Tunes a runtime from measured runs. Each run comes with the prediction of the same model, mode and batch
/// made with `runtime` (any efficiencies, any dispatch cost). The latency model
///     L_i = a x R_i + b x N_i x f_cpu,max / f_cpu,i
/// (R_i: the prediction's roofline time, sum of max(W/peak, Q/BW); N_i: layers that dispatch a kernel) is
/// fitted by non-negative least squares; the tuned runtime has efficiencies / a and dispatch b at the top CPU
/// clock. Throws InputError with fewer than 2 runs or runs that do not separate the two terms (for example
/// all in one mode at one batch size).
RuntimeCalibration calibrateRuntime(const DeviceSpec& device, const RuntimeProfile& runtime,
                                    const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs);

} // namespace rooftop
