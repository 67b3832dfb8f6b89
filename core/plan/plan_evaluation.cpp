// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_evaluation.h"

#include "core/common/errors.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace rooftop {

namespace {

std::string percentText(double value) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(2);
    out << value << " %";
    return out.str();
}

// Requests per second of the planning stream with the fewest: bounds hold for every stream.
double lightestRate(const PlanSimulation& simulation) {
    size_t fewest = simulation.arrivals.empty() ? 0 : simulation.arrivals.front().size();
    for (const std::vector<double>& stream : simulation.arrivals)
        fewest = std::min(fewest, stream.size());
    return static_cast<double>(fewest) / simulation.options.durationSeconds;
}

} // namespace

ConfigResult evaluateConfig(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                            const PlanBudgets& budgets, const PlanSimulation& simulation) {
    if (simulation.arrivals.empty()) throw InputError("plan: no arrival stream to simulate");
    ConfigResult result;
    result.batchIndex = batchIndex;
    result.evaluated = true;
    ScheduleOptions options = simulation.options;
    options.sloSeconds = budgets.sloSeconds;
    const ScheduleCosts c = scheduleCosts(space, costs, batchIndex);
    const double streams = static_cast<double>(simulation.arrivals.size());
    ScheduleStats& sum = result.stats;
    for (size_t s = 0; s < simulation.arrivals.size(); ++s) {
        options.seed = simulation.options.seed + 7919 * s;
        const ScheduleStats one = simulateSchedule(simulation.arrivals[s], c, options);
        sum.requests += one.requests;
        sum.served += one.served;
        sum.late += one.late;
        sum.dropped += one.dropped;
        sum.inferenceBatches += one.inferenceBatches;
        sum.minibatches += one.minibatches;
        sum.seconds += one.seconds;
        sum.energyJoules += one.energyJoules;
        sum.p50Ms += one.p50Ms / streams;
        sum.p99Ms += one.p99Ms / streams;
        sum.inferenceBusy += one.inferenceBusy / streams;
        sum.trainingBusy += one.trainingBusy / streams;
        result.worstViolationPct = std::max(result.worstViolationPct, one.violationPct);
        result.worstWatts = std::max(result.worstWatts, one.averageWatts);
        if (s == 0) sum.timeline = one.timeline;
    }
    sum.violationPct =
        sum.requests ? 100.0 * static_cast<double>(sum.late + sum.dropped) / static_cast<double>(sum.requests)
                     : 0.0;
    sum.minibatchesPerSecond = sum.seconds > 0 ? static_cast<double>(sum.minibatches) / sum.seconds : 0.0;
    sum.averageWatts = sum.seconds > 0 ? sum.energyJoules / sum.seconds : 0.0;
    sum.energyJoules /= streams; // per stream: the energy of one simulated window
    sum.seconds /= streams;

    if (result.worstViolationPct > budgets.maxViolationPct)
        result.reason = "SLO violations " + percentText(result.worstViolationPct) +
                        " in the worst stream > " + percentText(budgets.maxViolationPct);
    else if (budgets.powerCapWatts && result.worstWatts > *budgets.powerCapWatts)
        result.reason = "average power above the cap";
    else if (sum.minibatches == 0)
        result.reason = "no training minibatch fits";
    result.feasible = result.reason.empty();
    return result;
}

StreamCheck checkStreams(const ScheduleCosts& costs, const PlanBudgets& budgets,
                         const PlanSimulation& simulation) {
    StreamCheck out;
    if (simulation.checkArrivals.empty()) return out;
    ScheduleOptions options = simulation.options;
    options.sloSeconds = budgets.sloSeconds;
    std::vector<double> powers;
    int met = 0;
    for (size_t i = 0; i < simulation.checkArrivals.size(); ++i) {
        options.seed = simulation.options.seed + 104729ULL * (i + 1);
        const ScheduleStats s = simulateSchedule(simulation.checkArrivals[i], costs, options);
        powers.push_back(s.averageWatts);
        if (s.violationPct <= budgets.maxViolationPct &&
            (!budgets.powerCapWatts || s.averageWatts <= *budgets.powerCapWatts))
            ++met;
    }
    out.metPct = 100.0 * met / static_cast<double>(powers.size());
    const size_t at = std::min(powers.size() - 1, static_cast<size_t>(0.97 * double(powers.size())));
    std::nth_element(powers.begin(), powers.begin() + std::ptrdiff_t(at), powers.end());
    out.power97 = powers[at];
    return out;
}

double keptShare(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                 const PlanBudgets& budgets, const PlanSimulation& simulation) {
    if (simulation.checkArrivals.empty()) return -1;
    return checkStreams(scheduleCosts(space, costs, batchIndex), budgets, simulation).metPct;
}

