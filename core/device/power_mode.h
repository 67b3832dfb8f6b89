// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// A concrete operating point: a stock nvpmodel mode or a custom clock combination from the ladders.
struct PowerMode {
    std::string name;      ///< stock name ("MAXN") or "c8-cpu1728-gpu612-emc3199"
    bool stock = false;
    int stockId = -1;      ///< nvpmodel id for stock modes
    int onlineCores = 0;
    int64_t cpuKhz = 0;    ///< CPU clock the mode runs at (cap, ladder value)
    int64_t gpuHz = 0;
    int64_t emcHz = 0;
    int activeTpcs = 0;
    double budgetWatts = 0.0;
};

/// The stock mode as a PowerMode.
PowerMode powerModeFrom(const DeviceSpec& device, const StockMode& stock);

/// Every stock mode of the device, in nvpmodel id order.
std::vector<PowerMode> stockPowerModes(const DeviceSpec& device);

/// Every combination of the device's custom grid (all TPCs active).
std::vector<PowerMode> gridPowerModes(const DeviceSpec& device);

/// A custom mode; throws InputError when a value is not in the device's ladders or core count is out of range.
PowerMode customPowerMode(const DeviceSpec& device, int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz);

/// Parses "cores=8,cpu=1728000,gpu=612000000,emc=3199000000" (kHz, Hz, Hz) into a custom mode; throws InputError.
PowerMode parseCustomMode(const DeviceSpec& device, const std::string& text);

/// A mode by what a user wrote: a stock name (case-insensitive) or id, a custom spec
/// cores=N,cpu=KHZ,gpu=HZ,emc=HZ, or a custom mode's canonical name as `rooftop modes --grid` prints it
/// (c8-cpu1728-gpu612-emc3199); throws InputError naming the stock modes when it is none of them.
PowerMode resolvePowerMode(const DeviceSpec& device, const std::string& text);

/// The canonical name of a custom mode ("c8-cpu1728-gpu612-emc3199", clocks in MHz).
std::string customModeName(int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz);

} // namespace rooftop
