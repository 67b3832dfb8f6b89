// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/jetson_clocks.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// What the privileged mode helper may set: values from the board's own ladders and nvpmodel.conf only.
struct HelperLimits {
    std::vector<int> stockIds;   ///< POWER_MODEL ids of /etc/nvpmodel.conf
    std::vector<int64_t> cpuKhz; ///< cpu0 scaling_available_frequencies
    std::vector<int64_t> gpuHz;  ///< GPU devfreq available_frequencies
    std::vector<int64_t> emcHz;  ///< bpmp EMC possible rates (or its max_rate alone)
    int cpuCount = 0;            ///< CPUs with cpufreq
};

/// One validated helper request.
struct HelperRequest {
    enum class Action {
        SetStockMode, ///< nvpmodel -m stockId
        SetClocks,    ///< pin the GPU, EMC and CPU clocks and put `cores` online
        ReleaseClocks ///< every core online, each clock free over its whole ladder
    };
    Action action = Action::ReleaseClocks;    ///< what the helper is asked to do
    int stockId = -1;                         ///< SetStockMode: the nvpmodel mode id
    int64_t gpuHz = 0, emcHz = 0, cpuKhz = 0; ///< emcHz 0 = leave EMC alone
    int cores = 0;                            ///< SetClocks: CPUs online
};

/// Parses the helper's command line: `set-stock-mode ID`, `set-clocks --gpu HZ --emc HZ --cpu KHZ --cores N`
/// (--emc optional) or `release-clocks`. Every value must be plain decimal digits and present in `limits`;
/// anything else (paths, signs, shell text, unknown or repeated options) throws InputError.
HelperRequest parseHelperRequest(const std::vector<std::string>& args, const HelperLimits& limits);

/// The command line that asks the helper for `request` (the inverse of parseHelperRequest).
std::vector<std::string> helperArguments(const HelperRequest& request);

/// One sysfs write, a path relative to the filesystem root and its value.
struct SysfsWrite {
    std::string path;  ///< relative to the filesystem root
    std::string value; ///< the text written
};

/// The writes that pin (SetClocks) or release (ReleaseClocks) the clocks, in a safe order: cores first,
/// then each clock's max before min when raising and min before max when lowering. Empty for SetStockMode.
std::vector<SysfsWrite> planClockWrites(const HelperRequest& request, const ClockPaths& paths,
                                        const ObservedClocks& current, const HelperLimits& limits);

/// The limits of the board under `root`: ladders from sysfs, stock ids from etc/nvpmodel.conf.
HelperLimits readHelperLimits(const SysfsRoot& root, const ClockPaths& paths);

} // namespace rooftop
