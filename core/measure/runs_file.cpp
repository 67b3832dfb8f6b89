// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/runs_file.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/onnx/dim_binding.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace rooftop {

namespace {

const char* const header = "mode,cores,cpu_khz,gpu_hz,emc_hz,batch,precision,phase,latency_ms,p99_ms,power_w,"
                           "energy_mj,status,runner";
constexpr size_t fieldCount = 14;

std::string number(const std::optional<double>& value) {
    return value ? general(*value, 6) : std::string();
}

std::string shown(const std::string& text) {
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

/// Splits one line into fields (RFC 4180 quotes, "" inside a quoted field); false with *why on a bad quote.
bool splitFields(const std::string& line, std::vector<std::string>& fields, std::string* why) {
    fields.clear();
    std::string field;
    size_t i = 0;
    while (true) {
        field.clear();
        if (i < line.size() && line[i] == '"') {
            ++i;
            while (true) {
                if (i >= line.size()) {
                    *why = "field " + std::to_string(fields.size() + 1) + ": unterminated quote";
                    return false;
                }
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (i < line.size() && line[i] != ',') {
                *why = "field " + std::to_string(fields.size() + 1) + ": text after a closing quote";
                return false;
            }
        } else {
            while (i < line.size() && line[i] != ',') {
                if (line[i] == '"') {
                    *why =
                        "field " + std::to_string(fields.size() + 1) + ": a quote inside an unquoted field";
                    return false;
                }
                field += line[i++];
            }
        }
        fields.push_back(field);
        if (i >= line.size()) return true;
        ++i; // the comma
    }
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
        errno = 0;
        char* end = nullptr;
        const double value = std::strtod(s.c_str(), &end);
        if (*end != '\0' || errno == ERANGE || !std::isfinite(value) || value <= 0 ||
            s.find_first_of(" \t") != std::string::npos)
            fail(name, "a positive finite number or nothing", s);
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
    row.precision = f[6];
    const auto& precisions = runPrecisions();
    if (std::find(precisions.begin(), precisions.end(), row.precision) == precisions.end())
        p.fail("precision", "fp32, fp16 or int8", row.precision);
    row.phase = f[7];
    if (!isRunPhase(row.phase)) p.fail("phase", "inference or training", row.phase);
    row.latencyMs = p.positive(8, "latency_ms");
    row.p99Ms = p.positive(9, "p99_ms");
    row.powerW = p.positive(10, "power_w");
    row.energyMj = p.positive(11, "energy_mj");
    row.status = f[12];
    if (row.status != "ok" && row.status.rfind("failed", 0) != 0)
        p.fail("status", "ok or failed: REASON", row.status);
    row.runner = p.text(13, "runner");
    if (row.ok()) {
        if (!row.latencyMs) p.fail("latency_ms", "a positive number for an ok run", "");
        if (row.p99Ms && *row.p99Ms < *row.latencyMs) p.fail("field 'p99_ms': below latency_ms");
    }
    return row;
}

} // namespace

const char* runsHeader() {
    return header;
}

RunRow runRowFrom(const RunConfig& config, const RunResult& result, const std::string& runner) {
    RunRow row;
    row.mode = config.mode.name;
    row.cores = config.mode.onlineCores;
    row.cpuKhz = config.mode.cpuKhz;
    row.gpuHz = config.mode.gpuHz;
    row.emcHz = config.mode.emcHz;
    row.batch = config.batch;
    row.precision = config.precision;
    row.phase = config.phase;
    row.runner = runner;
    if (!result.ok) {
        std::string reason = result.failure.empty() ? "unknown" : result.failure;
        std::replace(reason.begin(), reason.end(), '\n', ' ');
        std::replace(reason.begin(), reason.end(), '\r', ' ');
        row.status = "failed: " + reason;
        return row;
    }
    row.status = "ok";
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
    return row;
}

std::string formatRunRow(const RunRow& row) {
    std::ostringstream out;
    out << csvField(row.mode) << ',' << row.cores << ',' << row.cpuKhz << ',' << row.gpuHz << ',' << row.emcHz
        << ',' << row.batch << ',' << csvField(row.precision) << ',' << csvField(row.phase) << ','
        << number(row.latencyMs) << ',' << number(row.p99Ms) << ',' << number(row.powerW) << ','
        << number(row.energyMj) << ',' << csvField(row.status) << ',' << csvField(row.runner);
    return out.str();
}

std::vector<RunRow> readRunsFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<RunRow> rows;
    if (!in) return rows;
    std::string line;
    int number = 0;
    bool sawHeader = false;
    std::vector<std::string> fields;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::string where = path + ":" + std::to_string(number) + ": ";
        if (!sawHeader) {
            if (line != header)
                throw InputError(where + "not a runs file: expected the header " + std::string(header));
            sawHeader = true;
            continue;
        }
        if (line.empty()) continue;
        // a last line without its newline is a row whose write was cut short (a kill, a full disk): when it
        // does not parse it is dropped, and the run is done again, rather than making the file unusable
        const bool unterminated = in.eof();
        try {
            std::string why;
            if (!splitFields(line, fields, &why)) throw InputError(where + why);
            if (fields.size() != fieldCount)
                throw InputError(where + "expected " + std::to_string(fieldCount) + " fields, got " +
                                 std::to_string(fields.size()) + " (a truncated line?)");
            RunRow row = parseRow(where, fields);
            row.line = number;
            rows.push_back(std::move(row));
        } catch (const InputError&) {
            if (!unterminated) throw;
        }
    }
    return rows;
}

