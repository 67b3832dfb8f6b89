// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"
#include "core/cost/workload.h"
#include "core/device/operator_class.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/prediction.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// What a profile says about one operator class, and what was fitted from it.
struct ClassFit {
    OperatorClass operatorClass = OperatorClass::Pointwise; ///< the class this fit is of
    int layers = 0;          ///< measured layers whose predicted roofline time this class dominates
    double measuredMs = 0.0; ///< the measured time of those layers
    double before = 1.0;     ///< the runtime's class efficiency before
    double after = 1.0;      ///< after the fit (before, when not fitted)
    bool fitted = false;     ///< its efficiency was fitted (else kept, or kept relative)
    bool relative = false;   ///< not fitted, its estimate kept relative to the leading fitted class
    std::string note;        ///< why it was not fitted
};

/// What a profile says about the least kernel time t_min, and what was fitted from it.
struct FloorFit {
    int layers = 0;          ///< measured layers whose predicted time the floor dominates
    double measuredMs = 0.0; ///< the measured time of those layers
    double beforeUs = 0.0;   ///< t_min per kernel in the profile's mode, before
    double afterUs = 0.0;    ///< and after (before, when not fitted)
    bool fitted = false;     ///< t_min was fitted
    std::string note;        ///< why it was not fitted
};

/// What a profile says about the partial last waves of kernels, and what was fitted from it.
struct TailFit {
    int layers = 0;      ///< measured layers whose predicted time a partial last wave adds at least 10 % to
    double before = 1.0; ///< the runtime's tail scale before (kernel_size.h, tailScaledBusyFraction)
    double after = 1.0;  ///< and after (before, when not fitted)
    bool fitted = false; ///< the tail scale was fitted
    std::string note;    ///< why it was not fitted
};

/// The facts a calibration needs besides the comparison: the run the profile was measured in.
struct ClassCalibrationInput {
    const Comparison* comparison = nullptr;      ///< the profile against the prediction; required
    const Workload* workload = nullptr;          ///< the counted model; required
    const ModelPrediction* prediction = nullptr; ///< of the workload in the profile's mode, with `runtime`
    RuntimeProfile runtime;                      ///< the runtime the prediction used
    double cpuKhz = 0.0;                         ///< the mode's CPU clock
    double maxCpuKhz = 0.0;                      ///< the board's top CPU clock
    std::optional<double> inferenceMs;           ///< measured GPU time per inference (trtexec --exportTimes)
    std::string basis; ///< the profile, mode, board, batch and precision, for the file
};

/// A runtime fitted to a measured layer profile, with what each class contributed.
struct ClassCalibration {
    RuntimeProfile runtime;        ///< calibrated: class efficiencies, dispatch cost and fixed cost fitted
    std::vector<ClassFit> classes; ///< one per operator class, in OperatorClass order
    FloorFit floor;     ///< the kernel floor (no layer dominated by it without the kernel-size model)
    TailFit tail;       ///< the wave-tail penalty's scale
    int layersUsed = 0; ///< measured layers with ONNX nodes and a positive time that the fit used
    double dispatchBeforeUs = 0.0; ///< per dispatching node at the profile's CPU clock
    double dispatchAfterUs = 0.0;  ///< and after (before, when not fitted)
    bool dispatchFitted = false;   ///< the dispatch cost was fitted (else the runtime's is kept)
    double fixedMs = 0.0;          ///< per inference: overhead layers, plus the --exportTimes gap when given
    bool fixedFitted = false; ///< the profile had overhead layers or --exportTimes (else fixedMs is kept)
    double layerErrorBeforePct = 0; ///< mean |error| of the used layers with the runtime before
    double layerErrorAfterPct = 0;  ///< and after
    std::vector<std::string> notes; ///< what the fit left out or kept, one sentence each
};

/// Fits, by non-negative least squares on the layers' relative errors, one efficiency per operator class that
/// dominates at least two layers and 1 % of the measured time, the kernel floor's scale where it dominates as
/// many, the scale of the wave-tail penalty where layers pay it (the best of a grid), and the dispatch cost
/// per dispatching node; a class at its estimate that the profile cannot fit keeps it relative to the fitted
/// classes; overhead layers (and the gap to --exportTimes' time) become the fixed cost per inference. Throws
/// InputError when no layer can be used.
ClassCalibration calibrateClasses(const ClassCalibrationInput& input);

} // namespace rooftop
