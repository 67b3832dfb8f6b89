// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <string>

namespace rooftop {

/// A power reading above this multiple of the board's module maximum is no reading of that board.
constexpr double plausiblePowerFactor = 2.0;
/// The bound for a board whose module maximum is unknown (a discrete GPU without an NVML limit).
constexpr double unknownBoardMaxWatts = 1500.0;

/// Why `watts` cannot be a reading of the board ("power 1e+09 W is above 2 x the 60 W module maximum of
/// agx-orin-64gb"); empty when it can.
std::string implausiblePower(const DeviceSpec& device, double watts);

} // namespace rooftop