namespace {

// A last row without its newline was cut short (a kill, a full disk) or written by hand. One that parses is
// ended with its newline; one that does not is cut off, so the next row starts on a line of its own and the
// reader never meets a broken row in the middle of the file.
void endLastRow(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    if (text.empty() || text.back() == '\n') return;
    const size_t newline = text.rfind('\n');
    const size_t keep = newline == std::string::npos ? 0 : newline + 1;
    std::string tail = text.substr(keep);
    if (!tail.empty() && tail.back() == '\r') tail.pop_back();
    bool whole = keep > 0; // a header alone is not a row
    std::vector<std::string> fields;
    std::string why;
    try {
        whole = whole && splitFields(tail, fields, &why) && fields.size() == fieldCount;
        if (whole) parseRow(path + ": ", fields);
    } catch (const InputError&) {
        whole = false;
    }
    if (whole) {
        std::ofstream(path, std::ios::binary | std::ios::app) << '\n';
        return;
    }
    std::error_code error;
    std::filesystem::resize_file(path, keep, error);
    if (error) throw InputError(path + ": cannot drop its unfinished last row (" + error.message() + ")");
}

} // namespace

std::string runKey(const std::string& mode, int64_t batch, const std::string& precision,
                   const std::string& phase) {
    return mode + "\n" + std::to_string(batch) + "\n" + precision + "\n" + phase;
}

std::map<std::string, int> okRunCounts(const std::vector<RunRow>& rows) {
    std::map<std::string, int> counts;
    for (const RunRow& row : rows)
        if (row.ok()) ++counts[runKey(row.mode, row.batch, row.precision, row.phase)];
    return counts;
}

RunsFileWriter::RunsFileWriter(const std::string& path) : path_(path) {
    endLastRow(path);
    file_ = std::fopen(path.c_str(), "ab");
    if (!file_) throw InputError(path + ": cannot open for appending (" + std::strerror(errno) + ")");
    std::fseek(file_, 0, SEEK_END);
    if (std::ftell(file_) == 0) write(header);
}

RunsFileWriter::~RunsFileWriter() {
    if (file_) std::fclose(file_);
}

void RunsFileWriter::append(const RunRow& row) {
    write(formatRunRow(row));
}

void RunsFileWriter::write(const std::string& line) {
    const std::string text = line + "\n";
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0)
        throw InputError(path_ + ": cannot write (" + std::strerror(errno) + ")");
}

} // namespace rooftop
