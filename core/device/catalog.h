// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Parses one device file; throws InputError naming the file and the field that is missing or malformed.
DeviceSpec loadDeviceFile(const std::string& path);

/// Loads every resources/devices/*.json of a folder, sorted by id; throws InputError on the first bad file.
std::vector<DeviceSpec> loadCatalog(const std::string& folder);

/// True for the ids of detected discrete GPUs ("cuda:0", "cuda:1", ...).
bool isDetectedDeviceId(const std::string& id);

/// The folder holding device files: defaultDataFolder()/devices.
std::string defaultCatalogFolder();

/// The data folder that holds devices/ and runtimes.json: $ROOFTOP_DATA_DIR when set, else the first of
/// <program dir>/../share/rooftop and <program dir>/../../share/rooftop with a devices folder (an
/// installation, or a build tree's link to the sources' resources), else the first of them.
std::string defaultDataFolder();

/// Ids of a catalog, comma-separated ("agx-orin-32gb, agx-orin-64gb, ...").
std::string knownDeviceIds(const std::vector<DeviceSpec>& catalog);

/// The device with this id; throws InputError listing the known ids when there is none (UnavailableError
/// for a "cuda:N" id that no detected GPU has).
const DeviceSpec& findDevice(const std::vector<DeviceSpec>& catalog, const std::string& id);

/// Resolves an nvpmodel clock cap against an ascending ladder as nvpmodel and the kernel do: -1 / 0 (no cap)
/// -> the ladder top; a ladder value -> itself; between two steps -> the nearest (ties: the lower). A cap
/// below the ladder, above its top or otherwise negative gives nothing, with the reason in *why ("above the
/// top of the ladder (1575000000)").
std::optional<int64_t> resolveNvpmodelCap(int64_t cap, const std::vector<int64_t>& ladder, std::string* why);

/// The power budget a mode's name states: "MODE_30W" -> 30, "7W_AI" -> 7, "120W" -> 120; MAXN* -> the
/// module max; 0 when the name states none.
double modeBudgetWatts(const std::string& name, double moduleMaxWatts);

/// Active TPCs of a TPC_PG_MASK: clear bits among the low `bits`, at most `tpcCount`.
int activeTpcsOfMask(int mask, int bits, int tpcCount);

} // namespace rooftop
