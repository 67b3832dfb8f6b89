// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <string>
#include <vector>

namespace rooftop {

/// Parses one device file; throws InputError naming the file and the field that is missing or malformed.
DeviceSpec loadDeviceFile(const std::string& path);

/// Loads every resources/devices/*.json of a folder, sorted by id; throws InputError on the first bad file.
std::vector<DeviceSpec> loadCatalog(const std::string& folder);

/// True for the ids of detected discrete GPUs ("cuda:0", "cuda:1", ...).
bool isDetectedDeviceId(const std::string& id);

/// The folder holding device files: $ROOFTOP_DATA_DIR/devices, the installed share folder, or the source tree.
std::string defaultCatalogFolder();

/// The data folder that holds devices/ and runtimes.json: $ROOFTOP_DATA_DIR when set, else
/// <exe dir>/../share/rooftop when it has a devices folder, else the source tree's resources folder.
std::string defaultDataFolder();

/// Ids of a catalog, comma-separated ("agx-orin-32gb, agx-orin-64gb, ...").
std::string knownDeviceIds(const std::vector<DeviceSpec>& catalog);

/// The device with this id; throws InputError listing the known ids when there is none (UnavailableError
/// for a "cuda:N" id that no detected GPU has).
const DeviceSpec& findDevice(const std::vector<DeviceSpec>& catalog, const std::string& id);

} // namespace rooftop
