// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// A concrete operating point: a stock nvpmodel mode or a custom clock combination from the ladders.
struct PowerMode {
    std::string name;         ///< stock name ("MAXN") or "c8-cpu1728-gpu612-emc3199"
    bool stock = false;       ///< an nvpmodel stock mode (false: a custom mode)
    int stockId = -1;         ///< nvpmodel id for stock modes
    int onlineCores = 0;      ///< CPU cores online
    int64_t cpuKhz = 0;       ///< CPU clock the mode runs at (cap, ladder value)
    int64_t gpuHz = 0;        ///< GPU clock, Hz (cap, ladder value)
    int64_t emcHz = 0;        ///< EMC clock, Hz (cap, ladder value)
    int activeTpcs = 0;       ///< TPCs powered (custom modes: all)
    double budgetWatts = 0.0; ///< power budget the stock mode's name states, W (0: none, or a custom mode)
};

/// The stock mode as a PowerMode.
PowerMode powerModeFrom(const DeviceSpec& device, const StockMode& stock);

/// Every stock mode of the device, in nvpmodel id order.
std::vector<PowerMode> stockPowerModes(const DeviceSpec& device);

/// Every combination of the device's custom grid (all TPCs active).
std::vector<PowerMode> gridPowerModes(const DeviceSpec& device);

/// A custom mode; throws InputError when a value is not in the device's ladders or core count is out of
/// range.
PowerMode customPowerMode(const DeviceSpec& device, int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz);

/// Parses "cores=8,cpu=1728,gpu=612,emc=3199" into a custom mode: every clock in MHz (as in the canonical
/// name; "612MHz" too). A value of 100000 or more cannot be MHz and is read in the units older files wrote
/// (CPU kHz, GPU and EMC Hz). Throws InputError; one for a clock off the ladder says the unit it read.
PowerMode parseCustomMode(const DeviceSpec& device, const std::string& text);

/// The stock mode a mistyped name most likely means ("50W", "mode-50w": MODE_50W), empty when none or when
/// the text fits several.
std::string nearestStockModeName(const DeviceSpec& device, const std::string& text);

/// A mode by what a user wrote: a stock name (case-insensitive) or id, a custom spec
/// cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ, or a custom mode's canonical name as `rooftop modes --grid` prints it
/// (c8-cpu1728-gpu612-emc3199); throws InputError naming the stock modes (and the one it likely meant)
/// when it is none of them.
PowerMode resolvePowerMode(const DeviceSpec& device, const std::string& text);

/// A mode as a person reads it: a stock mode's name; a custom mode's clocks in whole MHz, GPU, EMC, then
/// cores × CPU clock: "GPU 625 · EMC 2133 · 2 × 1651 MHz" (the canonical name stays the id in files, on the
/// command line and in the CLI's machine output).
std::string readableModeName(const PowerMode& mode);

/// readableModeName, and for a custom mode its canonical name after it, which --modes takes back: "GPU 625 ·
/// EMC 2133 · 2 × 1651 MHz (c2-cpu1651.2-gpu624.75-emc2133)"; a stock mode's name alone.
std::string namedModeText(const PowerMode& mode);

/// The canonical name of a custom mode ("c8-cpu1728-gpu612-emc3199", clocks in MHz).
std::string customModeName(int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz);

} // namespace rooftop
