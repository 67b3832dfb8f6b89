// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rooftop {

/// The lock rooftop-mode-helper holds while it changes a mode, so that changes run one at a time in the order
/// they took it: a switch a killed Rooftop started finishes before the next start's restore begins (which
/// waits for it), never after it. An exclusive flock() on `path`, dropped when the process ends, kill -9
/// included.
class HelperLock {
public:
    /// Where the helper locks: a fixed root-owned path, never from the environment.
    static const char* defaultPath();

    /// Opens (creating, mode 0600) and locks `path`, waiting for another holder when `wait`; held() says
    /// whether it got the lock, error() why not.
    HelperLock(const std::string& path, bool wait);
    ~HelperLock();
    HelperLock(const HelperLock&) = delete;
    HelperLock& operator=(const HelperLock&) = delete;

    /// True when this holds the lock.
    bool held() const { return fd_ >= 0; }
    /// Why the lock is not held ("cannot open PATH: ...", "PATH is held by another helper"); empty when held.
    const std::string& error() const { return error_; }

private:
    int fd_ = -1;
    std::string error_;
};

} // namespace rooftop
