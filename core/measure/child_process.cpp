// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/child_process.h"

#include "core/measure/runner_journal.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <set>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace rooftop {

namespace {

void keepTail(std::string& text, size_t limit) {
    if (text.size() > limit) text.erase(0, text.size() - limit);
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// A process that kills a runner's group when Rooftop dies, kill -9 included: Rooftop holds the only other
/// end of its lifeline, so the guardian's read ends with Rooftop.
struct Guardian {
    pid_t pid = -1;
    int lifeline = -1; ///< Rooftop's end: a byte on it says the run ended and the guardian leaves
};

/// Closes descriptors first..last (last -1: all above first) in one call where the kernel has close_range.
bool closeRange(int first, int last) {
    if (last >= 0 && last < first) return true;
#ifdef SYS_close_range
    return ::syscall(SYS_close_range, unsigned(first), last < 0 ? ~0U : unsigned(last), 0U) == 0;
#else
    return false;
#endif
}

// Only async-signal-safe calls after fork(): Rooftop may have other threads (the window runs measurements off
// the GUI thread).
Guardian startGuardian(pid_t group) {
    int line[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, line) != 0) return {};
    const long openMax = ::sysconf(_SC_OPEN_MAX);
    const int lastFd = int(std::min<long>(openMax > 0 ? openMax : 1024, 65536)) - 1;
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(line[0]);
        ::close(line[1]);
        return {};
    }
    if (pid == 0) {
        ::setpgid(0, 0); // out of Rooftop's group, so a kill of that group leaves it to do its work
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE})
            ::sigaction(signal, &ignore, nullptr);
        // hold nothing of Rooftop's: another pipe's write end kept open here would hold up its reader
        const int keep = line[0];
        if (!closeRange(0, keep - 1))
            for (int fd = 0; fd < keep; ++fd)
                ::close(fd);
        if (!closeRange(keep + 1, -1))
            for (int fd = keep + 1; fd <= lastFd; ++fd)
                ::close(fd);
        char done = 0;
        ssize_t n = 0;
        while ((n = ::read(keep, &done, 1)) < 0 && errno == EINTR) {
        }
        if (n <= 0) ::kill(-group, SIGKILL); // Rooftop died during the run
        ::_exit(0);
    }
    ::close(line[0]);
    return {pid, line[1]};
}

