// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/profile_sweep.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// What `rooftop profile` asks for.
struct ProfileRequest {
    std::string modelPath;
    std::string deviceId;          ///< catalog id (required)
    std::string runner;            ///< parseRunnerSpec; empty: trtexec when findTrtexec finds one
    bool noSwitch = false;         ///< run every mode without switching (the command switches, or pretends)
    std::string modes = "current"; ///< a mode set (modesFor), with sample:N
    uint64_t seed = 0;             ///< for sample:N
    std::vector<int64_t> batches = {1};
    std::vector<std::string> precisions = {"fp32"};
    std::string phase = "inference";
    int repeat = 1;
    double runTimeoutSeconds = 600; ///< per command run
    double settleSeconds = 2.0;     ///< after each switch
    std::string outPath;            ///< the runs file; empty: "<model name>-runs.csv" in the working folder
};

/// Runs a profile: checks the request, resolves the board, the runner and the modes, then (on a Jetson and
/// unless noSwitch or a simulated board) takes the bench's journal lock, replays a crash's journal, and
/// sweeps with mode switching through the helper. Everything that can be wrong with the request throws
/// InputError before anything changes; no runner (none given and no trtexec found, or trtexec asked for and
/// not found), or switching asked for off a Jetson, throws
/// UnavailableError, also before anything changes. The simulated board never switches; its "current" mode
/// is its first stock mode.
ProfileOutcome runProfileSession(const ProfileRequest& request, const ProfileProgressCallback& progress,
                                 const std::atomic<bool>* cancel);

} // namespace rooftop
