// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/helper_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace rooftop {

const char* HelperLock::defaultPath() {
    return "/run/rooftop-mode-helper.lock";
}

HelperLock::HelperLock(const std::string& path, bool wait) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        error_ = "cannot open " + path + ": " + std::strerror(errno);
        return;
    }
    int result = 0;
    while ((result = ::flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))) != 0 && errno == EINTR) {
    }
    if (result != 0) {
        error_ = errno == EWOULDBLOCK ? path + " is held by another helper"
                                      : "cannot lock " + path + ": " + std::strerror(errno);
        ::close(fd);
        return;
    }
    fd_ = fd;
}

HelperLock::~HelperLock() {
    if (fd_ >= 0) ::close(fd_); // closing drops the flock; the file stays (removing it would race)
}

} // namespace rooftop