/// Tells the guardian the run ended (before the group's leader is reaped, so its id cannot be reused
/// meanwhile) and reaps it.
void stopGuardian(Guardian& guardian) {
    if (guardian.pid < 0) return;
    const char done = 1;
    while (::send(guardian.lifeline, &done, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
    ::close(guardian.lifeline);
    while (::waitpid(guardian.pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    guardian.pid = -1;
}

} // namespace

bool isExecutableFile(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

ChildOutcome runShellCommand(const std::string& command,
                             const std::vector<std::pair<std::string, std::string>>& extraEnv,
                             double timeoutSeconds, const std::atomic<bool>* cancel) {
    ChildOutcome outcome;
    // everything the child needs is built before fork(): after it only async-signal-safe calls are made
    std::vector<std::string> envText;
    std::set<std::string> replaced;
    const std::string token = newRunnerToken(); // tags the run's processes for a later start's reaper
    envText.push_back(std::string(runnerTokenVariable) + "=" + token);
    replaced.insert(runnerTokenVariable);
    for (const auto& [name, value] : extraEnv) {
        envText.push_back(name + "=" + value);
        replaced.insert(name);
    }
    for (char** e = environ; e && *e; ++e) {
        const std::string entry = *e;
        if (!replaced.count(entry.substr(0, entry.find('=')))) envText.push_back(entry);
    }
    std::vector<char*> envp;
    for (std::string& entry : envText)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::string shell = "/bin/sh", dashC = "-c", text = command;
    char* argv[] = {shell.data(), dashC.data(), text.data(), nullptr};

    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0) {
        outcome.error = std::string("pipe: ") + std::strerror(errno);
        return outcome;
    }
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        outcome.error = std::string("pipe: ") + std::strerror(errno);
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return outcome;
    }
    // the shell starts only once its group is recorded: nothing it starts can escape a kill -9 unrecorded
    // (a socket pair: a send to a shell that died first fails with MSG_NOSIGNAL, where a pipe raises SIGPIPE)
    int goPipe[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, goPipe) != 0) {
        outcome.error = std::string("socketpair: ") + std::strerror(errno);
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
            ::close(fd);
        return outcome;
    }
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        outcome.error = std::string("fork: ") + std::strerror(errno);
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], goPipe[0], goPipe[1]})
            ::close(fd);
        return outcome;
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        // the runner dies with Rooftop (kill -9 included); what it started in the background is killed by the
        // next start, from the group's record
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        ::close(goPipe[1]);
        char go = 0;
        while (::read(goPipe[0], &go, 1) < 0 && errno == EINTR) {
        }
        if (go != 1) ::_exit(127);                                  // Rooftop died before recording the group
        const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC); // dup2 onto 0 clears the flag there
        if (null >= 0) ::dup2(null, 0);
        ::dup2(outPipe[1], 1);
        ::dup2(errPipe[1], 2);
        ::signal(SIGPIPE, SIG_DFL);
        ::execve(argv[0], argv, envp.data());
        ::_exit(127);
    }
    ::setpgid(pid, pid); // also here, so the group exists before any kill below
    outcome.started = true;
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    ::close(goPipe[0]);
    const RunnerGroupRecord record(RunnerGroupRecord::defaultFolder(), pid, token);
    // the group dies with Rooftop; should the guardian fail to start or be killed too, the record remains
    Guardian guardian = startGuardian(pid);
    const char go = 1;
    while (::send(goPipe[1], &go, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
    ::close(goPipe[1]);

    const auto start = std::chrono::steady_clock::now();
    bool killed = false;
    auto killedAt = start;
    auto killGroup = [&] {
        if (!killed) {
            ::kill(-pid, SIGKILL);
            killedAt = std::chrono::steady_clock::now();
        }
        killed = true;
    };
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    int open = 2;
    auto readReady = [&](int timeoutMs) { // false when poll failed
        if (::poll(fds, 2, timeoutMs) < 0) return errno == EINTR;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buffer[4096];
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                std::string& into = i == 0 ? outcome.out : outcome.err;
                into.append(buffer, static_cast<size_t>(n));
                keepTail(into, i == 0 ? 65536 : 4096);
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
        return true;
    };
    // The run ends when the runner (the shell) exits, whoever else holds its pipes: a background child it
    // left is killed with its group. The exit is seen without reaping (WNOWAIT), so the group's id cannot be
    // reused before the kill.
    auto runnerExited = [&] {
        siginfo_t info{};
        if (::waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0) return info.si_pid == pid;
        return errno == ECHILD; // reaped by the kernel (SIGCHLD ignored): gone, its exit status lost
    };
    bool exited = false;
    while (true) {
        if (!killed && cancel && cancel->load()) {
            outcome.cancelled = true;
            killGroup();
        }
        if (!killed && secondsSince(start) >= timeoutSeconds) {
            outcome.timedOut = true;
            killGroup();
        }
        if (open > 0 && !readReady(50)) break;
        if (open == 0 && !exited) ::usleep(10000);
        if (!exited && runnerExited()) {
            exited = true;
            // what it wrote before exiting is in the pipes (bounded: a child may go on writing)
            for (int drained = 0; drained < 64 && open > 0 && ::poll(fds, 2, 0) > 0; ++drained)
                readReady(0);
            killGroup();
        }
        if (exited && open == 0) break;
        // a grandchild that left the group may keep the pipes open: it does not hold the sweep up for long
        if (killed && secondsSince(killedAt) >= 2.0) break;
    }
    for (pollfd& f : fds) // still open when a grandchild that left the group holds a pipe, or poll failed
        if (f.fd >= 0) ::close(f.fd);
    killGroup(); // whatever is left of it (poll failed: the run cannot be read)
    stopGuardian(guardian);
    int status = 0;
    while (true) {
        const pid_t done = ::waitpid(pid, &status, 0);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) {
            // e.g. SIGCHLD ignored by whoever started us: the exit status is lost, so the run cannot count
            outcome.error = std::string("cannot read the command's exit status: ") + std::strerror(errno);
            outcome.exitCode = -1;
            return outcome;
        }
    }
    if (WIFEXITED(status)) outcome.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
    return outcome;
}

bool shellCommandExecutable(const std::string& command, std::string* firstWord) {
    const size_t from = command.find_first_not_of(" \t");
    if (from == std::string::npos) {
        if (firstWord) firstWord->clear();
        return false;
    }
    const size_t to = command.find_first_of(" \t;|&<>()", from);
    const std::string word = command.substr(from, to == std::string::npos ? std::string::npos : to - from);
    if (firstWord) *firstWord = word;
    if (word.empty()) return false;
    static const std::set<std::string> builtins = {"exit",  "echo", "printf", "test",   "[",   ":",   "true",
                                                   "false", "cd",   "exec",   "export", "if",  "for", "while",
                                                   "case",  "{",    "set",    ".",      "eval"};
    if (builtins.count(word) || word.find('=') != std::string::npos) return true;
    if (word.find('/') != std::string::npos) return isExecutableFile(word);
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = dirs.find(':', start);
        const std::string dir =
            dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (isExecutableFile((dir.empty() ? "." : dir) + "/" + word)) return true;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return false;
}

} // namespace rooftop
