// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/mode_switcher.h"

#include <memory>
#include <optional>
#include <string>

namespace rooftop {

/// A file naming the nvpmodel mode to restore, written before the first mode change and removed after the
/// restore: when Rooftop dies in between, the next start finds it and restores (replayRestoreJournal).
class RestoreJournal {
public:
    /// The journal at `path` (defaultPath()); nothing is read or written yet.
    explicit RestoreJournal(std::string path);
    /// $ROOFTOP_MODE_JOURNAL, else ~/.local/state/rooftop/mode-journal.
    static std::string defaultPath();
    /// The journal's file.
    const std::string& path() const { return path_; }
    /// Writes "rooftop-mode-journal/1 stock=ID" atomically; throws UnavailableError when it cannot.
    void record(int originalStockId);
    /// The mode id a journal left behind, nothing when there is none or it is malformed.
    std::optional<int> pending() const;
    /// Removes the journal.
    void clear();

private:
    std::string path_;
};

/// An exclusive, non-blocking flock() on "<journal>.lock": a bench session holds it for its whole run, so
/// that a second `rooftop bench` or a GUI start does not take the running sweep's journal for a crash's and
/// undo its mode. The kernel drops the lock when the process dies, so a crash leaves no stale lock.
class JournalLock {
public:
    /// Tries once (never waits); held() says whether it got the lock.
    explicit JournalLock(const std::string& journalPath);
    ~JournalLock();
    JournalLock(const JournalLock&) = delete;
    JournalLock& operator=(const JournalLock&) = delete;
    /// True when this process holds the lock.
    bool held() const { return fd_ >= 0; }
    /// The lock file next to a journal.
    static std::string lockPath(const std::string& journalPath) { return journalPath + ".lock"; }

private:
    int fd_ = -1;
};

/// Takes the session's lock; throws UnavailableError "another rooftop bench is running" when it is held.
std::unique_ptr<JournalLock> lockBenchSession(const RestoreJournal& journal);

/// Restores the mode a journal names (release clocks, nvpmodel -m ID) and clears it; false when there was
/// nothing to replay. Throws UnavailableError when the restore fails (the journal is kept).
bool replayRestoreJournal(RestoreJournal& journal, ModeSwitcher& switcher);

/// Restores the original mode when it goes out of scope (normal exit, exception, cancel by signal) after
/// beforeChange() was called.
class RestoreGuard {
public:
    /// Changes nothing until beforeChange().
    RestoreGuard(ModeSwitcher& switcher, RestoreJournal& journal);
    /// Calls restore(), swallowing a failure (the journal then stays for the next start).
    ~RestoreGuard();
    RestoreGuard(const RestoreGuard&) = delete;
    RestoreGuard& operator=(const RestoreGuard&) = delete;

    /// Call before every change: the first call reads the current mode and journals it; throws
    /// UnavailableError when the current mode is unknown (Rooftop then changes nothing).
    void beforeChange();
    /// Restores now (idempotent); throws UnavailableError when it fails, keeping the journal.
    void restore();
    /// The mode that will be restored, -1 before any change.
    int originalStockId() const { return original_; }

private:
    ModeSwitcher& switcher_;
    RestoreJournal& journal_;
    int original_ = -1;
    bool changed_ = false;
};

} // namespace rooftop
