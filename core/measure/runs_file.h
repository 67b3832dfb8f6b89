// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/measure/run_config.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// The header line of a new runs file (23 columns: idle_w, model, dims, origin, optimizer, then an LLM run's
/// prompt, generate, ttft_ms and tpot_ms).
const char* runsHeader();

/// The header of runs files written before the LLM columns (19 columns); still read (none of their runs is an
/// LLM's) and resumed in that layout for runs that are not.
const char* optimizerRunsHeader();

/// The header of runs files written before the optimizer column (18 columns); still read (their training runs
/// are Adam's, the only update profile ran then) and resumed in that layout for runs that are not of another
/// optimizer.
const char* originRunsHeader();

/// The header of runs files written before the origin column (17 columns); still read (who made their runs
/// is not known, so a tune takes them as earlier information, not as its own runs) and resumed in that
/// layout.
const char* dimsRunsHeader();

/// The header of runs files written before the dims column (16 columns); still read (their runs are of the
/// model's own dims) and resumed in that layout for runs without bound dims.
const char* modelRunsHeader();

/// The header of runs files written before the model column (15 columns); still read, and resumed in that
/// layout.
const char* idleRunsHeader();

/// The header of runs files written before idle_w (14 columns); still read, and resumed in that layout.
const char* legacyRunsHeader();

/// One row of a runs file: one run of one configuration.
struct RunRow {
    std::string mode;   ///< PowerMode::name: a stock name ("MAXN") or a custom mode's canonical name
    int cores = 0;      ///< online CPU cores of the mode
    int64_t cpuKhz = 0; ///< CPU clock of the mode, kHz
    int64_t gpuHz = 0;  ///< GPU clock of the mode, Hz
    int64_t emcHz = 0;  ///< EMC clock of the mode, Hz
    int64_t batch = 1;  ///< samples per inference batch
    Precision precision = Precision::FP32; ///< precision the model ran at
    Phase phase = Phase::Inference;        ///< an inference or a training step
    std::optional<double> latencyMs;       ///< empty for a failed run
    std::optional<double> p99Ms;    ///< 99th-percentile latency of one batch, ms; empty: the runner gave none
    std::optional<double> powerW;   ///< average power while running, W; empty when none was read
    std::optional<double> energyMj; ///< energy of one batch
    std::string status;             ///< "ok" or "failed: REASON"
    std::string runner;             ///< Runner::name() of what made the run ("sim:0", "command")
    std::optional<double> idleW;    ///< the mode's idle power measured by Rooftop (15- and 16-column files)
    std::string model; ///< runsModelKey of the model run ("resnet18.onnx@HASH"); empty: not recorded
    std::map<std::string, int64_t>
        dims;           ///< the symbolic dims bound (17-column files); empty: the model's own
    std::string origin; ///< what made the run: "profile", "plan", "tune:ID" (18-column files); empty: unknown
    Optimizer optimizer = Optimizer::Adam; ///< a training run's update (19-column files; Adam before them)
    LlmRun llm;                            ///< an LLM run's prompt and generation (23-column files)
    std::optional<double> ttftMs;          ///< an LLM run's time to first token
    std::optional<double> tpotMs;          ///< an LLM run's mean time per output token
    int line = 0;                          ///< 1-based line it was read from (0 when not read from a file)

    /// True when the run succeeded (status "ok").
    bool ok() const { return status == "ok"; }
};

/// The row for a run made by `origin` ("profile", "plan", "tune:ID"): power from energy / latency or energy
/// from power x latency where only one is known.
RunRow runRowFrom(const RunConfig& config, const RunResult& result, const std::string& runner,
                  const std::string& origin);

/// The row as one CSV line (no line break), fields quoted where needed, in the layout of `columns` fields (14
/// to 19 or 23: an older file's rows leave out the columns added after it).
std::string formatRunRow(const RunRow& row, size_t columns = 23);

/// How a runs file names the model of its runs: the file name and its modelFileHash ("m.onnx@0123abcd...").
std::string runsModelKey(const std::string& modelPath);

/// Throws InputError "PATH:LINE: a run of X, not of Y ..." for the first row that names another model (rows
/// of older files name none and pass).
void checkRunsAreOf(const std::vector<RunRow>& rows, const std::string& path, const std::string& modelKey);

