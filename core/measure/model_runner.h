// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/measure/runner.h"
#include "core/measure/runner_spec.h"

#include <memory>
#include <string>
#include <vector>

namespace rooftop {

/// The parsed --runner value, with trtexec (found on PATH) when none or trtexec without a path is given;
/// throws UnavailableError naming `command` when no trtexec is found.
RunnerSpec withDefaultRunner(RunnerSpec spec, const std::string& command);

/// The runner of `spec` for one model: the simulated board (counting the model at batch 1 in each
/// precision), trtexec or a command. Throws as analyzeModelFile does for the simulated board.
std::unique_ptr<Runner> makeModelRunner(const RunnerSpec& spec, const DeviceSpec& device,
                                        const std::string& modelPath,
                                        const std::vector<std::string>& precisions, double runTimeoutSeconds);

} // namespace rooftop
