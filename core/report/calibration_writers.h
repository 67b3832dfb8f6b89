// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/text_table.h"
#include "core/session/calibration_session.h"

#include <string>
#include <vector>

namespace rooftop {

/// The calibration report in its parts, for the CLI's text and the window's tables alike.
struct CalibrationReportParts {
    std::string headline; ///< "Calibrated tensorrt -> tensorrt-calibrated on ... from 12 runs of ..."
    std::vector<std::string>
        fitLines;    ///< the latency model, its coefficients, the fit's quality, what was kept
    TextTable runs;  ///< each run: measured, starting and calibrated latency, residual
    TextTable power; ///< each run with power: measured, estimated and calibrated watts
    std::vector<std::string> powerLines; ///< the power fit's multipliers and quality, what was kept, warnings
    std::string footer;                  ///< where the runtime was written and how to use it
};

/// The report's parts; `outputPath` is where the runtime was written (or empty); `readableModes`: the tables
/// name modes as a person reads them ("GPU 217 · EMC 3199 · 2 × 269 MHz"), for the window.
CalibrationReportParts calibrationReportParts(const CalibrationResult& result, const std::string& outputPath,
                                              bool readableModes = false);

/// The fit, every run's residual and the power comparison as text (calibrationReportParts laid out).
std::string calibrationTable(const CalibrationResult& result, const std::string& outputPath);

/// "rooftop-calibration/3" with the starting and tuned runtimes, every run and the power comparison.
std::string calibrationJson(const CalibrationResult& result, const std::string& outputPath);

} // namespace rooftop
