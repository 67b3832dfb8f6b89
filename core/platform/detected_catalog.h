// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <string>
#include <vector>

namespace rooftop {

/// loadCatalog plus the discrete NVIDIA GPUs CUDA finds on this machine (ids "cuda:N", appended after the
/// boards). With `wantedId` given, the CUDA probe (whose driver initialisation can take a second) runs only
/// when that id names a detected GPU, so board lookups do not pay for it.
std::vector<DeviceSpec> loadCatalogWithDetected(const std::string& folder, const std::string& wantedId = {});

/// The device `deviceId` names in the catalog or among the detected GPUs; throws InputError for an unknown
/// id. When this machine is that Jetson (detectBoard), the entry as the board runs it: its own
/// nvpmodel.conf's modes (deviceForBoard; InputError, one line, for a conf the board cannot run).
DeviceSpec resolveDevice(const std::string& deviceId);

} // namespace rooftop
