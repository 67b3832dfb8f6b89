// SPDX-License-Identifier: GPL-3.0-or-later
// Named devices for tests: hand-built AGX-Orin-like specs with exact figures (no catalog files), and the
// shipped catalog (resources/devices) loaded once per process.
#pragma once

#include "core/device/ceilings.h"
#include "core/device/device_spec.h"
#include "core/device/runtime_profile.h"
#include "core/platform/sysfs_root.h"

#include <string>
#include <vector>

namespace rooftop::test {

/// An AGX-Orin-like board built by hand: 16 SMs in 8 TPCs, 128 CUDA cores/SM, FP16 at 2x, 4 tensor cores/SM
/// (2048 FP16 FLOPs and 4096 INT8 ops per SM and clock), 256-bit LPDDR5, 12 CPU cores, SoC tegra234;
/// ladders CPU 115.2-2201.6 MHz, GPU 114.75-1300.5 MHz, EMC 204-3199 MHz (4 steps each; the derived figures
/// use only the top steps); estimated energy 10 W idle, 0.5 W per core, 10 pJ/FLOP, 50 pJ/B, tensor ratio
/// 0.25 (basis "test figures"); stock modes 0 MAXN, 1-3 MODE_n, default 2. Id "orin-like".
DeviceSpec orinLikeDevice();

/// orinLikeDevice() with the full DVFS ladders, 14 CPU x 13 GPU x 4 EMC clocks, for sweeps over every mode.
DeviceSpec orinLikeDvfsGridDevice();

/// The shipped device catalog (resources/devices), loaded on first use.
const std::vector<DeviceSpec>& shippedCatalog();

/// The shipped device with this id; throws InputError (listing the known ids) when there is none.
const DeviceSpec& shippedDevice(const std::string& id);

/// The shipped Jetson AGX Orin 64GB ("agx-orin-64gb").
const DeviceSpec& shippedAgxOrin();

/// Every `step`-th mode of a board's grid and its derived profile under a runtime: a sample of the grid that
/// judges a prior against a board physics.
struct GridSample {
    std::vector<PowerMode> modes;
    std::vector<ModeProfile> profiles; ///< one per mode, derived with the runtime
};
GridSample gridSample(const DeviceSpec& device, const RuntimeProfile& runtime, size_t step);

/// A recorded Jetson's sysfs and procfs (tests/fixtures/jetson/BOARD) as a root to read the board from.
SysfsRoot jetsonFixture(const char* board);

} // namespace rooftop::test
