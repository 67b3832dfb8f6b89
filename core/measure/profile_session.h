// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/profile_sweep.h"
#include "core/platform/board_detection.h"
#include "core/platform/sysfs_root.h"

#include <atomic>
#include <cstdint>
#include <memory>
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
    double idleSeconds = 1.0;       ///< idle baseline per mode, when Rooftop measures power
    std::string outPath;            ///< the runs file; empty: "<model name>-runs.csv" in the working folder
};

/// Runs a profile: checks the request, resolves the board, the runner and the modes, then (on a Jetson and
/// unless noSwitch or a simulated board) takes the bench's journal lock, replays a crash's journal, and
/// sweeps with mode switching through the helper. Everything that can be wrong with the request throws
/// InputError before anything changes; no runner (none given and no trtexec found, or trtexec asked for and
/// not found), or switching asked for off a Jetson, throws
/// UnavailableError, also before anything changes. The simulated board never switches; its "current" mode
/// is its first stock mode. Power is Rooftop's own (profilePowerSource) when the board is this machine.
/// Rooftop's power source for a profile of `device` here: the module's INA3221 rails under `root` when this
/// machine (`board`) is that Jetson, NVML when the device is a discrete GPU and NVML answers; null with the
/// reason in *whyNot otherwise (a simulated board reports its own power).
std::unique_ptr<PowerSource> profilePowerSource(const DeviceSpec& device, const SysfsRoot& root,
                                                const BoardIdentity& board, bool simulated,
                                                std::string* whyNot);

ProfileOutcome runProfileSession(const ProfileRequest& request, const ProfileProgressCallback& progress,
                                 const std::atomic<bool>* cancel);

} // namespace rooftop
