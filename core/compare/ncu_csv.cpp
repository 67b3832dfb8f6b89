// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/ncu_csv.h"

#include "core/common/csv_line.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"

#include <QByteArray>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <unordered_map>

namespace rooftop {

namespace {

const std::string tensorPrefix = "sm__ops_path_tensor_";
constexpr double maxValue = 1e30; // above any real count, and far from overflowing a sum of them

/// The metrics the comparison reads; every other column (strings included) is ignored.
bool wanted(const std::string& metric) {
    static const char* const names[] = {
        "gpu__time_duration.sum", "sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second",
        "dram__bytes.sum",        "dram__bytes_read.sum",   "dram__bytes_write.sum"};
    for (const char* name : names)
        if (metric == name) return true;
    if (startsWith(metric, "sm__sass_thread_inst_executed_op_") && endsWith(metric, "_pred_on.sum"))
        return true;
    return startsWith(metric, tensorPrefix) && endsWith(metric, ".sum");
}

struct Kernel {
    std::string name;
    size_t line = 0;
    std::unordered_map<std::string, double> values; ///< wanted metrics in base units
};

class CsvReader {
public:
    CsvReader(const std::string& text, const std::string& where)
        : text_(text), prefix_(where + ": Nsight Compute CSV: ") {
        if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) position_ = 3; // a UTF-8 byte order mark
    }

    [[noreturn]] void fail(size_t line, const std::string& what) const {
        throw InputError(prefix_ + (line > 0 ? "line " + std::to_string(line) + ": " : "") + what);
    }

    /// The next CSV record that is not a tool message (==PROF==, ==WARNING==) or blank; false at the end.
    bool next(std::vector<std::string>& fields, size_t& line) {
        while (position_ < text_.size()) {
            size_t end = text_.find('\n', position_);
            if (end == std::string::npos) end = text_.size();
            std::string row = text_.substr(position_, end - position_);
            position_ = end + 1;
            ++line_;
            if (!row.empty() && row.back() == '\r') row.pop_back();
            if (row.empty() || startsWith(row, "==")) continue;
            split(row, fields);
            line = line_;
            return true;
        }
        return false;
    }

private:
    void split(const std::string& row, std::vector<std::string>& fields) const {
        std::string why;
        if (!splitCsvLine(row, fields, &why)) fail(line_, why);
    }

    const std::string& text_;
    std::string prefix_;
    size_t position_ = 0;
    size_t line_ = 0;
};

const char* const countBases[] = {"cycle", "inst", "warp", "thread", "request", "sector"};

/// A unit without a ratio: an SI prefix and a base ("nsecond", "Mbyte", "Kinst"); hertz is cycle/second.
std::optional<NcuUnit> simpleUnit(const std::string& unit) {
    if (unit.empty()) return NcuUnit{"", 1.0}; // a plain count (tensor-path ops)
    static const std::pair<const char*, double> prefixes[] = {{"", 1.0},   {"n", 1e-9}, {"u", 1e-6},
                                                              {"m", 1e-3}, {"K", 1e3},  {"k", 1e3},
                                                              {"M", 1e6},  {"G", 1e9},  {"T", 1e12}};
    auto withBase = [&](const std::string& base, const std::string& as) -> std::optional<NcuUnit> {
        if (!endsWith(unit, base)) return std::nullopt;
        const std::string prefix = unit.substr(0, unit.size() - base.size());
        for (const auto& [p, scale] : prefixes)
            if (prefix == p) return NcuUnit{as, scale};
        return std::nullopt;
    };
    for (const char* base : {"second", "byte"})
        if (auto u = withBase(base, base)) return u;
    for (const char* base : countBases)
        if (auto u = withBase(base, base)) return u;
    for (const char* hertz : {"Hz", "hz"})
        if (auto u = withBase(hertz, "cycle/second")) return u;
    return std::nullopt;
}

/// What a wanted metric measures: the base its unit must have ("count": empty or a count base).
std::string dimensionOf(const std::string& metric) {
    if (metric == "gpu__time_duration.sum") return "second";
    if (metric == "sm__cycles_elapsed.avg.per_second") return "cycle/second";
    if (startsWith(metric, "dram__bytes")) return "byte";
    return "count";
}

std::optional<long long> wholeNumber(const std::string& text) {
    if (text.empty()) return std::nullopt;
    bool ok = false;
    const long long value = QByteArray::fromStdString(text).toLongLong(&ok);
    return ok && value >= 0 ? std::optional<long long>(value) : std::nullopt;
}

size_t column(const std::vector<std::string>& header, const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return i;
    return header.size();
}

} // namespace