/// Before a measurement appends runs of `modelKey` at `dims` (and `phase` with `optimizer`; LLM runs when
/// `llm`) to `path`: throws InputError for a malformed file, one with another model's runs, one written
/// before the dims column when `dims` are bound, one written before the optimizer column for training runs of
/// another than Adam, or one written before the LLM columns for LLM runs.
void checkRunsFileFor(const std::string& path, const std::string& modelKey,
                      const std::map<std::string, int64_t>& dims, Phase phase = Phase::Inference,
                      Optimizer optimizer = Optimizer::Adam, bool llm = false);

/// Before a measurement on `device` appends to `path`: throws InputError for a row whose mode is not one of
/// the board's, or whose power no run of it can read (a runs file holds the runs of one board: another
/// board's rows would make it unreadable for both). A missing or empty file passes.
void checkRunsAreOfBoard(const std::string& path, const DeviceSpec& device);

/// Where runs files go when none is given: the user's data folder (QStandardPaths::AppDataLocation,
/// $XDG_DATA_HOME/Rooftop/rooftop, by default ~/.local/share/Rooftop/rooftop), not the model's folder or the
/// working folder, which are often read-only.
std::string defaultRunsFolder();

/// The runs file a measurement of `modelPath` writes when none is given: "<model name>-runs.csv" in
/// defaultRunsFolder() (RunsFileWriter makes it when missing), for every command and the window.
std::string defaultRunsPath(const std::string& modelPath);

/// The rows of the workload at `dims`; the others are left out and, with `skipped`, counted per dims there
/// ("12 run(s) at sequence=64 left out (not sequence=128)").
std::vector<RunRow> runsOfWorkload(const std::vector<RunRow>& rows,
                                   const std::map<std::string, int64_t>& dims,
                                   std::vector<std::string>* skipped);

/// Reads a runs file; a missing or empty file has no rows. Throws InputError "PATH:LINE: ..." naming the
/// field for a wrong header, a line with the wrong number of fields, a bad quote or a bad value; a last line
/// cut short is left out, with a line in `notes` when given.
std::vector<RunRow> readRunsFile(const std::string& path, std::vector<std::string>* notes = nullptr);

/// Reads a runs file a command was given to learn or calibrate from: as readRunsFile, but a file that cannot
/// be opened is InputError "PATH: cannot open (REASON)" (to a sweep a missing file is a new one).
std::vector<RunRow> readGivenRunsFile(const std::string& path, std::vector<std::string>* notes = nullptr);

/// The key resume counts by: mode, batch, precision, phase, dims and, for a training step, the optimizer (an
/// LLM run's key adds its prompt and generation).
std::string runKey(const std::string& mode, int64_t batch, Precision precision, Phase phase,
                   const std::map<std::string, int64_t>& dims = {}, Optimizer optimizer = Optimizer::Adam,
                   const LlmRun& llm = {});
/// The key of a row's configuration.
std::string runKey(const RunRow& row);
/// The key of a run's configuration.
std::string runKey(const RunConfig& config);

/// How many ok runs each configuration (runKey) has.
std::map<std::string, int> okRunCounts(const std::vector<RunRow>& rows);

/// Line appender that RunsFileWriter writes through (core/measure/csv_append.h).
class CsvAppender;

/// Appends rows to a runs file, writing the header first when the file is new or empty; every row is
/// flushed as soon as it is written, so an interrupted sweep leaves whole lines. An older file gets rows in
/// its own layout (14 columns: no idle_w; 16: no dims), so a resumed old file stays one layout. Holds an
/// exclusive flock() on the file for its lifetime, so that two rooftops never append to one runs file at
/// once.
class RunsFileWriter {
public:
    /// Opens and locks for appending; throws InputError when it cannot, the file has another header, or
    /// another writer (this process's or another's) holds it: "PATH is being written by another rooftop
    /// (pid N); ...".
    explicit RunsFileWriter(const std::string& path);
    /// Closes the file, releasing its lock.
    ~RunsFileWriter();
    RunsFileWriter(const RunsFileWriter&) = delete;
    RunsFileWriter& operator=(const RunsFileWriter&) = delete;
    /// Writes and flushes one row; throws InputError when the write fails or the reader would refuse the row.
    void append(const RunRow& row);
    /// Throws InputError when the file is in an older layout (14 to 16 columns) and `dims` are bound, or (14
    /// to 18 columns) a training run is of another optimizer than Adam.
    void checkTakes(const std::map<std::string, int64_t>& dims, Phase phase = Phase::Inference,
                    Optimizer optimizer = Optimizer::Adam, bool llm = false) const;

private:
    std::string path_;
    std::unique_ptr<CsvAppender> out_;
    size_t columns_ = 23;
};

} // namespace rooftop
