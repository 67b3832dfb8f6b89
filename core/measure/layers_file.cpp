// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/layers_file.h"

#include "core/common/decimal_text.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/measure/csv_append.h"
#include "core/onnx/dim_text.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unistd.h>

namespace rooftop {

namespace {

const char* const header = "mode,batch,precision,phase,repeat,layer,average_ms,median_ms,percent,dims";
// files before the dims column: their runs are of the model's own dims
const char* const undimmedHeader = "mode,batch,precision,phase,repeat,layer,average_ms,median_ms,percent";
constexpr size_t fieldCount = 10;
constexpr size_t undimmedFieldCount = 9;

/// The fields of a layers file with this header; 0 for another header.
size_t fieldsOfHeader(const std::string& line) {
    return line == header ? fieldCount : line == undimmedHeader ? undimmedFieldCount : 0;
}

/// A non-negative finite number of the whole field, or nothing.
std::optional<double> nonNegative(const std::string& text) {
    const std::optional<double> value = readDecimal(text);
    if (!value || *value < 0) return std::nullopt;
    return value;
}

/// The row of a line's fields; the reason in *why when a field is bad.
std::optional<LayerRow> parseLayerRow(const std::vector<std::string>& f, std::string* why) {
    LayerRow row;
    row.mode = f[0];
    const std::optional<Precision> precision = parseRunPrecision(f[2]);
    const std::optional<Phase> phase = parsePhase(f[3]);
    row.layer.name = f[5];
    const auto batch = nonNegative(f[1]);
    const auto repeat = nonNegative(f[4]);
    const auto average = nonNegative(f[6]);
    const auto median = nonNegative(f[7]);
    const auto percent = nonNegative(f[8]);
    if (f.size() > undimmedFieldCount) {
        try {
            row.dims = parseNamedDimsText(f[9], "field 'dims'");
        } catch (const InputError& error) {
            *why = error.what();
            return std::nullopt;
        }
    }
    if (row.mode.empty() || row.layer.name.empty())
        *why = "an empty mode or layer";
    else if (!precision)
        *why = "field 'precision'";
    else if (!phase)
        *why = "field 'phase'";
    else if (!batch || *batch < 1 || *batch > 1e15 || *batch != std::floor(*batch))
        *why = "field 'batch'";
    else if (!repeat || *repeat < 1 || *repeat > 1e9 || *repeat != std::floor(*repeat))
        *why = "field 'repeat'";
    else if (!average)
        *why = "field 'average_ms'";
    else if (!median)
        *why = "field 'median_ms'";
    else if (!percent)
        *why = "field 'percent'";
    if (!why->empty()) return std::nullopt;
    row.precision = *precision;
    row.phase = *phase;
    row.batch = static_cast<int64_t>(*batch);
    row.repeat = static_cast<int>(*repeat);
    row.layer.averageMs = *average;
    row.layer.medianMs = *median;
    row.layer.percent = *percent;
    return row;
}

bool wholeRow(const std::string& line, size_t columns) {
    std::vector<std::string> fields;
    std::string why;
    return splitCsvLine(line, fields, &why) && fields.size() == columns && parseLayerRow(fields, &why);
}

} // namespace

std::string layersPathFor(const std::string& runsPath) {
    const std::string suffix = ".csv";
    const bool csv = runsPath.size() > suffix.size() &&
                     runsPath.compare(runsPath.size() - suffix.size(), suffix.size(), suffix) == 0;
    return (csv ? runsPath.substr(0, runsPath.size() - suffix.size()) : runsPath) + ".layers.csv";
}

const char* layersHeader() {
    return header;
}

bool isLayersHeader(const std::string& line) {
    return fieldsOfHeader(line) != 0;
}

std::vector<LayerRow> readLayersFile(const std::string& path) {
    std::vector<LayerRow> rows;
    readCsvRows(
        path, "a layers file",
        [](const std::string& where, const std::string& line) {
            const size_t columns = fieldsOfHeader(line);
            if (columns == 0)
                throw InputError(where + "not a layers file: expected the header " + std::string(header) +
                                 " (or the same without dims)");
            return columns;
        },
        [&](const std::string& where, const std::vector<std::string>& fields, int) {
            std::string why;
            std::optional<LayerRow> row = parseLayerRow(fields, &why);
            if (!row) throw InputError(where + "bad " + why);
            rows.push_back(std::move(*row));
        });
    return rows;
}

size_t dropLayerRowsWithoutRun(const std::string& path, const std::function<bool(const LayerRow&)>& keep) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return 0;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    std::string kept;
    size_t dropped = 0;
    size_t columns = 0;
    size_t start = 0;
    for (int number = 1; start < text.size(); ++number) {
        const size_t newline = text.find('\n', start);
        const bool unterminated = newline == std::string::npos;
        const size_t end = unterminated ? text.size() : newline + 1;
        std::string line = text.substr(start, end - start);
        start = end;
        std::string body = line;
        while (!body.empty() && (body.back() == '\n' || body.back() == '\r'))
            body.pop_back();
        if (number == 1) {
            columns = fieldsOfHeader(body);
            if (columns == 0) return 0; // not a layers file: the writer and the reader refuse it
            kept += line;
            continue;
        }
        std::vector<std::string> fields;
        std::string why;
        std::optional<LayerRow> row;
        if (splitCsvLine(body, fields, &why) && fields.size() == columns) row = parseLayerRow(fields, &why);
        if ((row && !keep(*row)) || (!row && unterminated)) {
            ++dropped;
            continue;
        }
        kept += line; // a malformed line in the middle stays for the reader to name
    }
    if (dropped == 0) return 0;
    const std::string temporary = path + ".tmp";
    std::FILE* out = std::fopen(temporary.c_str(), "wb");
    const bool written = out && std::fwrite(kept.data(), 1, kept.size(), out) == kept.size() &&
                         std::fflush(out) == 0 && ::fsync(::fileno(out)) == 0;
    const int error = errno;
    if (out) std::fclose(out);
    if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(written ? errno : error);
        std::remove(temporary.c_str());
        throw InputError(path + ": cannot drop the layer rows of runs the runs file does not have (" + why +
                         ")");
    }
    return dropped;
}

LayersFileWriter::LayersFileWriter(const std::string& path) {
    const std::string existing = firstLine(path);
    const size_t columns = existing.empty() ? fieldCount : fieldsOfHeader(existing);
    if (columns == 0) throw InputError(path + ": not a layers file, not appending to it");
    withDims_ = columns == fieldCount;
    out_ =
        std::make_unique<CsvAppender>(path, withDims_ ? header : undimmedHeader,
                                      [columns](const std::string& line) { return wholeRow(line, columns); });
}

LayersFileWriter::~LayersFileWriter() = default;

void LayersFileWriter::append(const RunConfig& config, int repeat, const std::vector<LayerTime>& layers) {
    std::ostringstream out;
    for (const LayerTime& layer : layers)
        out << csvField(config.mode.name) << ',' << config.batch << ',' << precisionName(config.precision)
            << ',' << phaseName(config.phase) << ',' << repeat << ',' << csvField(layer.name) << ','
            << general(layer.averageMs, 6) << ',' << general(layer.medianMs, 6) << ','
            << general(layer.percent, 6) << (withDims_ ? "," + csvField(namedDimsText(config.dims)) : "")
            << '\n';
    if (!withDims_ && !config.dims.empty())
        throw InputError("a layers file without a dims column cannot hold a run at " +
                         describeNamedDims(config.dims));
    if (!layers.empty()) out_->write(out.str());
}

} // namespace rooftop
