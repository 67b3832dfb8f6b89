// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/run_config.h"

#include <atomic>
#include <string>

namespace rooftop {

/// Runs the model at one configuration and reports what it measured. A run that fails returns a failed
/// RunResult (the sweep goes on); exceptions are kept for a runner that cannot run at all.
class Runner {
public:
    virtual ~Runner() = default;
    /// Runs once; polls `cancel` (may be null) and gives up with a failure when it becomes true.
    virtual RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) = 0;
    /// The runner as the runs file names it ("sim:0", "command").
    virtual std::string name() const = 0;
};

} // namespace rooftop
