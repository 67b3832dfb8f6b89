// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/measure/runner.h"
#include "core/measure/runner_spec.h"
#include "core/measure/workload_counter.h"

#include <memory>
#include <string>
#include <vector>

namespace rooftop {

/// The parsed --runner value, with trtexec (found on PATH) when none or trtexec without a path is given;
/// throws UnavailableError naming `command` when no trtexec is found.
RunnerSpec withDefaultRunner(RunnerSpec spec, const std::string& command);

/// The runner of `spec` for the counter's model: the simulated board (the model counted at batch 1 at the
/// counter's dims in each precision; with `llm`, a decoder whose passes it counts for LLM runs), trtexec or a
/// command. Throws as analyzeModelFile does for the simulated board (and InputError for a model that is no
/// decoder, with `llm`), InputError for a trtexec that is not an executable.
std::unique_ptr<Runner> makeModelRunner(const RunnerSpec& spec, const DeviceSpec& device,
                                        WorkloadCounter& counter, const std::vector<Precision>& precisions,
                                        double runTimeoutSeconds, bool llm = false);

} // namespace rooftop
