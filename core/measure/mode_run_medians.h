// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/runs_file.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One mode's ok runs of one workload by one runner: the medians of its repeats.
struct ModeRunMedians {
    std::string mode;                      ///< the mode's name as the runs file writes it
    std::string runner;                    ///< "sim:0", "trtexec", "command"
    int runs = 0;                          ///< ok rows the medians are of
    double latencyMs = 0.0;                ///< per batch
    std::optional<double> powerW;          ///< of the runs that have one
    std::optional<double> energyPerItemMj; ///< energy of one batch / batch
};

/// The ok rows of `rows` at this batch, precision, phase (with a training step's optimizer) and dims (another
/// workload's runs are not these), one entry per (mode, runner) in the order of their first row, with the
/// median (mean of the middle two for an even count) of latency, power and energy.
std::vector<ModeRunMedians> modeRunMedians(const std::vector<RunRow>& rows, int64_t batch,
                                           Precision precision, const std::map<std::string, int64_t>& dims,
                                           Phase phase, Optimizer optimizer);

} // namespace rooftop
