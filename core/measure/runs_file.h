// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/run_config.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// The header line of a runs file.
const char* runsHeader();

/// One row of a runs file: one run of one configuration.
struct RunRow {
    std::string mode;
    int cores = 0;
    int64_t cpuKhz = 0;
    int64_t gpuHz = 0;
    int64_t emcHz = 0;
    int64_t batch = 1;
    std::string precision;
    std::string phase;
    std::optional<double> latencyMs; ///< empty for a failed run
    std::optional<double> p99Ms;
    std::optional<double> powerW;
    std::optional<double> energyMj; ///< energy of one batch
    std::string status;             ///< "ok" or "failed: REASON"
    std::string runner;
    int line = 0; ///< 1-based line it was read from (0 when not read from a file)

    bool ok() const { return status == "ok"; }
};

/// The row for a run: power from energy / latency or energy from power x latency where only one is known.
RunRow runRowFrom(const RunConfig& config, const RunResult& result, const std::string& runner);

/// The row as one CSV line (no line break), fields quoted where needed.
std::string formatRunRow(const RunRow& row);

/// Reads a runs file; a missing or empty file has no rows. Throws InputError "PATH:LINE: ..." naming the
/// field for a wrong header, a line with the wrong number of fields, a bad quote or a bad value.
std::vector<RunRow> readRunsFile(const std::string& path);

/// The key resume counts by: mode, batch, precision and phase.
std::string runKey(const std::string& mode, int64_t batch, const std::string& precision,
                   const std::string& phase);

/// How many ok runs each configuration (runKey) has.
std::map<std::string, int> okRunCounts(const std::vector<RunRow>& rows);

/// Appends rows to a runs file, writing the header first when the file is new or empty; every row is
/// flushed as soon as it is written, so an interrupted sweep leaves whole lines.
class RunsFileWriter {
public:
    /// Opens for appending; throws InputError when it cannot.
    explicit RunsFileWriter(const std::string& path);
    ~RunsFileWriter();
    RunsFileWriter(const RunsFileWriter&) = delete;
    RunsFileWriter& operator=(const RunsFileWriter&) = delete;
    /// Writes and flushes one row; throws InputError when the write fails.
    void append(const RunRow& row);

private:
    void write(const std::string& line);
    std::string path_;
    std::FILE* file_ = nullptr;
};

} // namespace rooftop
