// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/runs_file.h"

#include "core/common/decimal_text.h"
#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/common/text_format.h"
#include "core/device/power_mode.h"
#include "core/device/power_plausibility.h"
#include "core/learn/predictor_file.h"
#include "core/measure/csv_append.h"
#include "core/onnx/dim_binding.h"
#include "core/onnx/dim_text.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rooftop {

namespace {

// Every layout is a prefix of the newest: a column was only ever added at the end.
const char* const columnNames[] = {"mode",      "cores",  "cpu_khz",    "gpu_hz",  "emc_hz",  "batch",
                                   "precision", "phase",  "latency_ms", "p99_ms",  "power_w", "energy_mj",
                                   "status",    "runner", "idle_w",     "model",   "dims",    "origin",
                                   "optimizer", "prompt", "generate",   "ttft_ms", "tpot_ms"};
constexpr size_t legacyFieldCount = 14;
constexpr size_t idleFieldCount = 15;
constexpr size_t modelFieldCount = 16;
constexpr size_t dimsFieldCount = 17;
constexpr size_t originFieldCount = 18;
constexpr size_t optimizerFieldCount = 19;
constexpr size_t fieldCount = 23;

/// The header line of the layout of `columns` fields (14 to 19, or 23).
const std::string& headerOf(size_t columns) {
    static const std::vector<std::string> headers = [] {
        std::vector<std::string> all(fieldCount + 1);
        std::string line;
        for (size_t i = 0; i < fieldCount; ++i) {
            line += (i ? "," : "") + std::string(columnNames[i]);
            all[i + 1] = line;
        }
        return all;
    }();
    return headers[columns];
}

/// The number of fields of a runs file with this header, 0 for another header.
size_t fieldsOfHeader(const std::string& line) {
    for (size_t columns = legacyFieldCount; columns <= optimizerFieldCount; ++columns)
        if (line == headerOf(columns)) return columns;
    return line == headerOf(fieldCount) ? fieldCount : 0; // the LLM columns came as one
}

std::string number(const std::optional<double>& value) {
    return value ? general(*value, 6) : std::string();
}

std::string shown(const std::string& text) {
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

class RowParser {
public:
    RowParser(std::string where, const std::vector<std::string>& fields)
        : where_(std::move(where)), f_(fields) {}

    std::string text(size_t index, const char* name) const {
        if (f_[index].empty()) fail(name, "a value", f_[index]);
        return f_[index];
    }
    int64_t integer(size_t index, const char* name, int64_t minimum, int64_t maximum) const {
        const std::string& s = f_[index];
        errno = 0;
        char* end = nullptr;
        const long long value = s.empty() ? 0 : std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || *end != '\0' || errno == ERANGE || value < minimum || value > maximum ||
            s.find_first_of(" \t") != std::string::npos)
            fail(name,
                 ("an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum)).c_str(),
                 s);
        return value;
    }
    std::optional<double> positive(size_t index, const char* name) const {
        const std::string& s = f_[index];
        if (s.empty()) return std::nullopt;
        const std::optional<double> value = readDecimal(s);
        if (!value || !(*value > 0)) fail(name, "a positive finite number or nothing", s);
        return value;
    }
    /// A time in ms: positive, and at most a day (no run a board measures is longer; 1e300 ms would make
    /// every fit to it meaningless).
    std::optional<double> milliseconds(size_t index, const char* name) const {
        const std::optional<double> value = positive(index, name);
        if (value && *value > 86400e3)
            fail(name, "a time of at most a day (86400000 ms) or nothing", f_[index]);
        return value;
    }
    [[noreturn]] void fail(const char* name, const char* expected, const std::string& got) const {
        throw InputError(where_ + "field '" + name + "': expected " + expected + ", got '" + shown(got) +
                         "'");
    }
    [[noreturn]] void fail(const std::string& message) const { throw InputError(where_ + message); }

private:
    std::string where_;
    const std::vector<std::string>& f_;
};

RunRow parseRow(const std::string& where, const std::vector<std::string>& f) {
    const RowParser p(where, f);
    RunRow row;
    row.mode = p.text(0, "mode");
    row.cores = static_cast<int>(p.integer(1, "cores", 0, 4096));
    row.cpuKhz = p.integer(2, "cpu_khz", 0, 1000000000LL);
    row.gpuHz = p.integer(3, "gpu_hz", 0, 1000000000000LL);
    row.emcHz = p.integer(4, "emc_hz", 0, 1000000000000LL);
    row.batch = p.integer(5, "batch", 1, DimBindings::maxDimValue); // what --batch accepts
    const std::optional<Precision> precision = parseRunPrecision(f[6]);
    if (!precision) p.fail("precision", runPrecisionChoices().c_str(), f[6]);
    row.precision = *precision;
    const std::optional<Phase> phase = parsePhase(f[7]);
    if (!phase) p.fail("phase", "inference or training", f[7]);
    row.phase = *phase;
    row.latencyMs = p.milliseconds(8, "latency_ms");
    row.p99Ms = p.milliseconds(9, "p99_ms");
    row.powerW = p.positive(10, "power_w");
    row.energyMj = p.positive(11, "energy_mj");
    row.status = f[12];
    if (row.status != "ok" && row.status.rfind("failed", 0) != 0)
        p.fail("status", "ok or failed: REASON", row.status);
    row.runner = p.text(13, "runner");
    if (f.size() > legacyFieldCount) row.idleW = p.positive(14, "idle_w");
    if (f.size() > idleFieldCount) row.model = f[15];
    if (f.size() > modelFieldCount) row.dims = parseNamedDimsText(f[16], where + "field 'dims'");
    if (f.size() > dimsFieldCount) row.origin = f[17];
    if (f.size() > originFieldCount && !f[18].empty()) {
        const std::optional<Optimizer> optimizer = parseOptimizer(f[18]);
        if (!optimizer) p.fail("optimizer", "sgd, momentum, adam or nothing", f[18]);
        if (row.phase != Phase::Training) p.fail("field 'optimizer': set on an inference run");
        row.optimizer = *optimizer;
    }
    if (f.size() > optimizerFieldCount &&
        !(f[19].empty() && f[20].empty() && f[21].empty() && f[22].empty())) {
        row.llm.prompt = p.integer(19, "prompt", 1, 1000000000LL);
        row.llm.generate = p.integer(20, "generate", 1, 1000000000LL);
        if (row.phase != Phase::Inference) p.fail("field 'prompt': set on a training run");
        row.ttftMs = p.milliseconds(21, "ttft_ms");
        row.tpotMs = p.milliseconds(22, "tpot_ms");
        if (row.ok() && !row.ttftMs)
            p.fail("ttft_ms", "a positive number with tpot_ms for an ok LLM run", f[21]);
        if (row.ok() && !row.tpotMs) // the empty field is named, not its neighbour
            p.fail("tpot_ms", "a positive number with ttft_ms for an ok LLM run", f[22]);
    }
    if (row.ok()) {
        if (!row.latencyMs) p.fail("latency_ms", "a positive number for an ok run", "");
        if (row.p99Ms && *row.p99Ms < *row.latencyMs) p.fail("field 'p99_ms': below latency_ms");
    }
    return row;
}

} // namespace

const char* runsHeader() {
    return headerOf(fieldCount).c_str();
}

const char* optimizerRunsHeader() {
    return headerOf(optimizerFieldCount).c_str();
}

const char* originRunsHeader() {
    return headerOf(originFieldCount).c_str();
}

const char* dimsRunsHeader() {
    return headerOf(dimsFieldCount).c_str();
}

const char* modelRunsHeader() {
    return headerOf(modelFieldCount).c_str();
}

const char* idleRunsHeader() {
    return headerOf(idleFieldCount).c_str();
}

const char* legacyRunsHeader() {
    return headerOf(legacyFieldCount).c_str();
}

std::string runsModelKey(const std::string& modelPath) {
    return modelFileKey(modelPath);
}

void checkRunsAreOf(const std::vector<RunRow>& rows, const std::string& path, const std::string& modelKey) {
    for (const RunRow& row : rows)
        if (!row.model.empty() && row.model != modelKey)
            throw InputError(path + ":" + std::to_string(row.line) + ": a run of " + row.model + ", not of " +
                             modelKey + " (a runs file holds the runs of one model; use another file)");
}

namespace {

/// Refuses runs at bound `dims` for a file of `columns` (an older layout has no dims column), and training
/// runs of another optimizer than Adam for a file without the optimizer column (its training runs are Adam's,
/// the only update profile ran before the column).
void checkLayoutTakes(const std::string& path, size_t columns, const std::map<std::string, int64_t>& dims,
                      Phase phase = Phase::Inference, Optimizer optimizer = Optimizer::Adam,
                      bool llm = false) {
    if (llm && columns < fieldCount)
        throw InputError(path +
                         ": written before runs recorded an LLM's prompt and generation; write the LLM runs "
                         "to another file");
    if (!dims.empty() && columns < dimsFieldCount)
        throw InputError(path +
                         ": written before runs recorded their dims, so its runs are of the model's own "
                         "dims; write the runs at " +
                         describeNamedDims(dims) + " to another file");
    if (phase == Phase::Training && optimizer != Optimizer::Adam && columns < optimizerFieldCount)
        throw InputError(path +
                         ": written before runs recorded their optimizer, so its training runs are "
                         "adam's; write the " +
                         optimizerName(optimizer) + " runs to another file");
}

} // namespace

void checkRunsFileFor(const std::string& path, const std::string& modelKey,
                      const std::map<std::string, int64_t>& dims, Phase phase, Optimizer optimizer,
                      bool llm) {
    checkRunsAreOf(readRunsFile(path), path, modelKey);
    const std::string existing = firstLine(path);
    if (!existing.empty()) checkLayoutTakes(path, fieldsOfHeader(existing), dims, phase, optimizer, llm);
}

void checkRunsAreOfBoard(const std::string& path, const DeviceSpec& device) {
    if (!QFileInfo(QString::fromStdString(path)).isFile()) return;
    for (const RunRow& row : readRunsFile(path)) {
        std::string why;
        try {
            const PowerMode mode = resolvePowerMode(device, row.mode);
            // a stock mode of another board's name has that board's clocks; a hand-edited row may contradict
            // its name (all zero: the name alone, written by hand)
            const bool recorded = row.cores != 0 || row.cpuKhz != 0 || row.gpuHz != 0 || row.emcHz != 0;
            if (recorded && (row.cores != mode.onlineCores || row.cpuKhz != mode.cpuKhz ||
                             row.gpuHz != mode.gpuHz || row.emcHz != mode.emcHz))
                why = "it was run at " + customModeName(row.cores, row.cpuKhz, row.gpuHz, row.emcHz) +
                      ", but " + mode.name + " of " + device.id + " is " +
                      customModeName(mode.onlineCores, mode.cpuKhz, mode.gpuHz, mode.emcHz);
        } catch (const InputError& error) {
            why = error.what();
        }
        if (why.empty() && row.ok() && row.powerW) // as learn and calibrate refuse it
            why = implausiblePower(device, *row.powerW);
        if (!why.empty())
            throw InputError(path + ":" + std::to_string(row.line) + ": not a run of " + device.id + " (" +
                             why + "); a runs file holds the runs of one board: use another file");
    }
}

std::string defaultRunsFolder() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return folder.isEmpty() ? std::string(".") : folder.toStdString();
}

