// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop-mode-helper: the only privileged part of Rooftop, run through pkexec or sudo. It accepts
//   set-stock-mode ID | set-clocks --gpu HZ --cpu KHZ --cores N [--emc HZ] | release-clocks
// where every value must be in this board's own ladders (sysfs) or nvpmodel.conf (parseHelperRequest). It
// takes no paths, runs no shell, ignores the environment, reads and writes only the fixed Jetson sysfs
// files, runs nvpmodel by its absolute path with execv, logs every change to syslog, and changes one mode at
// a time (HelperLock).
#include "core/common/errors.h"
#include "core/platform/helper_lock.h"
#include "core/platform/helper_request.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>
#include <vector>

using namespace rooftop;

namespace {

const char* const nvpmodelPath = "/usr/sbin/nvpmodel"; // L4T's fixed location; never looked up in PATH

int fail(const std::string& message, int code) {
    std::cerr << "rooftop-mode-helper: " << message << "\n";
    syslog(LOG_WARNING, "refused or failed: %s", message.c_str());
    return code;
}

int runNvpmodel(int id) {
    const std::string idText = std::to_string(id);
    const pid_t child = fork();
    if (child < 0) return fail(std::string("fork: ") + std::strerror(errno), 3);
    if (child == 0) {
        const int devnull = open("/dev/null", O_RDONLY); // a reboot prompt reads EOF and declines
        if (devnull >= 0) dup2(devnull, STDIN_FILENO);
        if (devnull > STDERR_FILENO) close(devnull);
        char* const argv[] = {const_cast<char*>("nvpmodel"), const_cast<char*>("-m"),
                              const_cast<char*>(idText.c_str()), nullptr};
        char* const envp[] = {const_cast<char*>("PATH=/usr/sbin:/usr/bin:/sbin:/bin"), nullptr};
        execve(nvpmodelPath, argv, envp);
        _exit(127);
    }
    int status = 0;
    pid_t waited = -1;
    while ((waited = waitpid(child, &status, 0)) < 0 && errno == EINTR) {
    }
    if (waited != child) return fail("nvpmodel -m " + idText + ": waitpid: " + std::strerror(errno), 3);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return fail("nvpmodel -m " + idText + " failed (status " + std::to_string(status) + ")", 3);
    syslog(LOG_NOTICE, "set nvpmodel mode %d", id);
    return 0;
}

// Closes every descriptor above stderr that the (unprivileged) caller passed down.
void closeInheritedDescriptors() {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0) return;
#endif
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0 || limit > (1 << 20)) limit = 1 << 20;
    for (int fd = STDERR_FILENO + 1; fd < limit; ++fd)
        close(fd);
}

} // namespace

int main(int argc, char** argv) {
    signal(SIGCHLD, SIG_DFL); // an inherited SIG_IGN would make waitpid() fail with ECHILD
    closeInheritedDescriptors();
    openlog("rooftop-mode-helper", LOG_PID, LOG_AUTHPRIV);
    if (argc > 16) return fail("too many arguments", 1);
    const std::vector<std::string> args(argv + 1, argv + argc);
    const SysfsRoot root("/"); // never an environment override: this runs as root
    const ClockPaths paths = findClockPaths(root);
    const HelperLimits limits = readHelperLimits(root, paths);
    HelperRequest request;
    try {
        request = parseHelperRequest(args, limits);
    } catch (const InputError& error) {
        return fail(error.what(), 1);
    }
    if (paths.gpuDevfreq.empty() || limits.cpuKhz.empty() || limits.stockIds.empty())
        return fail("no Jetson clock files or nvpmodel.conf here: nothing to change", 2);
    if (geteuid() != 0) return fail("must run as root (through pkexec or sudo)", 2);
    // from the first change on, a Ctrl-C, hang-up or stop must not leave the sequence half done (nvpmodel
    // inherits the mask, so it is not cut short either; SIGKILL still works)
    sigset_t blocked;
    sigemptyset(&blocked);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGTSTP})
        sigaddset(&blocked, sig);
    if (sigprocmask(SIG_BLOCK, &blocked, nullptr) != 0)
        return fail(std::string("sigprocmask: ") + std::strerror(errno), 3);
    // one change at a time, in the order they came: a restore waits for a switch still running for a
    // Rooftop that was killed, instead of being undone by it
    const HelperLock lock(HelperLock::defaultPath(), true);
    if (!lock.held()) return fail(lock.error(), 3);
    if (request.action == HelperRequest::Action::SetStockMode) return runNvpmodel(request.stockId);
    const ObservedClocks current = readObservedClocks(root, paths);
    int failures = 0;
    for (const SysfsWrite& write : planClockWrites(request, paths, current, limits)) {
        const std::string before = root.read(write.path).value_or("?");
        if (root.write(write.path, write.value)) {
            syslog(LOG_NOTICE, "wrote %s to /%s (was %s)", write.value.c_str(), write.path.c_str(),
                   before.c_str());
        } else {
            ++failures;
            fail("cannot write " + write.value + " to /" + write.path, 3);
        }
    }
    return failures ? 3 : 0;
}
