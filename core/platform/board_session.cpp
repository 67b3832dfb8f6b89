// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/board_session.h"

#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/platform/board_conf.h"
#include "core/platform/detected_catalog.h"
#include "core/platform/nvml_power.h"
#include "core/platform/power_rails.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace rooftop {

std::unique_ptr<PowerSource> boardPowerSource(const DeviceSpec& device, const SysfsRoot& root,
                                              const BoardIdentity& board, std::string* whyNot) {
    if (device.discrete) {
        if (device.id != "cuda:0" || std::getenv("CUDA_VISIBLE_DEVICES")) {
            *whyNot = "NVML's GPU order may differ from CUDA's for " + device.id;
            return nullptr;
        }
        return openNvmlPowerSource(0, whyNot);
    }
    // another board's numbers would be meaningless: the rails read are this machine's
    if (!board.jetson || (!board.deviceId.empty() && board.deviceId != device.id)) {
        *whyNot = "the board is not this machine";
        return nullptr;
    }
    std::vector<RailChannel> rails = moduleRails(discoverRails(root));
    if (rails.empty()) {
        *whyNot = "no INA3221 rail found";
        return nullptr;
    }
    return std::make_unique<RailPowerSource>(root, std::move(rails));
}

namespace {

std::string currentModeUnreadable(const std::string& command, const DeviceSpec& device, bool onBoard) {
    const std::string why =
        onBoard ? "nvpmodel names no mode in force here (no /var/lib/nvpmodel/status, no default in "
                  "/etc/nvpmodel.conf)"
                : "only the " + device.id +
                      " measured can say which nvpmodel mode is in force, and this "
                      "machine is not it";
    std::string example = "a stock mode's name";
    if (!device.stockModes.empty()) example += " (" + device.stockModes.front().name + ")";
    return command + ": modes 'current' cannot be used: " + why +
           ". Name the mode the runs are of instead: " + example +
           " or a custom mode cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ (--modes NAME; in the window, Modes), " +
           "with no switching (--no-switch; \"Do not switch modes\") when the board is already in it";
}

} // namespace

std::unique_ptr<BoardSession> BoardSession::open(const BoardSessionRequest& request) {
    std::unique_ptr<BoardSession> s(new BoardSession());
    s->root_ = SysfsRoot::fromEnvironment();
    const std::vector<DeviceSpec> catalog = loadCatalogWithDetected(defaultCatalogFolder(), request.deviceId);
    if (!request.simulated) s->identity_ = detectBoard(s->root_, catalog);
    std::string deviceId = request.deviceId;
    if (deviceId.empty()) deviceId = s->identity_.deviceId;
    if (deviceId.empty())
        throw UnavailableError(request.command + ": cannot tell which Jetson this is (" +
                               (!s->identity_.unknownReason.empty() ? s->identity_.unknownReason
                                : s->identity_.model.empty()        ? "no device-tree model"
                                                                    : s->identity_.model) +
                               "); pass --device ID");
    s->device_ = findDevice(catalog, deviceId);
    const DeviceSpec& device = s->device_;

    // a module part number that is not this device's (an unknown p3834 variant asked to be a T5000): not the
    // board measured, so its modes are never switched with another board's numbers
    const bool otherModule =
        !s->identity_.module.empty() &&
        std::find(device.modules.begin(), device.modules.end(), s->identity_.module) == device.modules.end();
    s->onBoard_ = !request.simulated && !device.discrete && s->identity_.jetson && !otherModule &&
                  (s->identity_.deviceId.empty() || s->identity_.deviceId == device.id);
    // on the board, its own nvpmodel.conf and (where the catalog's are estimates) ladders are the truth
    if (s->onBoard_) s->device_ = deviceForBoard(s->device_, s->root_).device;
    if (request.simulated && !device.stockModes.empty()) s->current_ = device.stockModes.front().id;
    if (s->onBoard_) {
        s->helper_ = std::make_unique<ProcessHelperRunner>(defaultHelperPath());
        s->switcher_ = std::make_unique<JetsonModeSwitcher>(s->root_, *s->helper_);
        s->current_ = s->switcher_->currentStockId();
    }
    const std::string modeSet = !request.modes.empty()   ? request.modes
                                : device.grid.size() > 0 ? "grid"
                                                         : "stock";
    // "current" needs the mode in force read from nvpmodel: off the board there is none, on it the status
    // file and the conf's default can both be missing; say why and what to name instead
    if (!request.simulated && !device.discrete && modeSet == "current" && (!s->onBoard_ || !s->current_))
        throw UnavailableError(currentModeUnreadable(request.command, device, s->onBoard_));
    s->modes_ = modesFor(device, modeSet, s->current_, request.seed);
    if (request.simulated && modeSet == "current" && !device.discrete && !s->modes_.empty())
        s->currentModeNote_ =
            "the simulated board has no mode in force: 'current' is its first stock mode, " +
            s->modes_.front().name + " (--modes names others)";
    s->switching_ = !request.simulated && !request.noSwitch && modeSet != "current";
    if (s->switching_ && !s->onBoard_ && !s->identity_.unknownReason.empty())
        throw UnavailableError(
            request.command + ": " + s->identity_.unknownReason + "; it is not " + device.id +
            ", so its modes are not switched with that board's numbers; nothing switched (use "
            "--no-switch: off the board its mode in force cannot be read either)");
    if (s->switching_ && !s->onBoard_)
        throw UnavailableError(request.command +
                               ": switching power modes works on a Jetson only, the one measured; use "
                               "--no-switch (off the board "
                               "its mode in force cannot be read, so --modes current is no way either)");
    if (s->switching_) // a tree with the right names but missing files: say what, before anything changes
        if (const std::string problem = clockFilesProblem(s->root_, findClockPaths(s->root_));
            !problem.empty())
            throw UnavailableError(request.command + ": cannot switch power modes here: " + problem +
                                   "; nothing switched (use --no-switch or --modes current)");
    if (s->switching_) {
        s->journal_ = std::make_unique<RestoreJournal>(RestoreJournal::defaultPath());
        s->lock_ = lockBenchSession(*s->journal_);
        if (s->journal_->pending()) replayRestoreJournal(*s->journal_, *s->switcher_);
    }
    if (request.simulated)
        s->noPowerReason_ = "the simulated board reports its own power";
    else
        s->power_ = boardPowerSource(device, s->root_, s->identity_, &s->noPowerReason_);
    return s;
}

BoardSession::~BoardSession() {
    // a sweep restores through its RestoreGuard; this catches whatever left the journal live (an exception
    // thrown between a switch and the guard's restore)
    if (!journal_ || !switcher_) return;
    try {
        if (journal_->pending()) replayRestoreJournal(*journal_, *switcher_);
    } catch (const std::exception& error) {
        std::cerr << "rooftop: the original power mode could not be restored (" << error.what()
                  << "); the next rooftop start retries\n";
    }
}

bool restoreInterruptedMode() {
    RestoreJournal journal(RestoreJournal::defaultPath());
    if (!journal.pending()) return false;
    // a measuring session holds the lock while its journal is live: that run is not interrupted, leave it be
    const JournalLock lock(journal.path());
    if (!lock.held()) return false;
    ProcessHelperRunner helper(defaultHelperPath());
    JetsonModeSwitcher switcher(SysfsRoot::fromEnvironment(), helper);
    if (!switcher.currentStockId()) return false; // no nvpmodel here: not a Jetson, nothing to restore
    return replayRestoreJournal(journal, switcher);
}

} // namespace rooftop
