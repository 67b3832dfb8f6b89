// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/energy_fit.h"
#include "core/roofline/prediction.h"
#include "core/roofline/staged_fit.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rooftop {

/// A runtime tuned to a user's measured latencies, with how well the tuned model explains them.
struct RuntimeCalibration {
    RuntimeProfile runtime;     ///< efficiencies, dispatch and fixed cost after tuning; calibrated = true
    double rooflineScale = 1.0; ///< a: measured / predicted roofline time of the dominant class (efficiencies
                                ///< are divided by it)
    double dispatchSecondsAtMaxCpu = 0.0;   ///< b: per-layer dispatch cost at the top CPU clock
    double inferenceSecondsAtMaxCpu = 0.0;  ///< c: fixed cost per inference at the top CPU clock
    bool dispatchFitted = false;            ///< b was fitted (else the starting runtime's estimate)
    bool inferenceFitted = false;           ///< c was fitted (else the starting runtime's value)
    double rSquared = 0.0;                  ///< of the measured latencies
    std::vector<double> residualSeconds;    ///< measured - calibrated prediction, one per run
    std::string quality;                    ///< one honest sentence on the fit (fitQualityText)
    std::vector<std::string> keptEstimates; ///< a line per coefficient the runs could not fit, and why
    std::string classesAtEstimate;          ///< the operator classes the runs did not exercise ("" when none)
};

/// Tunes a runtime from measured runs. Each run comes with the prediction of the same model, mode and batch
/// made with `runtime`. The latency model
///     L_i = sum_k a_k R_ik + b x N_i x f_cpu,max / f_cpu,i + c x f_cpu,max / f_cpu,i
/// (R_ik: the roofline time of operator class k, kernel sizes and floors included; N_i: layers that dispatch
/// a kernel; c: a fixed cost per inference) is fitted by relative non-negative least squares. Only the
/// classes the runs exercise (5 % of a run's roofline time) are fitted: apart when the runs tell them apart
/// (several models), else as one scale; the others keep their estimate relative to the dominant class. As
/// many of b and c are fitted as the runs identify (runs of one model cannot tell b from c); the rest keep
/// the starting runtime's values and keptEstimates says why; classesAtEstimate names the classes at their
/// estimate.
/// Throws InputError with no run or a run without a positive latency, NumericalError when no scale is
/// identified.
RuntimeCalibration calibrateRuntime(const DeviceSpec& device, const RuntimeProfile& runtime,
                                    const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs);

/// One measured run's energy with the estimated power model's terms at the measured latency.
struct PowerRun {
    double measuredJoules = 0.0; ///< measured average power x measured latency
    double constantJoules = 0.0; ///< estimated pi0 x measured latency
    double flopJoules = 0.0;     ///< estimated eps_flop W, all compute classes
    double byteJoules = 0.0;     ///< estimated eps_byte Q
};

/// The power multipliers fitted to measured energies, or why none could be.
struct PowerCalibration {
    int runs = 0;                       ///< runs that measured power
    std::optional<RuntimePowerFit> fit; ///< nothing: no run measured power (or none identifies a multiplier)
    std::string quality;                ///< one honest sentence on the fit
    std::vector<std::string> keptEstimates; ///< coefficients left at the estimate, and why
};

/// Fits measured energy = s_pi0 x pi0 T + s_flop x eps_flop W + s_byte x eps_byte Q (relative, non-negative)
/// with as many multipliers as the runs identify: all three, else pi0 and one dynamic scale, else one scale.
PowerCalibration calibratePower(const std::vector<PowerRun>& runs, const std::string& runtimeName,
                                bool simulated = false);

/// One measured run with what Rooftop predicts for it before and after calibration.
struct CalibratedRun {
    CalibrationRun run;         ///< the measured run
    PowerMode mode;             ///< the mode it was run in
    ModelPrediction start;      ///< with the starting runtime (estimated power)
    ModelPrediction calibrated; ///< with the tuned runtime (fitted latency and power)
    double rooflineSeconds = 0; ///< sum of max(W/peak, Q/BW) with the starting runtime
    int dispatchingLayers = 0;  ///< layers that launch a kernel and pay t0 (with the starting runtime)
    double residualSeconds = 0; ///< measured - calibrated
};

/// A warning when the fitted efficiencies exceed 1 (the runs went faster than the counted work allows at the
/// peak: the counts overstate the work, or the runs are of another model or board) or both lie below 2 %
/// (over 50 times slower: likely runs of another, larger model).
std::vector<std::string> efficiencyWarnings(const RuntimeProfile& tuned);

} // namespace rooftop
