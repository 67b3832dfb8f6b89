// SPDX-License-Identifier: GPL-3.0-or-later
// Preloaded into the arm64 test programs under qemu-user by scripts/arm64-check.sh (never built into Rooftop).
// Qt 6 starts processes through forkfd, which probes waitid(P_PIDFD) and, when the kernel knows it, clones with
// CLONE_PIDFD. qemu-user 7.2 passes the probe to the host kernel (so Qt sees pidfd support) but refuses a clone
// with CLONE_PIDFD (EINVAL), so every QProcess start fails ("fork failure: Invalid argument"). Answering the
// probe with ENOSYS makes Qt fall back to fork(), which qemu emulates.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

enum { kPidfdIdType = 3 }; // P_PIDFD, from Linux 5.4's <linux/wait.h>

long syscall(long number, ...) {
    va_list arguments;
    va_start(arguments, number);
    long a[6];
    for (int i = 0; i < 6; ++i)
        a[i] = va_arg(arguments, long);
    va_end(arguments);
    if (number == SYS_waitid && a[0] == kPidfdIdType) {
        errno = ENOSYS;
        return -1;
    }
    static long (*real)(long, ...);
    if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
