// SPDX-License-Identifier: GPL-3.0-or-later
// Pareto front of (batch latency, energy per inference), both minimised: sort, then one sweep.
#include "core/advisor/advisor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rooftop {

double frontValue(const Candidate& candidate, FrontAxes axes) {
    return axes == FrontAxes::LatencyPower ? candidate.summary.averageWatts : candidate.energyPerInference();
}

std::vector<size_t> paretoFront(const std::vector<Candidate>& candidates, FrontAxes axes) {
    struct Point {
        double latency;
        double energy;
        size_t index;
    };
    std::vector<Point> points;
    points.reserve(candidates.size());
    for (size_t i = 0; i < candidates.size(); ++i) {
        const double latency = candidates[i].summary.latencySeconds;
        const double energy = frontValue(candidates[i], axes);
        if (std::isfinite(latency) && std::isfinite(energy)) points.push_back({latency, energy, i});
    }
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
        if (a.latency != b.latency) return a.latency < b.latency;
        if (a.energy != b.energy) return a.energy < b.energy;
        return a.index < b.index;
    });

    // A point is dominated when a point of strictly lower latency has energy <= its own, or a point of equal
    // latency has strictly lower energy. Walk groups of equal latency: the group's minimum energy (its first
    // points after sorting) survives when it is below every energy seen at lower latency.
    std::vector<size_t> front;
    double bestEarlier = std::numeric_limits<double>::infinity();
    for (size_t start = 0; start < points.size();) {
        size_t end = start;
        while (end < points.size() && points[end].latency == points[start].latency)
            ++end;
        const double groupMin = points[start].energy;
        if (groupMin < bestEarlier) {
            for (size_t k = start; k < end && points[k].energy == groupMin; ++k)
                front.push_back(points[k].index);
            bestEarlier = groupMin;
        }
        start = end;
    }
    return front;
}

std::vector<size_t> runnableParetoFront(const std::vector<Candidate>& candidates, FrontAxes axes) {
    std::vector<Candidate> runnable;
    std::vector<size_t> index;
    for (size_t i = 0; i < candidates.size(); ++i)
        if (candidates[i].fitsMemory) {
            runnable.push_back(candidates[i]);
            index.push_back(i);
        }
    std::vector<size_t> front = paretoFront(runnable, axes);
    for (size_t& i : front)
        i = index[i];
    return front;
}

} // namespace rooftop
