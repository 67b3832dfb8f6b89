// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/predictor.h"

#include <string>
#include <vector>

namespace rooftop {

/// What `rooftop learn` and the window's learn page say of a learned predictor, one fact per field.
struct LearnReport {
    std::string headline; ///< "Learned time and power of MODEL on BOARD from N runs (M with power)"
    std::string method;   ///< the learner, in one sentence
    std::string error;    ///< the cross-validated MAPE, or why power was not learned
    std::string range;    ///< the runs' range, beyond which the predictor extrapolates
    std::vector<std::string> coefficients; ///< time's and (when learned) power's physics coefficients and GP
    std::vector<std::string> notes;        ///< the learner's notes (runs skipped, a precision settled)
    std::string written;                   ///< "Predictor written to PATH", empty when nothing was written
};

/// The report of `p` learned with `notes`, written to `outputPath` (empty: not written).
LearnReport learnReport(const Predictor& p, const std::vector<std::string>& notes,
                        const std::string& outputPath);

/// Every line of `report`, each ended by a newline; `usage` follows the written line (empty: none).
std::string learnReportText(const LearnReport& report, const std::string& usage);

} // namespace rooftop
