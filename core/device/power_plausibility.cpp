// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/device/power_plausibility.h"

#include "core/common/text_format.h"

#include <cmath>

namespace rooftop {

std::string implausiblePower(const DeviceSpec& device, double watts) {
    if (device.maxModuleWatts > 0) {
        if (std::isfinite(watts) && watts <= plausiblePowerFactor * device.maxModuleWatts) return {};
        return "power " + general(watts, 4) + " W is above " + general(plausiblePowerFactor, 2) + " x the " +
               general(device.maxModuleWatts, 4) + " W module maximum of " + device.id +
               ": not a reading of this board";
    }
    if (std::isfinite(watts) && watts <= unknownBoardMaxWatts) return {};
    return "power " + general(watts, 4) + " W is above " + general(unknownBoardMaxWatts, 4) +
           " W, more than any board Rooftop knows: not a reading of " + device.id;
}

} // namespace rooftop
