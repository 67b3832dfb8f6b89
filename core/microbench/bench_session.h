// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/microbench/mode_sweep.h"
#include "core/platform/board_session.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// True when this machine can run rooftop bench (a CUDA device and a build with the kernels); otherwise
/// false with the one-line reason in *whyNot. Changes nothing; safe to call from any thread.
bool benchAvailable(std::string* whyNot);

/// What the "Measure this device" action and `rooftop bench` ask for.
struct BenchRequest {
    std::string deviceId;          ///< catalog id; empty: detect the board (or the discrete GPU cuda:0)
    std::string modes = "current"; ///< a mode set (modesFor): current | stock | grid | all | LIST
    std::string outPath;           ///< profile file; empty: "<device id>-profile.json" in the working folder
    bool quick = false;            ///< BenchSettings::quick()
    double settleSeconds = 5.0;    ///< wait after each mode switch
};

/// Checks what a request says without a GPU: a named board in the catalog, a mode set it has (InputError);
/// bad input is refused as bad input on a machine without a GPU too.
void checkBenchRequest(const BenchRequest& request);

/// Runs a whole bench session on this machine: replays a restore journal left by a crash, opens the GPU,
/// identifies the board, switches modes through the helper when asked, samples power (INA3221 rails or
/// NVML; none: no power model) and writes the profile. Meant for a worker thread: `progress` is called on
/// it, `cancel` (may be null) is polled between kernels and modes. Throws UnavailableError (no GPU, no
/// helper, switching impossible) or InputError (bad request); the original mode is restored either way.
SweepOutcome runBenchSession(const BenchRequest& request, const SweepProgressCallback& progress,
                             const std::atomic<bool>* cancel);

} // namespace rooftop
