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
/// clock. Throws InputError with fewer than 2 runs, NumericalError for runs that do not separate the two terms
/// (for example all in one mode at one batch size).
RuntimeCalibration calibrateRuntime(const DeviceSpec& device, const RuntimeProfile& runtime,
                                    const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs);

/// One measured run with what Rooftop predicts for it before and after calibration.
struct CalibratedRun {
    CalibrationRun run;
    PowerMode mode;
    ModelPrediction start;      ///< with the starting runtime
    ModelPrediction calibrated; ///< with the tuned runtime
    double rooflineSeconds = 0; ///< sum of max(W/peak, Q/BW) with the starting runtime
    int dispatchingLayers = 0;
    double residualSeconds = 0; ///< measured - calibrated
};

/// How the estimated power model compares with the measured average power (runs that measured it).
struct PowerComparison {
    int runs = 0;
    double meanRatio = 0; ///< mean of measured / predicted average power
    bool fitted =
        false; ///< measured energy = dynamicScale x (eps_flop W + eps_byte Q) + constantScale x pi0 T
    double dynamicScale = 0, constantScale = 0, rSquared = 0;
};

/// Measured average power against the calibrated prediction of each run that measured it, and a fit of the
/// measured energy = dynamicScale x (eps_flop W + eps_byte Q) + constantScale x pi0 T (with 2+ such runs).
PowerComparison comparePowerModel(const std::vector<CalibratedRun>& runs);

} // namespace rooftop
