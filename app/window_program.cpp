// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_program.h"

#include <climits>
#include <string>
#include <unistd.h>

namespace rooftop {

std::string windowProgramPath() {
    char self[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) return {};
    const std::string exe(self, static_cast<size_t>(length));
    const std::string dir = exe.substr(0, exe.rfind('/'));
    for (const std::string& candidate : {dir + "/rooftop-window", dir + "/../libexec/rooftop/rooftop-window"})
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    return {};
}

} // namespace rooftop
