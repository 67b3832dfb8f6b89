// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/detected_catalog.h"

#include "core/device/catalog.h"
#include "core/platform/board_conf.h"
#include "core/platform/board_detection.h"
#include "core/platform/cuda_probe.h"

namespace rooftop {

std::vector<DeviceSpec> loadCatalogWithDetected(const std::string& folder, const std::string& wantedId) {
    std::vector<DeviceSpec> catalog = loadCatalog(folder);
    if (!wantedId.empty() && !isDetectedDeviceId(wantedId)) return catalog;
    for (DeviceSpec& detected : probeCudaDevices())
        catalog.push_back(std::move(detected));
    return catalog;
}

DeviceSpec resolveDevice(const std::string& deviceId) {
    const std::vector<DeviceSpec> catalog = loadCatalogWithDetected(defaultCatalogFolder(), deviceId);
    const DeviceSpec& device = findDevice(catalog, deviceId);
    if (device.discrete) return device;
    // this machine is that Jetson: its own nvpmodel.conf (and ladders, where the catalog's are estimates)
    const SysfsRoot root = SysfsRoot::fromEnvironment();
    const BoardIdentity board = detectBoard(root, catalog);
    if (!board.jetson || board.deviceId != device.id) return device;
    return deviceForBoard(device, root).device;
}

} // namespace rooftop