double throughputBound(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                       const PlanBudgets& budgets, const PlanSimulation& simulation) {
    const double batch = static_cast<double>(space.inferenceBatches.at(batchIndex));
    const double ti = costs.inferenceSeconds.at(batchIndex);
    const double margin = 1.0 + simulation.options.planningMargin;
    if (simulation.options.policy == SchedulePolicy::Adaptive &&
        (costs.trainingSeconds + ti) * margin > budgets.sloSeconds)
        return 0.0;
    const double duration = simulation.options.durationSeconds;
    // at least (1 - allowed violations) of the requests of the lightest stream are served, in batches of at
    // most `batch`, each at least (1 - 4 jitter) as long as planned
    const double rate = lightestRate(simulation);
    const double busy = (1.0 - budgets.maxViolationPct / 100.0) * rate * ti / batch *
                        std::max(0.0, 1.0 - 4.0 * simulation.options.jitter);
    // a minibatch may start just before the end of the window, and jitter can shorten each one
    const double slack = 1.0 / duration + 4.0 * simulation.options.jitter;
    return std::max(0.0, 1.0 - busy) / costs.trainingSeconds * (1.0 + slack) + 1.0 / duration;
}

ScheduleEstimate estimateSchedule(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex,
                                  const PlanBudgets& budgets, double rate) {
    ScheduleEstimate e;
    const double batch = static_cast<double>(space.inferenceBatches.at(batchIndex));
    const double ti = costs.inferenceSeconds.at(batchIndex), tt = costs.trainingSeconds;
    const double busy = rate * ti / batch; // inference share of the time with full batches
    const bool trains = tt + ti <= budgets.sloSeconds && rate * tt <= batch;
    if (ti > budgets.sloSeconds || busy >= 1.0) {
        e.watts = costs.inferenceWatts.at(batchIndex);
        return e;
    }
    // each gap between inference batches loses on average half a minibatch
    const double batchesPerSecond = rate / batch;
    const double training = trains ? std::max(0.0, (1.0 - busy) / tt - 0.5 * batchesPerSecond) : 0.0;
    const double trainingBusy = std::min(1.0 - busy, training * tt);
    e.minibatchesPerSecond = training;
    e.watts = busy * costs.inferenceWatts.at(batchIndex) + trainingBusy * costs.trainingWatts +
              (1.0 - busy - trainingBusy) * costs.idleWatts;
    e.feasible = trains && training > 0 && (!budgets.powerCapWatts || e.watts <= *budgets.powerCapWatts);
    return e;
}

// The least average power a configuration can draw: inference busy for the lightest stream's requests in
// full batches, the rest of the time at the cheaper of idle and training.
static double leastWatts(const PlanSpace& space, const PlanModeCosts& costs, size_t b,
                         const PlanSimulation& simulation) {
    const double rate = lightestRate(simulation);
    const double busy =
        std::min(1.0, rate * costs.inferenceSeconds[b] / static_cast<double>(space.inferenceBatches[b]) *
                          std::max(0.0, 1.0 - 4.0 * simulation.options.jitter));
    return busy * costs.inferenceWatts[b] + (1.0 - busy) * std::min(costs.idleWatts, costs.trainingWatts);
}

double planScore(const ConfigResult& result, const PlanBudgets& budgets) {
    if (!result.evaluated) return -1e9;
    if (result.feasible) return result.stats.minibatchesPerSecond;
    double distance = std::max(0.0, result.worstViolationPct - budgets.maxViolationPct) / 100.0;
    if (budgets.powerCapWatts && *budgets.powerCapWatts > 0)
        distance += std::max(0.0, result.worstWatts / *budgets.powerCapWatts - 1.0);
    return -1.0 - distance;
}

ConfigResult evaluateMode(const PlanSpace& space, const PlanModeCosts& costs, const PlanBudgets& budgets,
                          const PlanSimulation& simulation, double mustBeat) {
    ConfigResult best;
    double bestScore = -1e300;
    for (size_t b = 0; b < space.inferenceBatches.size(); ++b) {
        if (mustBeat > 0 && throughputBound(space, costs, b, budgets, simulation) <= mustBeat) continue;
        if (budgets.powerCapWatts && leastWatts(space, costs, b, simulation) > *budgets.powerCapWatts)
            continue;
        if (costs.inferenceSeconds[b] > budgets.sloSeconds) {
            if (!best.evaluated && bestScore < -1e299) { // nothing better yet: keep why
                best.batchIndex = b;
                best.reason = "one batch takes longer than the SLO";
                bestScore = -1e299;
            }
            continue;
        }
        ConfigResult r = evaluateConfig(space, costs, b, budgets, simulation);
        const double score = planScore(r, budgets);
        const bool better = score > bestScore + 1e-12 || (std::abs(score - bestScore) <= 1e-12 &&
                                                          r.stats.energyJoules < best.stats.energyJoules);
        if (better) {
            best = std::move(r);
            bestScore = score;
        }
    }
    return best;
}

} // namespace rooftop
