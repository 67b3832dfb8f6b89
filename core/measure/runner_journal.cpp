// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/runner_journal.h"

#include <QDir>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>

namespace rooftop {

namespace {

const char* const recordTag = "rooftop-runner-group/1";

std::string readSmallFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The process group of a live process from /proc/PID/stat, -1 when it cannot be read.
pid_t processGroupOf(const std::string& pid) {
    const std::string stat = readSmallFile("/proc/" + pid + "/stat");
    const size_t close = stat.rfind(')'); // the command name may hold spaces and parentheses
    if (close == std::string::npos) return -1;
    char state = 0;
    long parent = 0, group = -1;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld %ld", &state, &parent, &group) != 3) return -1;
    return state == 'Z' ? -1 : pid_t(group);
}

bool carriesToken(const std::string& pid, const std::string& entry) {
    const std::string environ = readSmallFile("/proc/" + pid + "/environ");
    size_t from = 0;
    while (from < environ.size()) {
        const size_t end = environ.find('\0', from);
        if (environ.compare(from, (end == std::string::npos ? environ.size() : end) - from, entry) == 0)
            return true;
        if (end == std::string::npos) break;
        from = end + 1;
    }
    return false;
}

/// SIGKILL to every process of `group` whose environment holds the token; the number killed.
int killTagged(pid_t group, const std::string& token) {
    const std::string entry = std::string(runnerTokenVariable) + "=" + token;
    DIR* proc = ::opendir("/proc");
    if (!proc) return 0;
    int killed = 0;
    while (const dirent* e = ::readdir(proc)) {
        const std::string name = e->d_name;
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        if (processGroupOf(name) != group || !carriesToken(name, entry)) continue;
        if (::kill(pid_t(std::atol(name.c_str())), SIGKILL) == 0) ++killed;
    }
    ::closedir(proc);
    return killed;
}

} // namespace

RunnerGroupRecord::RunnerGroupRecord(const std::string& folder, pid_t pgid, const std::string& token) {
    if (!QDir().mkpath(QString::fromStdString(folder))) return;
    path_ = folder + "/" + std::to_string(::getpid()) + "-" + std::to_string(pgid);
    // close-on-exec: a runner that inherited the descriptor would keep the lock alive after Rooftop died
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    const std::string text =
        std::string(recordTag) + " pgid=" + std::to_string(pgid) + " token=" + token + "\n";
    if (::flock(fd, LOCK_EX) != 0 || ::write(fd, text.data(), text.size()) != ssize_t(text.size())) {
        ::unlink(path_.c_str());
        ::close(fd);
        return;
    }
    fd_ = fd;
}

RunnerGroupRecord::~RunnerGroupRecord() {
    if (fd_ < 0) return;
    ::unlink(path_.c_str()); // before the lock goes, so no reaper reads a finished run's record
    ::close(fd_);
}

std::string RunnerGroupRecord::defaultFolder() {
    if (const char* path = std::getenv("ROOFTOP_RUNNER_JOURNAL"); path && *path) return path;
    return (QDir::homePath() + "/.local/state/rooftop/runners").toStdString();
}

std::string newRunnerToken() {
    std::random_device device;
    const unsigned long long value = (uint64_t(device()) << 32) ^ device() ^ uint64_t(::getpid());
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", value);
    return text;
}

int reapInterruptedRunners(const std::string& folder) {
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) return 0; // no record was ever written: the usual start costs this one call
    int killed = 0;
    while (const dirent* e = ::readdir(dir)) {
        if (e->d_name[0] == '.') continue;
        const std::string path = folder + "/" + e->d_name;
        const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) { // its Rooftop is alive: that run is not interrupted
            ::close(fd);
            continue;
        }
        long group = 0;
        char token[64] = {};
        const std::string text = readSmallFile(path);
        // a record without its line was cut between create and write: nothing to kill, leave it to a later
        // start rather than remove a file a live process may be about to lock
        if (std::sscanf(text.c_str(), "rooftop-runner-group/1 pgid=%ld token=%63s", &group, token) == 2 &&
            group > 1) {
            killed += killTagged(pid_t(group), token);
            ::unlink(path.c_str());
        }
        ::close(fd);
    }
    ::closedir(dir);
    return killed;
}

} // namespace rooftop
