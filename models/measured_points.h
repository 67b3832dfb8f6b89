// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/runs_file.h"

#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooftop::models {

/// One mode's measured runs from a runs file at one batch and precision: the medians of its ok repeats.
struct MeasuredPoint {
    QString mode;
    int64_t batch = 1;
    QString precision;
    QString runner;                             ///< the runs' runner ("sim:0", "trtexec", "command")
    int runs = 0;                               ///< ok rows the medians are of
    double latencyMs = 0.0;                     ///< per batch
    std::optional<double> powerW;               ///< median of the runs that have one
    std::optional<double> energyPerInferenceMj; ///< median energy of one batch / batch
    bool simulated =
        false; ///< from the simulated board (runner starts with "sim"): not a measurement of a machine
};

/// The measured points of a runs file as one set, with where they came from.
struct MeasuredSet {
    QString sourceName; ///< the runs file's name (no folder)
    std::vector<MeasuredPoint> points;
};

/// The measured points of one workload's runs (modeRunMedians: one per mode and runner, the medians of its
/// ok repeats), for the window's plots and tables.
std::vector<MeasuredPoint> measuredPointsFrom(const std::vector<RunRow>& rows, int64_t batch,
                                              Precision precision,
                                              const std::map<std::string, int64_t>& dims = {},
                                              Phase phase = Phase::Inference,
                                              Optimizer optimizer = Optimizer::Adam);

/// "measured" or "simulated board" with the runner and the count of runs, for tooltips and tables.
QString measuredProvenance(const MeasuredPoint& point);

} // namespace rooftop::models
