// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace rooftop {

/// How a shell command ended.
struct ChildOutcome {
    bool started = false;   ///< false when fork/pipe failed (reason in `error`)
    bool timedOut = false;  ///< killed (its whole process group) at the time limit
    bool cancelled = false; ///< killed because cancel became true
    int exitCode = -1;      ///< exit status, -1 when it did not exit normally
    int signal = 0;         ///< the signal that ended it, 0 when none
    std::string out;        ///< standard output (its last 64 KiB)
    std::string err;        ///< standard error (its last 4 KiB)
    std::string error;      ///< why it could not be started or awaited; empty when it could
};

/// Runs `/bin/sh -c command` in its own process group with the current environment plus `extraEnv`, stdin
/// from /dev/null; kills the group with SIGKILL after `timeoutSeconds` or when *cancel becomes true. The run
/// ends when the shell exits (a background child holding its output is killed with the group); the shell
/// dies with Rooftop (PR_SET_PDEATHSIG), a guardian process kills the rest of the group when Rooftop dies,
/// and the group is recorded for the next start should the guardian die too (runner_journal.h).
ChildOutcome runShellCommand(const std::string& command,
                             const std::vector<std::pair<std::string, std::string>>& extraEnv,
                             double timeoutSeconds, const std::atomic<bool>* cancel);

/// True for a regular file this process may execute.
bool isExecutableFile(const std::string& path);

/// True when the first word of a shell command is an executable: a path to an executable file, or a name
/// found executable on $PATH, or a shell builtin or keyword of the usual kind (exit, echo, printf, test,
/// ...).
bool shellCommandExecutable(const std::string& command, std::string* firstWord);

} // namespace rooftop
