// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/microbench/mode_sweep.h"

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

/// Runs a whole bench session on this machine: replays a restore journal left by a crash, opens the GPU,
/// identifies the board, switches modes through the helper when asked, samples power (INA3221 rails or
/// NVML; none: no power model) and writes the profile. Meant for a worker thread: `progress` is called on
/// it, `cancel` (may be null) is polled between kernels and modes. Throws UnavailableError (no GPU, no
/// helper, switching impossible) or InputError (bad request); the original mode is restored either way.
SweepOutcome runBenchSession(const BenchRequest& request, const SweepProgressCallback& progress,
                             const std::atomic<bool>* cancel);

/// At start-up: restores the power mode a crashed run left changed (the restore journal); false when there
/// was nothing to restore, a live session holds the journal's lock, or this machine has no nvpmodel (not a
/// Jetson). Costs one failed open() without a journal. Throws UnavailableError when the restore fails.
bool restoreInterruptedMode();

} // namespace rooftop
