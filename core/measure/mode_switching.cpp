// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/mode_switching.h"

#include "core/common/errors.h"

namespace rooftop {

ModeSwitching prepareModeSwitching(const DeviceSpec& device, const SysfsRoot& root,
                                   const BoardIdentity& board, bool simulated, bool noSwitch) {
    ModeSwitching s;
    if (simulated || noSwitch) return s;
    if (device.discrete || !board.jetson)
        throw UnavailableError("switching power modes works on a Jetson only; use --no-switch");
    s.helper = std::make_unique<ProcessHelperRunner>(defaultHelperPath());
    s.switcher = std::make_unique<JetsonModeSwitcher>(root, *s.helper);
    s.journal = std::make_unique<RestoreJournal>(RestoreJournal::defaultPath());
    s.lock = lockBenchSession(*s.journal);
    if (s.journal->pending()) replayRestoreJournal(*s.journal, *s.switcher);
    return s;
}

} // namespace rooftop
