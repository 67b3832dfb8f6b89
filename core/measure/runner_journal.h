// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <sys/types.h>

namespace rooftop {

/// The environment variable that tags every process of one runner run (its value is the run's token), so that
/// a later Rooftop kills only processes of that run, never an unrelated group that reused the id.
constexpr const char* runnerTokenVariable = "ROOFTOP_RUNNER_TOKEN";

/// A record of one running runner's process group: a file "rooftop-runner-group/1 pgid=N token=T" in a
/// folder, locked (flock) by the Rooftop process that runs it and removed when the run ends. When that
/// process dies (kill -9, a crash), the kernel drops the lock and the next start kills the group
/// (reapInterruptedRunners).
class RunnerGroupRecord {
public:
    /// Records the group under `folder`; a record that cannot be written leaves held() false (the run still
    /// goes on: its children also die with Rooftop's death signal).
    RunnerGroupRecord(const std::string& folder, pid_t pgid, const std::string& token);
    /// Removes the record, then releases its lock.
    ~RunnerGroupRecord();
    RunnerGroupRecord(const RunnerGroupRecord&) = delete;
    RunnerGroupRecord& operator=(const RunnerGroupRecord&) = delete;
    /// True when the record was written and is locked.
    bool held() const { return fd_ >= 0; }

    /// $ROOFTOP_RUNNER_JOURNAL, else ~/.local/state/rooftop/runners.
    static std::string defaultFolder();

private:
    std::string path_;
    int fd_ = -1;
};

/// A new random token for a run (16 hex digits).
std::string newRunnerToken();

/// Kills (SIGKILL) every process of the groups that records left by dead Rooftop processes name and that
/// carries the record's token, and removes those records; records still locked by a live Rooftop are left.
/// Returns how many processes were killed.
int reapInterruptedRunners(const std::string& folder = RunnerGroupRecord::defaultFolder());

} // namespace rooftop