std::optional<NcuUnit> parseNcuUnit(const std::string& unit) {
    const size_t slash = unit.find('/');
    if (slash == std::string::npos) return simpleUnit(unit);
    const auto top = simpleUnit(unit.substr(0, slash)), bottom = simpleUnit(unit.substr(slash + 1));
    if (!top || !bottom || top->base.empty() || bottom->base.empty() ||
        bottom->base.find('/') != std::string::npos)
        return std::nullopt;
    return NcuUnit{top->base + "/" + bottom->base, top->scale / bottom->scale};
}

std::optional<double> ncuUnitScale(const std::string& unit) {
    const auto parsed = parseNcuUnit(unit);
    return parsed ? std::optional<double>(parsed->scale) : std::nullopt;
}

MeasuredLayers parseNcuCsv(const std::string& text, const std::string& where) {
    CsvReader reader(text, where);
    std::vector<std::string> header;
    size_t headerLine = 0;
    do {
        if (!reader.next(header, headerLine)) reader.fail(0, "no header row starting with \"ID\"");
    } while (header.empty() || header[0] != "ID");
    const size_t kernelColumn = column(header, "Kernel Name");
    if (kernelColumn == header.size()) reader.fail(headerLine, "the header has no \"Kernel Name\" column");
    const size_t metricColumn = column(header, "Metric Name");
    const bool longForm = metricColumn < header.size();
    const size_t unitColumn = column(header, "Metric Unit");
    const size_t valueColumn = column(header, "Metric Value");
    if (longForm && (unitColumn == header.size() || valueColumn == header.size()))
        reader.fail(headerLine, "a \"Metric Name\" column without \"Metric Unit\" and \"Metric Value\"");

    std::map<long long, Kernel> kernels;
    std::vector<std::string> units(header.size());
    std::vector<std::string> fields;
    size_t line = 0;
    bool first = true;
    auto store = [&](Kernel& kernel, const std::string& metric, const std::string& raw,
                     const std::string& unit) {
        std::string digits;
        for (const char c : raw)
            if (c != ',' && c != ' ') digits += c;
        if (digits.empty() || digits == "n/a" || digits == "N/A") return;
        bool ok = false;
        const double value = QByteArray::fromStdString(digits).toDouble(&ok);
        if (!ok || !std::isfinite(value) || value < 0 || value > maxValue)
            reader.fail(line, "'" + metric + "' must be a number from 0 to 1e30, got '" + raw + "'");
        // a unit read wrong is an error of up to 1e9 (nsecond as second): refuse what is not known
        const auto parsed = parseNcuUnit(unit);
        if (!parsed)
            reader.fail(line,
                        "'" + metric + "' has the unit '" + unit +
                            "', which Rooftop does not know (it reads nsecond, usecond, msecond, second, "
                            "byte, Kbyte, ..., inst, cycle, cycle/nsecond, GHz)");
        const std::string dimension = dimensionOf(metric);
        const bool count = dimension == "count" &&
                           (parsed->base.empty() || std::find(std::begin(countBases), std::end(countBases),
                                                              parsed->base) != std::end(countBases));
        if (!count && parsed->base != dimension)
            reader.fail(
                line,
                "'" + metric + "' in '" + unit + "': expected a unit of " +
                    (dimension == "count" ? std::string("a count") : dimension) +
                    (unit.empty() ? " (no unit given: a --page raw export without its units row?)" : ""));
        kernel.values[metric] = value * parsed->scale;
    };
    while (reader.next(fields, line)) {
        if (fields.size() != header.size())
            reader.fail(line, std::to_string(fields.size()) + " fields, the header has " +
                                  std::to_string(header.size()));
        if (first && !longForm && fields[0].empty()) { // --page raw: the units row
            units = fields;
            first = false;
            continue;
        }
        first = false;
        const std::optional<long long> id = wholeNumber(fields[0]);
        if (!id) reader.fail(line, "'ID' must be a whole number, got '" + fields[0] + "'");
        Kernel& kernel = kernels[*id];
        if (kernel.line == 0) {
            kernel.line = line;
            kernel.name = fields[kernelColumn];
            if (kernel.name.empty()) reader.fail(line, "empty 'Kernel Name'");
        }
        if (longForm) {
            if (wanted(fields[metricColumn]))
                store(kernel, fields[metricColumn], fields[valueColumn], fields[unitColumn]);
        } else {
            for (size_t i = 0; i < header.size(); ++i)
                if (wanted(header[i])) store(kernel, header[i], fields[i], units[i]);
        }
    }
    if (kernels.empty()) reader.fail(0, "no kernel rows after the header");

    MeasuredLayers result;
    result.source = "ncu";
    for (const auto& entry : kernels) {
        const long long id = entry.first;
        const Kernel& kernel = entry.second; // a plain reference: a lambda below uses it
        auto value = [&](const std::string& metric) -> std::optional<double> {
            const auto found = kernel.values.find(metric);
            return found == kernel.values.end() ? std::nullopt : std::optional<double>(found->second);
        };
        MeasuredLayer layer;
        layer.name = kernel.name;
        const std::string at = "kernel ID " + std::to_string(id) + ": ";
        if (const auto seconds = value("gpu__time_duration.sum")) {
            layer.ms = *seconds * 1e3;
        } else {
            const auto cycles = value("sm__cycles_elapsed.avg");
            const auto rate = value("sm__cycles_elapsed.avg.per_second");
            if (!cycles || !rate || *rate <= 0)
                reader.fail(kernel.line,
                            at + "no time: neither gpu__time_duration.sum nor sm__cycles_elapsed.avg "
                                 "with sm__cycles_elapsed.avg.per_second");
            layer.ms = *cycles / *rate * 1e3;
        }
        if (!std::isfinite(layer.ms) || layer.ms > 86400e3)
            reader.fail(kernel.line, at + "a time over a day per launch");
        bool anyFlops = false;
        double flops = 0.0;
        for (const char* precision : {"d", "f", "h"})
            for (const auto& [op, weight] :
                 {std::pair<const char*, double>{"fma", 2.0}, {"mul", 1.0}, {"add", 1.0}})
                if (const auto count = value(std::string("sm__sass_thread_inst_executed_op_") + precision +
                                             op + "_pred_on.sum")) {
                    flops += weight * *count;
                    anyFlops = true;
                }
        double dense = 0.0, sparsity = 0.0;
        bool anyDense = false;
        for (const auto& [metric, count] : kernel.values) {
            if (!startsWith(metric, tensorPrefix)) continue;
            if (metric.find("_sparsity_") == std::string::npos) {
                dense += count;
                anyDense = true;
            } else {
                sparsity += count;
            }
            anyFlops = true;
        }
        flops += anyDense ? dense : sparsity;
        if (anyFlops) layer.flops = flops;
        if (const auto bytes = value("dram__bytes.sum")) {
            layer.dramBytes = *bytes;
        } else {
            const auto read = value("dram__bytes_read.sum");
            const auto write = value("dram__bytes_write.sum");
            if (read || write) layer.dramBytes = read.value_or(0.0) + write.value_or(0.0);
        }
        result.layers.push_back(std::move(layer));
    }
    return result;
}

} // namespace rooftop
