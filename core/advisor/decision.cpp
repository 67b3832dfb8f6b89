// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's decision on already-evaluated candidates: pure functions, no device or model needed.
#include "core/advisor/advisor.h"
#include "core/common/enum_names.h"
#include "core/common/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace rooftop {
namespace {

bool finiteNumbers(const Candidate& c) {
    return std::isfinite(c.summary.latencySeconds) && std::isfinite(c.summary.averageWatts) &&
           std::isfinite(c.energyPerInference());
}

double slowdownLimit(const Constraints& constraints, double fastest) {
    return fastest * (1.0 + *constraints.maxSlowdownPercent / 100.0);
}

double excess(double value, double limit) {
    if (value <= limit) return 0.0;
    if (limit <= 0.0) return std::numeric_limits<double>::infinity();
    return value / limit - 1.0;
}

std::string number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace

namespace {
const EnumName<Objective> objectiveNames[] = {
    {Objective::Energy, "energy"}, {Objective::Latency, "latency"}, {Objective::Efficiency, "efficiency"}};
} // namespace

const char* objectiveName(Objective objective) {
    return nameIn(objectiveNames, objective);
}

std::optional<Objective> parseObjective(std::string_view text) {
    return parseIn(objectiveNames, text);
}

void validateConstraints(const Constraints& c) {
    if (c.latencySloSeconds && !(std::isfinite(*c.latencySloSeconds) && *c.latencySloSeconds > 0.0))
        throw InputError("the latency SLO must be a positive number of milliseconds, got " +
                         number(*c.latencySloSeconds * 1e3));
    if (c.powerCapWatts && !(std::isfinite(*c.powerCapWatts) && *c.powerCapWatts > 0.0))
        throw InputError("the power cap must be a positive number of watts, got " + number(*c.powerCapWatts));
    if (c.maxSlowdownPercent && !(std::isfinite(*c.maxSlowdownPercent) && *c.maxSlowdownPercent >= 0.0))
        throw InputError("the maximum slowdown must be a percentage >= 0, got " +
                         number(*c.maxSlowdownPercent));
    if (!(c.confidence >= minConfidence && c.confidence <= maxConfidence))
        throw InputError("the confidence must be from " + number(minConfidence) + " to " +
                         number(maxConfidence) + ", got " + number(c.confidence));
}

CandidateBounds candidateBounds(const Candidate& c, double confidence) {
    const PredictionSpread& s = c.summary.spread;
    return {intervalAt(c.summary.latencySeconds, s.latency, confidence),
            intervalAt(c.summary.averageWatts, s.power, confidence),
            intervalAt(c.energyPerInference(), s.energy, confidence)};
}

std::pair<double, double> objectiveKey(const Candidate& c, Objective objective) {
    const double latency = c.summary.latencySeconds;
    const double energy = c.energyPerInference();
    switch (objective) {
    case Objective::Energy:
        return {energy, latency};
    case Objective::Latency:
        return {latency, energy};
    case Objective::Efficiency: {
        const double batch = double(c.batch);
        const double perJoule = c.summary.energyJoules > 0 ? batch / c.summary.energyJoules
                                                           : std::numeric_limits<double>::infinity();
        const double perSecond = latency > 0 ? batch / latency : std::numeric_limits<double>::infinity();
        return {-perJoule, -perSecond};
    }
    }
    return {energy, latency};
}

std::pair<double, double> objectiveQuantity(const Candidate& c, Objective objective) {
    if (objective == Objective::Latency) return {c.summary.latencySeconds, c.summary.spread.latency};
    return {c.energyPerInference(), c.summary.spread.energy};
}

std::vector<size_t> closeCalls(const std::vector<Candidate>& candidates, size_t pick, Objective objective) {
    const auto [value, spread] = objectiveQuantity(candidates[pick], objective);
    std::vector<size_t> close;
    if (!(spread > 0.0) || !(value > 0.0) || !std::isfinite(value)) return close;
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (i == pick || !candidates[i].feasible) continue;
        const double other = objectiveQuantity(candidates[i], objective).first;
        if (other > 0.0 && other / value - 1.0 <= spread) close.push_back(i);
    }
    std::stable_sort(close.begin(), close.end(), [&](size_t a, size_t b) {
        return objectiveKey(candidates[a], objective) < objectiveKey(candidates[b], objective);
    });
    return close;
}

double fastestLatency(const std::vector<Candidate>& candidates) {
    double fastest = std::numeric_limits<double>::infinity();
    for (const auto& c : candidates)
        if (std::isfinite(c.summary.latencySeconds)) fastest = std::min(fastest, c.summary.latencySeconds);
    return fastest;
}

