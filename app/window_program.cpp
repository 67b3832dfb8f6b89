// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_program.h"

#include <climits>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace rooftop {

namespace {

bool executable(const std::string& path) {
    return !path.empty() && access(path.c_str(), X_OK) == 0;
}

// The folder of this executable, symbolic links resolved; empty when /proc does not say.
std::string ownFolder() {
    char self[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self);
    if (length <= 0 || static_cast<size_t>(length) >= sizeof self) return {};
    const std::string exe(self, static_cast<size_t>(length));
    return exe.substr(0, exe.rfind('/'));
}

} // namespace

std::string windowProgramPath() {
    if (const char* set = std::getenv("ROOFTOP_WINDOW"); set && *set)
        return executable(set) ? set : std::string();
    if (const std::string dir = ownFolder(); !dir.empty())
        for (const std::string& candidate :
             {dir + "/rooftop-window", dir + "/" + ROOFTOP_BIN_TO_LIBEXEC + "/rooftop/rooftop-window"})
            if (executable(candidate)) return candidate;
    return executable(ROOFTOP_INSTALLED_WINDOW) ? ROOFTOP_INSTALLED_WINDOW : std::string();
}

} // namespace rooftop
