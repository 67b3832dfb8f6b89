// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/power_mode.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// The words a mode set may be, for help texts: "current | stock | grid | all | sample:N | LIST".
const char* modeSetSyntax();

/// True for the name of a set of modes (current, stock, grid, all, sample:N), not of one mode.
bool namesModeSet(const std::string& spec);

/// The modes a mode-set text names, with one meaning in every command and the GUI:
/// "current" (the nvpmodel mode in force, `currentStockId`; a discrete GPU's only mode), "stock" (every stock
/// mode), "grid" (the custom-clock grid), "all" (stock modes, then the grid where the board has one, without
/// the grid modes that have a stock mode's clocks, cores and TPCs),
/// "sample:N" (N grid modes drawn uniformly without replacement with SplitMix64 from `seed`, the same on
/// every platform, in grid order), or a ';'-separated LIST of stock names/ids, custom specs
/// cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ and canonical names. Duplicates are dropped. Throws InputError for a bad
/// text, a board without a grid asked for "grid" or "sample:N", or N outside 1..grid size;
/// UnavailableError for "current" when the mode in force is unknown.
std::vector<PowerMode> modesFor(const DeviceSpec& device, const std::string& spec,
                                std::optional<int> currentStockId = std::nullopt, uint64_t seed = 0);

/// Gives each custom mode of `modes` that has a stock mode's clocks, cores and TPCs that stock mode's name
/// and nvpmodel id (the grid's top corner is MAXN on an AGX Orin), unless that stock mode is in `modes`
/// already: one operating point under one name, applied by `nvpmodel -m ID`. Returns how many were renamed.
size_t nameStockOperatingPoints(const DeviceSpec& device, std::vector<PowerMode*> modes);

} // namespace rooftop
