// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/detected_catalog.h"

#include "core/device/catalog.h"
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
    return findDevice(loadCatalogWithDetected(defaultCatalogFolder(), deviceId), deviceId);
}

} // namespace rooftop
