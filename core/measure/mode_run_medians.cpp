// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/mode_run_medians.h"

#include <algorithm>
#include <utility>

namespace rooftop {

namespace {

std::optional<double> median(std::vector<double> values) {
    if (values.empty()) return std::nullopt;
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

struct Runs {
    std::vector<double> latency, power, energy;
};

} // namespace

std::vector<ModeRunMedians> modeRunMedians(const std::vector<RunRow>& rows, int64_t batch,
                                           Precision precision, const std::map<std::string, int64_t>& dims,
                                           Phase phase, Optimizer optimizer) {
    std::vector<std::pair<std::string, std::string>> order; // (mode, runner) by first row
    std::map<std::pair<std::string, std::string>, Runs> runs;
    for (const RunRow& row : rows) {
        if (!row.ok() || !row.latencyMs || row.batch != batch || row.precision != precision ||
            row.phase != phase || (phase == Phase::Training && row.optimizer != optimizer) ||
            row.dims != dims)
            continue;
        const auto key = std::make_pair(row.mode, row.runner);
        auto [it, added] = runs.try_emplace(key);
        if (added) order.push_back(key);
        it->second.latency.push_back(*row.latencyMs);
        if (row.powerW) it->second.power.push_back(*row.powerW);
        if (row.energyMj) it->second.energy.push_back(*row.energyMj / double(row.batch));
    }
    std::vector<ModeRunMedians> medians;
    for (const auto& key : order) {
        const Runs& of = runs[key];
        medians.push_back({key.first, key.second, int(of.latency.size()), *median(of.latency),
                           median(of.power), median(of.energy)});
    }
    return medians;
}

} // namespace rooftop
