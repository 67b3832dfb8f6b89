// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/run_coverage.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace rooftop {

namespace {

double squaredDistance(const double* a, const Position& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        sum += (a[i] - b[i]) * (a[i] - b[i]);
    return sum;
}

} // namespace

double RunCoverage::nearest(const double* position) const {
    double best = std::numeric_limits<double>::infinity();
    for (const Position& p : positions) {
        double sum = 0.0;
        for (std::size_t i = 0; i < p.size() && sum < best; ++i) // stop once this run is no nearer
            sum += (position[i] - p[i]) * (position[i] - p[i]);
        best = std::min(best, sum);
    }
    return std::sqrt(best);
}

double RunCoverage::spreadFactor(const double* position) const {
    if (positions.empty() || !(heldOutDistance > 0)) return 1.0;
    const double relative = nearest(position) / heldOutDistance;
    return std::sqrt(0.25 + 0.75 * relative * relative);
}

RunCoverage runCoverage(const std::vector<Position>& positions, const std::vector<int>& fold) {
    // distinct positions with their runs per fold, so that many repeats cost no more than their positions
    std::vector<std::pair<Position, int>> runs;
    runs.reserve(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        runs.emplace_back(positions[i], fold[i]);
    std::sort(runs.begin(), runs.end());
    std::vector<Position> distinct;
    std::vector<std::map<int, int>> perFold;
    for (const auto& [position, f] : runs) {
        if (distinct.empty() || distinct.back() != position) {
            if (distinct.size() == coveragePositionLimit) return {};
            distinct.push_back(position);
            perFold.emplace_back();
        }
        ++perFold.back()[f];
    }
    double sum = 0.0;
    int counted = 0;
    for (std::size_t i = 0; i < distinct.size(); ++i)
        for (const auto& [f, count] : perFold[i]) {
            double best = std::numeric_limits<double>::infinity();
            for (std::size_t j = 0; j < distinct.size(); ++j) {
                const bool otherFold = perFold[j].size() > 1 || perFold[j].begin()->first != f;
                if (otherFold) best = std::min(best, squaredDistance(distinct[i].data(), distinct[j]));
            }
            if (!std::isfinite(best)) continue;
            sum += count * best;
            counted += count;
        }
    RunCoverage coverage;
    if (counted == 0) return coverage;
    coverage.heldOutDistance = std::max(minimumHeldOutDistance, std::sqrt(sum / counted));
    coverage.positions = std::move(distinct);
    return coverage;
}

} // namespace rooftop
