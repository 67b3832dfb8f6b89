// SPDX-License-Identifier: GPL-3.0-or-later
// INA3221 rails through sysfs (reference: jetson.md §4.1-4.2; the Linux hwmon ina3221 ABI; Thor's rails
// VDD_GPU, VDD_CPU_SOC_MSS, VIN_SYS_5V0 and the module input VIN: thor.md).
#include "core/platform/power_rails.h"

namespace rooftop {

namespace {

bool skipLabel(const std::string& label) {
    return label.empty() || label == "NC" || label.find("sum of shunt") != std::string::npos;
}

} // namespace

std::vector<RailChannel> discoverRails(const SysfsRoot& root) {
    std::vector<RailChannel> rails;
    const std::string hwmonDriver = "sys/bus/i2c/drivers/ina3221";
    for (const auto& device : root.list(hwmonDriver)) {
        const std::string hwmonParent = hwmonDriver + "/" + device + "/hwmon";
        for (const auto& hwmon : root.list(hwmonParent)) {
            if (hwmon.rfind("hwmon", 0) != 0) continue;
            const std::string folder = hwmonParent + "/" + hwmon;
            for (int channel = 1; channel <= 3; ++channel) {
                const std::string n = std::to_string(channel);
                const std::string label = root.read(folder + "/in" + n + "_label").value_or("");
                if (skipLabel(label) || label.size() > 64) continue;
                RailChannel rail;
                rail.label = label;
                rail.sensor = device;
                rail.channel = channel;
                rail.voltagePath = folder + "/in" + n + "_input";
                rail.currentPath = folder + "/curr" + n + "_input";
                rails.push_back(rail);
            }
        }
    }
    const std::string iioDriver = "sys/bus/i2c/drivers/ina3221x";
    for (const auto& device : root.list(iioDriver)) {
        for (const auto& iio : root.list(iioDriver + "/" + device)) {
            if (iio.rfind("iio:device", 0) != 0 && iio != "iio_device") continue;
            const std::string folder = iioDriver + "/" + device + "/" + iio;
            for (int channel = 0; channel <= 2; ++channel) {
                const std::string n = std::to_string(channel);
                const std::string label = root.read(folder + "/rail_name_" + n).value_or("");
                if (skipLabel(label) || label.size() > 64) continue;
                RailChannel rail;
                rail.label = label;
                rail.sensor = device;
                rail.channel = channel;
                rail.iio = true;
                rail.powerPath = folder + "/in_power" + n + "_input";
                rails.push_back(rail);
            }
        }
    }
    return rails;
}

std::vector<RailChannel> moduleRails(const std::vector<RailChannel>& rails) {
    // the module's input rail: VDD_IN (Orin NX/Nano, Xavier NX, TX2), POM_5V_IN (Nano), VIN (Thor, JetPack 7)
    for (const char* total : {"VDD_IN", "POM_5V_IN", "VIN"})
        for (const auto& rail : rails)
            if (rail.label == total) return {rail};
    return rails;
}

std::optional<double> readRailWatts(const SysfsRoot& root, const RailChannel& rail) {
    if (rail.iio) {
        const auto milliwatts = root.readInteger(rail.powerPath);
        return milliwatts ? std::optional<double>(*milliwatts / 1000.0) : std::nullopt;
    }
    const auto millivolts = root.readInteger(rail.voltagePath);
    const auto milliamps = root.readInteger(rail.currentPath);
    if (!millivolts || !milliamps) return std::nullopt;
    return static_cast<double>(*millivolts) * static_cast<double>(*milliamps) / 1e6;
}

} // namespace rooftop
