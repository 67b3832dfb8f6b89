// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/run_config.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rooftop {

/// Line appender that LayersFileWriter writes through (core/measure/csv_append.h).
class CsvAppender;

/// The per-layer sidecar of a runs file: "<runs path without .csv>.layers.csv".
std::string layersPathFor(const std::string& runsPath);

/// The header line of a layers file.
const char* layersHeader();

/// True for the header of a layers file, this one or the one before the dims column.
bool isLayersHeader(const std::string& line);

/// One row of a layers file: one layer of one run.
struct LayerRow {
    std::string mode;                      ///< PowerMode::name of the run
    int64_t batch = 1;                     ///< samples per inference batch
    Precision precision = Precision::FP32; ///< precision the model ran at
    Phase phase = Phase::Inference;        ///< an inference or a training step
    int repeat = 1;                        ///< which ok run of the configuration in the runs file (1-based)
    LayerTime layer;                       ///< the layer's name and times
    std::map<std::string, int64_t> dims;   ///< the run's bound dims (10-column files); empty: the model's own
};

/// Reads a layers file; a missing or empty file has no rows. Throws InputError "PATH:LINE: ..." for another
/// header, a wrong number of fields, a bad quote or a bad value.
std::vector<LayerRow> readLayersFile(const std::string& path);

/// Drops the rows of a layers file that `keep` rejects (layer rows of runs the runs file does not have),
/// and a last row cut short; rewrites the file (temporary file + rename) only when it drops something. Other
/// lines stay as they are. Returns how many rows it dropped; a missing file or another header drops none.
/// Throws InputError when the rewrite fails.
size_t dropLayerRowsWithoutRun(const std::string& path, const std::function<bool(const LayerRow&)>& keep);

/// Appends the layers of each run to a layers file, the header first when it is new or empty; a run's rows
/// are written and flushed together, so an interrupted sweep leaves whole lines.
class LayersFileWriter {
public:
    /// Opens for appending; throws InputError when it cannot or the file has another header.
    explicit LayersFileWriter(const std::string& path);
    /// Closes the file.
    ~LayersFileWriter();
    LayersFileWriter(const LayersFileWriter&) = delete;
    LayersFileWriter& operator=(const LayersFileWriter&) = delete;
    /// Writes and flushes the rows of one run; throws InputError when the write fails.
    void append(const RunConfig& config, int repeat, const std::vector<LayerTime>& layers);

private:
    std::unique_ptr<CsvAppender> out_;
    bool withDims_ = true; ///< false for a file written before the dims column
};

} // namespace rooftop