std::string defaultRunsPath(const std::string& modelPath) {
    const size_t slash = modelPath.find_last_of("/\\");
    std::string name = slash == std::string::npos ? modelPath : modelPath.substr(slash + 1);
    const size_t dot = name.rfind('.');
    if (dot != std::string::npos && dot > 0) name.erase(dot);
    return defaultRunsFolder() + "/" + name + "-runs.csv";
}

std::vector<RunRow> runsOfWorkload(const std::vector<RunRow>& rows,
                                   const std::map<std::string, int64_t>& dims,
                                   std::vector<std::string>* skipped) {
    std::vector<RunRow> kept;
    std::map<std::string, size_t> others;
    for (const RunRow& row : rows) {
        if (row.dims == dims)
            kept.push_back(row);
        else
            ++others[describeNamedDims(row.dims)];
    }
    if (skipped)
        for (const auto& [what, count] : others)
            skipped->push_back(std::to_string(count) + " run(s) at " + what + " left out (not " +
                               describeNamedDims(dims) + ")");
    return kept;
}

RunRow runRowFrom(const RunConfig& config, const RunResult& result, const std::string& runner,
                  const std::string& origin) {
    RunRow row;
    row.mode = config.mode.name;
    row.cores = config.mode.onlineCores;
    row.cpuKhz = config.mode.cpuKhz;
    row.gpuHz = config.mode.gpuHz;
    row.emcHz = config.mode.emcHz;
    row.batch = config.batch;
    row.precision = config.precision;
    row.phase = config.phase;
    row.dims = config.dims;
    row.optimizer = config.phase == Phase::Training ? config.optimizer : Optimizer::Adam;
    row.runner = runner;
    row.origin = origin;
    row.llm = config.llm;
    if (!result.ok) {
        std::string reason = result.failure.empty() ? "unknown" : result.failure;
        std::replace(reason.begin(), reason.end(), '\n', ' ');
        std::replace(reason.begin(), reason.end(), '\r', ' ');
        row.status = "failed: " + reason;
        return row;
    }
    if (config.llm.active() && !result.llm) { // an ok row of a generation needs both of its times
        row.status = "failed: the runner reported no ttft_ms and tpot_ms for an LLM generation";
        return row;
    }
    if (!(result.latencyMs > 0) || result.latencyMs > 86400e3) { // what the reader takes: up to a day
        row.status =
            "failed: the runner reported an implausible latency (" + general(result.latencyMs, 6) + " ms)";
        return row;
    }
    row.status = "ok";
    if (result.llm) {
        row.ttftMs = result.llm->ttftMs;
        row.tpotMs = result.llm->tpotMs;
    }
    row.latencyMs = result.latencyMs;
    row.p99Ms = result.p99Ms;
    const double seconds = result.latencyMs * 1e-3;
    if (result.energyJ) {
        row.energyMj = *result.energyJ * 1e3;
        row.powerW = result.powerW ? *result.powerW : *result.energyJ / seconds;
    } else if (result.powerW) {
        row.powerW = result.powerW;
        row.energyMj = *result.powerW * seconds * 1e3;
    }
    // a meter's zero or non-number is no power reading: the run keeps its time, the row stays readable
    const auto reading = [](const std::optional<double>& v) { return v && *v > 0 && std::isfinite(*v); };
    if (!reading(row.powerW) || !reading(row.energyMj)) {
        row.powerW.reset();
        row.energyMj.reset();
    }
    if (row.p99Ms && !(*row.p99Ms >= result.latencyMs && *row.p99Ms <= 86400e3)) row.p99Ms.reset();
    return row;
}

