// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rooftop {

/// Whether a runs file's runner column names the simulated board ("sim:SEED"): its numbers are simulated,
/// not measured. The one rule every reader of runs applies.
inline bool isSimulatedRunner(const std::string& runner) {
    return runner.rfind("sim", 0) == 0;
}

} // namespace rooftop
