// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace rooftop {

/// How many runs a profile or tune asks for and about how long they take, said before it starts.
struct RunEstimate {
    std::optional<size_t> modes; ///< empty: the mode set cannot be counted (no board, or why says why)
    size_t batches = 0;          ///< batch sizes to run
    size_t precisions = 0;       ///< precisions to run
    int repeat = 1;              ///< runs per configuration (profile)
    std::optional<int> budget;   ///< at most this many runs (tune)
    double secondsPerRun =
        0.0;         ///< the runner's typical run, its start and the settle after a switch included
    std::string why; ///< why the mode set cannot be counted ("sample:N needs N from 1 to …")

    /// modes × batches × precisions; 0 without a mode count.
    size_t configurations() const;
    /// The runs made: configurations × repeat, capped by the budget.
    size_t runs() const;
};

/// The number of modes `spec` names on `device` (modesFor's meaning; "current" is one mode, whichever is in
/// force); empty with *why set for a text modesFor refuses.
std::optional<size_t> modeSetSize(const DeviceSpec& device, const std::string& spec, uint64_t seed,
                                  std::string* why);

/// A typical run of a runner (a --runner spelling: "trtexec", "sim", "command:…"), in seconds: trtexec's
/// engine load, warm-up and timed window; a command's start and run; the simulated board's near nothing; plus
/// the settle wait after a switch when modes are switched.
double typicalRunSeconds(const std::string& runner, bool switching);

/// "4 modes × 2 batches × 3 precisions = 24 runs, about 1 min"; with a budget, "… = 24 configurations; at
/// most 15 runs (the budget), about 4 min"; without a mode count, "2 batches × 3 precisions per mode".
std::string describeRunEstimate(const RunEstimate& estimate);

} // namespace rooftop