LimitBreaches limitBreaches(const Candidate& c, const Constraints& constraints, double fastest) {
    LimitBreaches breaches;
    const double latency =
        upperBound(c.summary.latencySeconds, c.summary.spread.latency, constraints.confidence);
    const double watts = upperBound(c.summary.averageWatts, c.summary.spread.power, constraints.confidence);
    breaches.latency = constraints.latencySloSeconds && !(latency <= *constraints.latencySloSeconds);
    breaches.power = constraints.powerCapWatts && !(watts <= *constraints.powerCapWatts);
    breaches.slowdown =
        constraints.maxSlowdownPercent && !(c.summary.latencySeconds <= slowdownLimit(constraints, fastest));
    breaches.memory = !c.fitsMemory;
    return breaches;
}

bool meetsConstraints(const Candidate& c, const Constraints& constraints, double fastest) {
    return finiteNumbers(c) && !limitBreaches(c, constraints, fastest).any();
}

double constraintViolation(const Candidate& c, const Constraints& constraints, double fastest) {
    if (!finiteNumbers(c)) return std::numeric_limits<double>::infinity();
    double total = 0.0;
    const double latency =
        upperBound(c.summary.latencySeconds, c.summary.spread.latency, constraints.confidence);
    const double watts = upperBound(c.summary.averageWatts, c.summary.spread.power, constraints.confidence);
    if (constraints.latencySloSeconds) total += excess(latency, *constraints.latencySloSeconds);
    if (constraints.powerCapWatts) total += excess(watts, *constraints.powerCapWatts);
    if (constraints.maxSlowdownPercent)
        total += excess(c.summary.latencySeconds, slowdownLimit(constraints, fastest));
    if (!c.fitsMemory) total += 1e6; // behind every candidate that could run, however far over its limits
    return total;
}

double savingPercent(const Candidate& chosen, const Candidate& baseline) {
    const double base = baseline.energyPerInference();
    if (!(base > 0.0) || !std::isfinite(base)) return 0.0;
    return 100.0 * (base - chosen.energyPerInference()) / base;
}

Provenance profileProvenance(const ModeProfile& profile) {
    Provenance weakest = Provenance::Measured;
    const auto consider = [&](const SourcedValue& v) { weakest = weakerProvenance(weakest, v.provenance); };
    for (const auto& peak : profile.ceilings.peakFlops)
        if (peak.value > 0) consider(peak);
    consider(profile.ceilings.bandwidth);
    consider(profile.ceilings.dispatchOverhead);
    consider(profile.power.constantPower);
    consider(profile.power.energyPerFlop);
    consider(profile.power.energyPerByte);
    return weakest;
}

Recommendation decide(std::vector<Candidate> candidates, Candidate baseline, const Constraints& constraints,
                      Objective objective, bool training) {
    Recommendation r;
    r.training = training;
    const double fastest = fastestLatency(candidates);
    for (auto& c : candidates) {
        c.feasible = meetsConstraints(c, constraints, fastest);
        c.pareto = false;
    }
    // a candidate the board cannot hold is on no front: it would push runnable ones off it
    for (size_t i : runnableParetoFront(candidates, r.frontAxes()))
        candidates[i].pareto = true;
    baseline.feasible = meetsConstraints(baseline, constraints, fastest);
    baseline.pareto = false;

    for (size_t i = 0; i < candidates.size(); ++i) {
        if (!candidates[i].feasible) continue;
        if (!r.recommended ||
            objectiveKey(candidates[i], objective) < objectiveKey(candidates[*r.recommended], objective))
            r.recommended = i;
    }
    if (!r.recommended) {
        std::vector<double> violation(candidates.size());
        for (size_t i = 0; i < candidates.size(); ++i)
            violation[i] = constraintViolation(candidates[i], constraints, fastest);
        std::vector<size_t> order(candidates.size());
        std::iota(order.begin(), order.end(), size_t{0});
        const size_t keep = std::min(closestCount, order.size());
        std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(keep), order.end(),
                          [&](size_t a, size_t b) {
                              if (violation[a] != violation[b]) return violation[a] < violation[b];
                              if (!std::isfinite(violation[a])) return a < b;
                              const auto ka = objectiveKey(candidates[a], objective),
                                         kb = objectiveKey(candidates[b], objective);
                              if (ka != kb) return ka < kb;
                              return a < b;
                          });
        order.resize(keep);
        // Candidates whose numbers are not finite are no guide to anything.
        order.erase(std::remove_if(order.begin(), order.end(),
                                   [&](size_t i) { return !std::isfinite(violation[i]); }),
                    order.end());
        r.closest = std::move(order);
    }
    if (r.recommended) r.closeCalls = closeCalls(candidates, *r.recommended, objective);
    r.savingPercent = r.recommended ? savingPercent(candidates[*r.recommended], baseline) : 0.0;
    r.candidates = std::move(candidates);
    r.baseline = std::move(baseline);
    r.confidence = constraints.confidence;
    r.limited = constraints.latencySloSeconds.has_value() || constraints.powerCapWatts.has_value();
    return r;
}

} // namespace rooftop
