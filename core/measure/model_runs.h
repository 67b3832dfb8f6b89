// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/predictor.h"
#include "core/measure/runs_file.h"

#include <string>
#include <vector>

namespace rooftop {

/// The runs of the runs file at `path` that a view of one model's passes shows: an LLM generation's runs left
/// out (a generation is no pass of the model); throws InputError for a malformed file or, with `modelPath`, a
/// file whose runs are of another model.
std::vector<RunRow> readModelRuns(const std::string& path, const std::string& modelPath);

/// A predictor's held-out runs as the rows its runner wrote (no p99, its learned workload's dims), origin
/// "learn"; none when the file predates recording the runner (measured or simulated cannot be told) or its
/// dims cannot be read.
std::vector<RunRow> predictorRunRows(const Predictor& predictor);

} // namespace rooftop
