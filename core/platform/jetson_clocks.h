// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/sysfs_root.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// Where a board's clocks live in sysfs (JetPack 5 and 6 differ; jetson.md §3.3; JetPack 7 on Thor: thor.md).
struct ClockPaths {
    std::string gpuDevfreq; ///< devfreq folder of the GPU (available_frequencies, min_freq, max_freq,
                            ///< cur_freq); Thor: sys/class/devfreq/gpu-gpc-0, which has no load file
    std::string gpuDevice; ///< folder with load / tpc_pg_mask / railgate_enable, empty when not found (Thor)
    std::string emcClock = "sys/kernel/debug/bpmp/debug/clk/emc"; ///< rate, min_rate, max_rate (root only)
    bool emcReadable = false; ///< emcClock/rate exists (debugfs mounted and readable)
    std::string emcDevfreq;   ///< Thor's EMC through bwmgr: sys/class/devfreq/bwmgr (cur/min/max_freq), else
                              ///< empty; used when the bpmp debugfs clock is not readable
    std::string emcCap;       ///< nvpmodel EMC cap file, empty when absent
    int cpuCount = 0;         ///< cpuN folders with cpufreq
};

/// The frequency ladders a board offers (ascending; empty when unreadable).
struct ClockLadders {
    std::vector<int64_t> cpuKhz; ///< cpu0 scaling_available_frequencies
    std::vector<int64_t> gpuHz;  ///< GPU devfreq available_frequencies
    std::vector<int64_t> emcHz;  ///< bpmp emc possible rates when readable
};

/// Clocks read back from sysfs (0 = could not be read).
struct ObservedClocks {
    int64_t cpuKhz = 0;    ///< cpu0 scaling_cur_freq
    int64_t cpuMaxKhz = 0; ///< cpu0 scaling_max_freq
    int64_t cpuMinKhz = 0; ///< cpu0 scaling_min_freq
    int64_t gpuHz = 0;     ///< devfreq cur_freq
    int64_t gpuMaxHz = 0;  ///< devfreq max_freq
    int64_t gpuMinHz = 0;  ///< devfreq min_freq
    int64_t emcHz = 0;     ///< bpmp emc rate (needs root; 0 otherwise)
    int onlineCores = 0;   ///< from /sys/devices/system/cpu/online
    int tpcPgMask = -1;    ///< GPU tpc_pg_mask, -1 when absent
};

/// The GPU devfreq folders tried in order: the fixed JetPack 6, JetPack 5, Xavier, TX2 and Nano paths, then
/// any /sys/class/devfreq entry whose device/of_node/name is a Tegra GPU (ga10b, gv11b, gp10b, gpu).
std::vector<std::string> gpuDevfreqCandidates(const SysfsRoot& root);

/// Finds the clock files of the board under `root`; gpuDevfreq is empty when no GPU devfreq folder exists.
ClockPaths findClockPaths(const SysfsRoot& root);

/// Reads the CPU, GPU and EMC ladders.
ClockLadders readClockLadders(const SysfsRoot& root, const ClockPaths& paths);

/// Reads the current clocks.
ObservedClocks readObservedClocks(const SysfsRoot& root, const ClockPaths& paths);

/// Counts the CPUs of a sysfs cpu list ("0-3,6,8-11" -> 10); 0 for malformed text.
int countCpuList(const std::string& text);

/// What keeps Rooftop from switching and verifying modes on the board under `root`, in one line, or empty
/// when nothing does: a GPU devfreq folder (Thor's gpu-gpc-0 included) without its frequency files, no
/// cpufreq, or an unreadable ladder. Checked before anything is switched.
std::string clockFilesProblem(const SysfsRoot& root, const ClockPaths& paths);

} // namespace rooftop
