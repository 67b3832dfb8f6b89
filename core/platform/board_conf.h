// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/platform/jetson_clocks.h"
#include "core/platform/nvpmodel_conf.h"
#include "core/platform/sysfs_root.h"

#include <string>
#include <vector>

namespace rooftop {

/// The stock modes a board's own nvpmodel.conf defines, resolved on `device`'s ladders exactly as the
/// catalog resolves its own (no cap -> the ladder top, between steps -> the nearest): ids, names, online
/// cores, CPU / GPU / EMC caps and TPC masks as the conf writes them. The CPU, GPU and EMC params are found
/// by what they cap (NvpmodelConf::cpuClockParam, ...), never by an assumed name, and no mode id is assumed:
/// a vendor conf that adds modes (a 40W mode, a 7W mode) yields them all. Throws InputError, one line
/// naming the mode, when a mode puts more cores online than the board has, or caps a clock above the top or
/// below the bottom of its ladder (the board cannot run what the conf says); the conf then is not used.
std::vector<StockMode> stockModesFromConf(const DeviceSpec& device, const NvpmodelConf& conf);

/// What deviceForBoard changed, for the user ("stock modes from /etc/nvpmodel.conf: 4 modes").
struct BoardRefinement {
    DeviceSpec device;              ///< the catalog entry as this board runs it
    std::vector<std::string> notes; ///< one line per change; empty: the catalog entry as it was
};

/// `catalogEntry` as this board runs it: a ladder sysfs reports replaces the catalog's when it has a step
/// the catalog lacks (the catalog's ladder is an estimate there: Thor) and the grid snaps to it; the stock
/// modes and the default come from the board's /etc/nvpmodel.conf when it is there. Throws InputError with
/// one line for a conf that does not parse or whose modes the board cannot run (stockModesFromConf).
BoardRefinement deviceForBoard(const DeviceSpec& catalogEntry, const SysfsRoot& root);

} // namespace rooftop
