// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/sysfs_root.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One INA3221 channel found under the i2c drivers (hwmon "ina3221" or the old iio "ina3221x" driver).
struct RailChannel {
    std::string label;       ///< VDD_IN, VDD_GPU_SOC, POM_5V_IN, ...
    std::string sensor;      ///< i2c device ("1-0040")
    int channel = 0;         ///< hwmon channel 1..3, iio channel 0..2
    bool iio = false;        ///< old ina3221x driver: power in mW from in_power<n>_input
    std::string voltagePath; ///< hwmon in<n>_input (mV)
    std::string currentPath; ///< hwmon curr<n>_input (mA)
    std::string powerPath;   ///< iio in_power<n>_input (mW)
};

/// Every connected rail under `root`: sys/bus/i2c/drivers/ina3221/<dev>/hwmon/hwmon*/in[1-3]_label and
/// sys/bus/i2c/drivers/ina3221x/<dev>/iio:device*/rail_name_[0-2]; "NC" and the shunt-sum channel skipped.
std::vector<RailChannel> discoverRails(const SysfsRoot& root);

/// The rails whose sum is the module power: VDD_IN, POM_5V_IN or (Thor) VIN alone when present, else all
/// rails.
std::vector<RailChannel> moduleRails(const std::vector<RailChannel>& rails);

/// Instant power of one rail in watts (V x I, or the iio power), nothing when unreadable.
std::optional<double> readRailWatts(const SysfsRoot& root, const RailChannel& rail);

} // namespace rooftop
