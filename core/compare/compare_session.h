// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/class_calibration.h"
#include "core/compare/comparison.h"
#include "core/session/analysis_request.h"

#include <string>

namespace rooftop {

/// Which tool wrote the measured profile.
enum class ProfileSource {
    Trtexec,      ///< trtexec --exportProfile JSON
    OnnxRuntime,  ///< ONNX Runtime profiler JSON
    NsightCompute ///< Nsight Compute CSV export
};

/// One `rooftop compare` question: a model on a board, a measured profile, the mode to predict in.
struct CompareRequest {
    AnalysisRequest analysis; ///< model, device, runtime, counting settings; its mode set is replaced
    ProfileSource source = ProfileSource::Trtexec; ///< the tool that wrote profilePath
    std::string profilePath;   ///< trtexec --exportProfile, ONNX Runtime profile or Nsight Compute CSV
    std::string layerInfoPath; ///< trtexec --exportLayerInfo (optional, trtexec only)
    std::string timesPath;     ///< trtexec --exportTimes (optional, trtexec only): GPU time per inference
    std::string mode;          ///< one mode (modesFor); empty: the board's fastest stock mode
};

/// Reads the request's measured files into layers; throws InputError naming the file, record and field.
MeasuredLayers readMeasuredLayers(const CompareRequest& request);

/// Reads the profile, counts and predicts the model in the mode (runAnalysis), maps and compares; throws
/// InputError for bad files or a mode that is not exactly one mode.
Comparison runComparison(const CompareRequest& request);

/// runComparison, then fits the runtime's per-class efficiencies, dispatch and fixed cost to the profile
/// (calibrateClasses); throws InputError as runComparison does, or when nothing can be fitted.
ClassCalibration runClassCalibration(const CompareRequest& request);

} // namespace rooftop