std::string formatRunRow(const RunRow& row, size_t columns) {
    std::ostringstream out;
    out << csvField(row.mode) << ',' << row.cores << ',' << row.cpuKhz << ',' << row.gpuHz << ',' << row.emcHz
        << ',' << row.batch << ',' << precisionName(row.precision) << ',' << phaseName(row.phase) << ','
        << number(row.latencyMs) << ',' << number(row.p99Ms) << ',' << number(row.powerW) << ','
        << number(row.energyMj) << ',' << csvField(row.status) << ',' << csvField(row.runner);
    if (columns > legacyFieldCount) out << ',' << number(row.idleW);
    if (columns > idleFieldCount) out << ',' << csvField(row.model);
    if (columns > modelFieldCount) out << ',' << csvField(namedDimsText(row.dims));
    if (columns > dimsFieldCount) out << ',' << csvField(row.origin);
    if (columns > originFieldCount)
        out << ',' << (row.phase == Phase::Training ? optimizerName(row.optimizer) : std::string());
    if (columns > optimizerFieldCount) {
        if (row.llm.active())
            out << ',' << row.llm.prompt << ',' << row.llm.generate << ',' << number(row.ttftMs) << ','
                << number(row.tpotMs);
        else
            out << ",,,,";
    }
    return out.str();
}

