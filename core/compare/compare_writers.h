// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/class_calibration.h"
#include "core/compare/comparison.h"

#include <string>

namespace rooftop {

/// `{"device", "mode", "source", "measured_total_ms", "predicted_total_ms", "unmapped_ms", "layers":
/// [{"name", "nodes", "measured_time_ms", "predicted_time_ms", "error_pct", "achieved_flops", "intensity",
/// "bound"}], "provenance"}`; numbers a layer lacks are null.
std::string comparisonJson(const Comparison& comparison);

/// One CSV row per layer, worst-predicted first, with the provenance of its numbers.
std::string comparisonCsv(const Comparison& comparison);

/// The comparison as a text table with its totals and where each number comes from.
std::string comparisonTable(const Comparison& comparison);

/// What a per-class calibration fitted: per class its evidence and efficiency before and after, the dispatch
/// and fixed costs, the layers' error before and after, and its notes.
std::string classCalibrationTable(const ClassCalibration& calibration);

/// "trtexec --exportProfile", "ONNX Runtime profile" or "Nsight Compute CSV".
std::string sourceDescription(const std::string& source);

/// How the measured time stands to the predicted: "2.9× slower than predicted", "1.3× faster than predicted",
/// "as predicted" (within 0.5 %).
std::string speedWords(double measuredMs, double predictedMs);

} // namespace rooftop
