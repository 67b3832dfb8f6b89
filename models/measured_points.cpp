// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/measured_points.h"

#include "core/measure/mode_run_medians.h"

#include <utility>

namespace rooftop::models {

std::vector<MeasuredPoint> measuredPointsFrom(const std::vector<RunRow>& rows, int64_t batch,
                                              Precision precision, const std::map<std::string, int64_t>& dims,
                                              Phase phase, Optimizer optimizer) {
    std::vector<MeasuredPoint> points;
    for (const ModeRunMedians& medians : modeRunMedians(rows, batch, precision, dims, phase, optimizer)) {
        MeasuredPoint point;
        point.mode = QString::fromStdString(medians.mode);
        point.runner = QString::fromStdString(medians.runner);
        point.batch = batch;
        point.precision = QString::fromStdString(precisionName(precision));
        point.runs = medians.runs;
        point.latencyMs = medians.latencyMs;
        point.powerW = medians.powerW;
        point.energyPerInferenceMj = medians.energyPerItemMj;
        point.simulated = point.runner.startsWith(QLatin1String("sim"));
        points.push_back(std::move(point));
    }
    return points;
}

QString measuredProvenance(const MeasuredPoint& point) {
    return QStringLiteral("%1 (%2, %3 run%4)")
        .arg(point.simulated ? QStringLiteral("simulated board") : QStringLiteral("measured"), point.runner)
        .arg(point.runs)
        .arg(point.runs == 1 ? QString() : QStringLiteral("s"));
}

} // namespace rooftop::models