std::vector<RunRow> readRunsFile(const std::string& path, std::vector<std::string>* notes) {
    std::vector<RunRow> rows;
    readCsvRows(
        path, "a runs file",
        [](const std::string& where, const std::string& line) {
            const size_t columns = fieldsOfHeader(line);
            if (columns == 0)
                throw InputError(where + "not a runs file: expected the header " + headerOf(fieldCount) +
                                 " (or an older one: the same without its last four columns, then without "
                                 "one to five more)");
            return columns;
        },
        [&](const std::string& where, const std::vector<std::string>& fields, int line) {
            RunRow row = parseRow(where, fields);
            row.line = line;
            rows.push_back(std::move(row));
        },
        [&](const std::string& where, const std::string& why) {
            if (notes) notes->push_back(cutShortLineNote(where, why));
        });
    return rows;
}

std::vector<RunRow> readGivenRunsFile(const std::string& path, std::vector<std::string>* notes) {
    refuseIrregularFile(path, "a runs file");
    if (std::ifstream file(path, std::ios::binary); !file)
        throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    return readRunsFile(path, notes);
}

std::string runKey(const std::string& mode, int64_t batch, Precision precision, Phase phase,
                   const std::map<std::string, int64_t>& dims, Optimizer optimizer, const LlmRun& llm) {
    std::string key = mode + "\n" + std::to_string(batch) + "\n" + precisionName(precision) + "\n" +
                      phaseName(phase) + "\n" + namedDimsText(dims);
    if (phase == Phase::Training) key += "\n" + optimizerName(optimizer);
    // an LLM run's generation apart from the same configuration's inference runs
    if (llm.active()) key += "\nllm " + std::to_string(llm.prompt) + "+" + std::to_string(llm.generate);
    return key;
}

