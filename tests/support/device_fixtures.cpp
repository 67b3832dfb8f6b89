// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/device_fixtures.h"

#include "core/device/catalog.h"
#include "core/device/power_mode.h"

namespace rooftop::test {

DeviceSpec orinLikeDevice() {
    DeviceSpec d;
    d.id = "orin-like";
    d.name = "AGX-Orin-like test device";
    d.soc = "tegra234";
    d.units.smCount = 16;
    d.units.tpcCount = 8;
    d.units.cudaCoresPerSm = 128;
    d.units.tensorCoresPerSm = 4;
    d.units.fp16CudaCoreRate = 2.0;
    d.units.tensorFp16FlopsPerSmPerClock = 2048;
    d.units.tensorInt8OpsPerSmPerClock = 4096;
    d.memoryBusBits = 256;
    d.memoryType = "LPDDR5";
    d.cpuCores = 12;
    d.cpuLadderKhz = {115200, 729600, 1113600, 2201600};
    d.gpuLadderHz = {114750000, 306000000, 650250000, 1300500000};
    d.emcLadderHz = {204000000, 665600000, 2133000000, 3199000000};
    d.energy.idleWatts = 10.0;
    d.energy.cpuCoreWatts = 0.5;
    d.energy.picojoulesPerFlop = 10.0;
    d.energy.picojoulesPerByte = 50.0;
    d.energy.tensorFlopEnergyRatio = 0.25;
    d.energy.basis = "test figures";
    for (int id = 0; id < 4; ++id) {
        StockMode s;
        s.id = id;
        s.name = id == 0 ? "MAXN" : "MODE_" + std::to_string(id);
        d.stockModes.push_back(s);
    }
    d.defaultModeId = 2;
    return d;
}

DeviceSpec orinLikeDvfsGridDevice() {
    DeviceSpec d = orinLikeDevice();
    d.cpuLadderKhz = {268800,  422400,  576000,  729600,  883200,  1036800, 1190400,
                      1344000, 1497600, 1651200, 1804800, 1958400, 2112000, 2201600};
    d.gpuLadderHz = {114750000, 216750000, 318750000,  420750000,  522750000,  624750000, 726750000,
                     828750000, 930750000, 1032750000, 1134750000, 1236750000, 1300500000};
    d.emcLadderHz = {204000000, 665600000, 2133000000, 3199000000};
    return d;
}

const std::vector<DeviceSpec>& shippedCatalog() {
    static const std::vector<DeviceSpec> devices = loadCatalog(ROOFTOP_SOURCE_DATA_DIR "/devices");
    return devices;
}

const DeviceSpec& shippedDevice(const std::string& id) {
    return findDevice(shippedCatalog(), id);
}

const DeviceSpec& shippedAgxOrin() {
    return shippedDevice("agx-orin-64gb");
}

SysfsRoot jetsonFixture(const char* board) {
    return SysfsRoot(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/") + board);
}

GridSample gridSample(const DeviceSpec& device, const RuntimeProfile& runtime, size_t step) {
    const std::vector<PowerMode> grid = gridPowerModes(device);
    GridSample sample;
    for (size_t i = 0; i < grid.size(); i += step) {
        sample.modes.push_back(grid[i]);
        sample.profiles.push_back(deriveModeProfile(device, grid[i], runtime));
    }
    return sample;
}

} // namespace rooftop::test
