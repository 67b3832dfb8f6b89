// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/runner.h"

#include <string>

namespace rooftop {

/// `command:CMD`: runs CMD through /bin/sh -c once per configuration, with ROOFTOP_MODEL, ROOFTOP_BATCH,
/// ROOFTOP_PRECISION, ROOFTOP_PHASE, ROOFTOP_MODE, ROOFTOP_CORES, ROOFTOP_CPU_KHZ, ROOFTOP_GPU_HZ and
/// ROOFTOP_EMC_HZ in its environment, and reads its last non-empty stdout line (parseRunnerOutput). A
/// non-zero exit, a timeout (the process group is killed) or a malformed line is a failed run.
class CommandRunner final : public Runner {
public:
    /// Throws InputError when the command is empty or its first word is not an executable.
    CommandRunner(std::string command, std::string modelPath, double timeoutSeconds);
    /// Runs CMD once with the configuration in its environment and reads its result line.
    RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) override;
    /// "command", as the runs file names it.
    std::string name() const override { return "command"; }

private:
    std::string command_;
    std::string modelPath_;
    double timeoutSeconds_;
};

} // namespace rooftop
