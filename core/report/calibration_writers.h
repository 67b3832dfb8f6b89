// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/calibration_session.h"

#include <string>

namespace rooftop {

/// The fit, every run's residual and the power comparison; `outputPath` is where the runtime was written (or
/// empty).
std::string calibrationTable(const CalibrationResult& result, const std::string& outputPath);

/// "rooftop-calibration/3" with the starting and tuned runtimes, every run and the power comparison.
std::string calibrationJson(const CalibrationResult& result, const std::string& outputPath);

} // namespace rooftop
