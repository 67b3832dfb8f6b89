// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/platform/board_detection.h"
#include "core/platform/mode_switcher.h"
#include "core/platform/restore_journal.h"
#include "core/platform/sysfs_root.h"

#include <memory>

namespace rooftop {

/// What a measuring session that switches power modes holds until it ends: the privileged helper, the
/// switcher, the restore journal and the bench's session lock. All null when the session does not switch.
struct ModeSwitching {
    std::unique_ptr<HelperRunner> helper;
    std::unique_ptr<ModeSwitcher> switcher;
    std::unique_ptr<RestoreJournal> journal;
    std::unique_ptr<JournalLock> lock;
};

/// Switching as rooftop profile does it: on the Jetson `board` is, unless `noSwitch` or a simulated board,
/// takes the journal lock and replays a crash's journal. Throws UnavailableError when switching is asked for
/// on a machine that is not a Jetson.
ModeSwitching prepareModeSwitching(const DeviceSpec& device, const SysfsRoot& root,
                                   const BoardIdentity& board, bool simulated, bool noSwitch);

} // namespace rooftop
