// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/platform/board_detection.h"
#include "core/platform/mode_switcher.h"
#include "core/platform/power_sampler.h"
#include "core/platform/restore_journal.h"
#include "core/platform/sysfs_root.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// What a measuring command (bench, profile, tune, plan) opens the board with.
struct BoardSessionRequest {
    std::string command = "profile"; ///< the command, for messages ("tune: ...")
    std::string deviceId;            ///< catalog or detected id; empty: the Jetson this machine is
    std::string modes =
        "current";     ///< a mode set, with modesFor's one meaning; empty: grid, or stock without one
    uint64_t seed = 0; ///< for sample:N
    bool simulated =
        false; ///< the simulated board: never switches, reports its own power, first stock mode current
    bool noSwitch = false; ///< run every mode without switching (the runner switches, or pretends)
};

/// The board opened for measuring, the one door every measuring command and page goes through: the device
/// (catalog + detected GPUs), this machine's identity, the mode in force, the mode set, switching (helper,
/// journal, session lock, a crash's journal replayed) and Rooftop's power source with its sampling period.
/// Held until the measurement ends; its destructor restores the original mode if a sweep left it changed.
class BoardSession {
public:
    /// Opens the board; InputError for a bad id or mode set, UnavailableError when switching is asked for
    /// off a Jetson or another session holds the board. Nothing is changed before it returns.
    static std::unique_ptr<BoardSession> open(const BoardSessionRequest& request);
    ~BoardSession();
    BoardSession(const BoardSession&) = delete;
    BoardSession& operator=(const BoardSession&) = delete;

    /// The board measured.
    const DeviceSpec& device() const { return device_; }
    /// This machine as detected (empty for the simulated board).
    const BoardIdentity& identity() const { return identity_; }
    /// The nvpmodel mode in force when the session opened (the simulated board's first stock mode).
    std::optional<int> currentStockId() const { return current_; }
    /// The request's mode set resolved by modesFor.
    const std::vector<PowerMode>& modes() const { return modes_; }
    /// True when this machine is the Jetson measured (its sysfs and rails are the board's).
    bool onBoard() const { return onBoard_; }
    /// The switcher while switching; null otherwise.
    ModeSwitcher* switcher() const { return switching_ ? switcher_.get() : nullptr; }
    /// The restore journal while switching; null otherwise.
    RestoreJournal* journal() const { return journal_.get(); }
    /// Rooftop's own power source; null with noPowerReason() saying why. Shared: a read that blocks keeps it
    /// alive in the sampler's reader thread after the session ends.
    const std::shared_ptr<PowerSource>& power() const { return power_; }
    /// Why there is no power source ("the simulated board reports its own power").
    const std::string& noPowerReason() const { return noPowerReason_; }
    /// What "current" stood for where no mode is in force (the simulated board); empty otherwise.
    const std::string& currentModeNote() const { return currentModeNote_; }
    /// How often the power source is read: 20 ms on a Jetson's rails, 50 ms through NVML.
    std::chrono::milliseconds powerPeriod() const {
        return device_.discrete ? std::chrono::milliseconds(50) : std::chrono::milliseconds(20);
    }
    /// The sysfs root the session reads.
    const SysfsRoot& root() const { return root_; }

private:
    BoardSession() = default;

    DeviceSpec device_;
    BoardIdentity identity_;
    SysfsRoot root_;
    std::optional<int> current_;
    std::vector<PowerMode> modes_;
    bool onBoard_ = false;
    bool switching_ = false;
    std::unique_ptr<HelperRunner> helper_;
    std::unique_ptr<ModeSwitcher> switcher_;
    std::unique_ptr<RestoreJournal> journal_;
    std::unique_ptr<JournalLock> lock_;
    std::shared_ptr<PowerSource> power_;
    std::string noPowerReason_;
    std::string currentModeNote_;
};

/// Rooftop's power source for measuring `device` here, by one rule: the module's INA3221 rails under `root`
/// when this machine (`board`) is that Jetson; NVML when the device is the lone first discrete GPU (NVML
/// numbers GPUs by PCI bus, CUDA by speed and through CUDA_VISIBLE_DEVICES); null with the reason in *whyNot
/// otherwise.
std::unique_ptr<PowerSource> boardPowerSource(const DeviceSpec& device, const SysfsRoot& root,
                                              const BoardIdentity& board, std::string* whyNot);

/// Restores the mode an interrupted measurement left (its journal, when no live session holds the lock);
/// true when it restored one. Cheap where there is no journal. Throws UnavailableError when the restore
/// fails.
bool restoreInterruptedMode();

} // namespace rooftop