std::string runKey(const RunRow& row) {
    return runKey(row.mode, row.batch, row.precision, row.phase, row.dims, row.optimizer, row.llm);
}

std::string runKey(const RunConfig& config) {
    return runKey(config.mode.name, config.batch, config.precision, config.phase, config.dims,
                  config.optimizer, config.llm);
}

std::map<std::string, int> okRunCounts(const std::vector<RunRow>& rows) {
    std::map<std::string, int> counts;
    for (const RunRow& row : rows)
        if (row.ok()) ++counts[runKey(row)];
    return counts;
}

RunsFileWriter::RunsFileWriter(const std::string& path) : path_(path) {
    // the first run on this account writes into a data folder that does not exist yet; a folder the user
    // named is theirs to create
    const QString folder = QFileInfo(QString::fromStdString(path)).absolutePath();
    if (folder == QDir(QString::fromStdString(defaultRunsFolder())).absolutePath()) QDir().mkpath(folder);
    const std::string existing = firstLine(path);
    const size_t columns = existing.empty() ? fieldCount : fieldsOfHeader(existing);
    if (columns == 0) throw InputError(path + ": not a runs file, not appending to it");
    columns_ = columns;
    const auto whole = [&](const std::string& line) {
        std::vector<std::string> fields;
        std::string why;
        if (!splitCsvLine(line, fields, &why) || fields.size() != columns) return false;
        try {
            parseRow(path + ": ", fields);
            return true;
        } catch (const InputError&) {
            return false;
        }
    };
    out_ = std::make_unique<CsvAppender>(path, headerOf(columns), whole, true);
}

RunsFileWriter::~RunsFileWriter() = default;

void RunsFileWriter::checkTakes(const std::map<std::string, int64_t>& dims, Phase phase, Optimizer optimizer,
                                bool llm) const {
    checkLayoutTakes(path_, columns_, dims, phase, optimizer, llm);
}

void RunsFileWriter::append(const RunRow& row) {
    checkTakes(row.dims, row.phase, row.optimizer, row.llm.active());
    const std::string line = formatRunRow(row, columns_);
    // a row the reader would refuse is refused here: once written, it would make the whole file unreadable
    std::vector<std::string> fields;
    std::string why;
    if (!splitCsvLine(line, fields, &why) || fields.size() != columns_)
        throw InputError(
            path_ + ": not appending a malformed row (" +
            (why.empty() ? std::to_string(fields.size()) + " fields of " + std::to_string(columns_) : why) +
            ")");
    parseRow(path_ + ": not appending a row its reader would refuse: ", fields);
    out_->write(line + "\n");
}

} // namespace rooftop
