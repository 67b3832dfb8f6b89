// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_search.h"

#include "core/common/enum_names.h"
#include "core/common/errors.h"
#include "core/common/splitmix.h"
#include "core/plan/cost_correction.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace rooftop {

namespace {

using Coordinates = std::array<double, 4>;

double distanceSquared(const Coordinates& a, const Coordinates& b) {
    double sum = 0;
    for (size_t i = 0; i < 4; ++i)
        sum += (a[i] - b[i]) * (a[i] - b[i]);
    return sum;
}

// profiles that all failed from the start: the search stops there (tune stops likewise)
constexpr int failedProfilesToStop = 3;

// What a search keeps while it runs: the profiled modes, their measured costs and results.
struct SearchState {
    const PlanSpace& space;
    const PlanBudgets& budgets;
    const PlanSimulation& simulation;
    ModeProfiler* profiler;
    const PlanProgressCallback& progress;
    const std::atomic<bool>* cancel;
    int maxProfiles;
    CostCorrection correction; // the profiled modes and what they measured
    std::vector<char> tried;
    std::map<size_t, PlanCandidate> results; // by mode
    bool collectFront = false;               // als: keep each profiled mode's SLO-feasible points
    std::vector<ParetoPoint> frontPoints;
    PlanOutcome outcome;

    bool cancelled() const { return cancel && cancel->load(); }
    // a runner whose first profiles all fail (a wrong command, a board not ready) is not tried further
    bool runnerFailing() const {
        return outcome.profiledModes >= failedProfilesToStop &&
               outcome.failedProfiles == outcome.profiledModes;
    }
    bool budgetLeft() const {
        return outcome.profiledModes < maxProfiles && !cancelled() && !runnerFailing();
    }

    PlanModeCosts corrected(size_t m) const { return correction.corrected(m); }
    double predictedScore(size_t m) const {
        return planScore(evaluateMode(space, corrected(m), budgets, simulation), budgets);
    }
    // Profiles mode m; its measured score, or nothing when the profile failed.
    std::optional<double> profile(size_t m) {
        tried[m] = 1;
        ++outcome.profiledModes;
        std::string why;
        std::optional<PlanModeCosts> costs = profiler->profile(space.modes[m], &why);
        if (progress)
            progress("profiled " + std::to_string(outcome.profiledModes) + " of at most " +
                         std::to_string(maxProfiles) + " modes",
                     outcome.profiledModes);
        if (!costs) {
            ++outcome.failedProfiles;
            outcome.notes.push_back(space.modes[m].mode.name + ": " +
                                    (why.empty() ? "the profile failed" : why));
            return std::nullopt;
        }
        correction.add(m, *costs);
        PlanCandidate c;
        c.mode = m;
        c.costs = *costs;
        c.profiled = true;
        c.result = evaluateMode(space, c.costs, budgets, simulation);
        c.score = planScore(c.result, budgets);
        results[m] = c;
        if (collectFront) addFrontPoints(m, *costs);
        return c.score;
    }
    void addFrontPoints(size_t m, const PlanModeCosts& costs) {
        PlanBudgets sloOnly = budgets;
        sloOnly.powerCapWatts.reset();
        for (size_t b = 0; b < space.inferenceBatches.size(); ++b) {
            if (costs.inferenceSeconds[b] > budgets.sloSeconds) continue;
            const ConfigResult r = evaluateConfig(space, costs, b, sloOnly, simulation);
            if (r.feasible) frontPoints.push_back({m, b, r.stats.minibatchesPerSecond, r.worstWatts});
        }
    }
    double bestMeasured() const {
        double best = -1e300;
        for (const auto& [m, c] : results)
            best = std::max(best, c.score);
        return best;
    }
};

// Higher score first; on equal throughput, less average power.
bool betterCandidate(const PlanCandidate& a, const PlanCandidate& b) {
    if (std::abs(a.score - b.score) > 1e-9 * std::max(1.0, std::abs(a.score))) return a.score > b.score;
    if (a.result.stats.averageWatts != b.result.stats.averageWatts)
        return a.result.stats.averageWatts < b.result.stats.averageWatts;
    return a.mode < b.mode;
}

// Modes in the order of their best throughput bound, with that bound; batches that cannot meet the SLO
// skipped.
std::vector<std::pair<double, size_t>> boundOrder(const PlanSpace& space, const PlanBudgets& budgets,
                                                  const PlanSimulation& simulation,
                                                  const std::function<PlanModeCosts(size_t)>& costsOf,
                                                  const std::vector<char>* skip) {
    std::vector<std::pair<double, size_t>> order;
    order.reserve(space.modes.size());
    for (size_t m = 0; m < space.modes.size(); ++m) {
        if (skip && (*skip)[m]) continue;
        const PlanModeCosts c = costsOf(m);
        double bound = -1.0;
        for (size_t b = 0; b < space.inferenceBatches.size(); ++b)
            if (c.inferenceSeconds[b] <= budgets.sloSeconds)
                bound = std::max(bound, throughputBound(space, c, b, budgets, simulation));
        order.emplace_back(bound, m);
    }
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    return order;
}

// The best mode by `costsOf` (branch and bound on the throughput bound), with every mode it simulated.
std::vector<PlanCandidate> bestByCosts(const PlanSpace& space, const PlanBudgets& budgets,
                                       const PlanSimulation& simulation,
                                       const std::function<PlanModeCosts(size_t)>& costsOf,
                                       const std::vector<char>* skip, const std::atomic<bool>* cancel) {
    std::vector<PlanCandidate> evaluated;
    double bestFeasible = 0.0;
    for (const auto& [bound, m] : boundOrder(space, budgets, simulation, costsOf, skip)) {
        if (cancel && cancel->load()) break;
        if (bestFeasible > 0 && bound <= bestFeasible) break; // no later mode can beat it
        if (bound <= 0 && evaluated.size() >= 20) break;      // none of the rest can train: a few show why
        PlanCandidate c;
        c.mode = m;
        c.costs = costsOf(m);
        c.result = evaluateMode(space, c.costs, budgets, simulation, bestFeasible);
        if (!c.result.evaluated) continue;
        c.score = planScore(c.result, budgets);
        if (c.result.feasible) bestFeasible = std::max(bestFeasible, c.result.stats.minibatchesPerSecond);
        evaluated.push_back(std::move(c));
    }
    std::sort(evaluated.begin(), evaluated.end(), betterCandidate);
    return evaluated;
}

std::optional<size_t> gridNeighbour(const PlanSpace& space, size_t m, int dim, int delta) {
    std::array<int, 4> at = space.gridIndex[m];
    if (at[0] < 0) return std::nullopt;
    const int moved =
        std::clamp(at[static_cast<size_t>(dim)] + delta, 0, space.gridSize[static_cast<size_t>(dim)] - 1);
    if (moved == at[static_cast<size_t>(dim)]) return std::nullopt;
    at[static_cast<size_t>(dim)] = moved;
    for (size_t i = 0; i < space.modes.size(); ++i) // the grid is mode-major; a map is not worth it here
        if (space.gridIndex[i] == at) return i;
    return std::nullopt;
}

// Relative noise of profiled throughput: a neighbour predicted this close to the current mode may beat it.
constexpr double noiseAllowance = 0.02;

// Steps from `current` one mode dimension at a time (and along every improving one together), profiling
// the neighbours the corrected prediction ranks best, halving the steps when none improves; at most
// `maxProfiles` profiles and `triesPerStep` neighbours per step. Returns why it stopped.
std::string descend(SearchState& s, size_t current, double currentScore, std::array<int, 4> step,
                    int maxProfiles, int triesPerStep = 2) {
    PlanBudgets sloOnly = s.budgets;
    sloOnly.powerCapWatts.reset();
    // throughput and power without the cap: the gradient's two parts
    auto slope = [&](size_t m) {
        const ConfigResult r = evaluateMode(s.space, s.corrected(m), sloOnly, s.simulation);
        return std::make_pair(r.feasible ? r.stats.minibatchesPerSecond : 0.0, r.worstWatts);
    };
    const int limit = s.outcome.profiledModes + maxProfiles;
    while (s.budgetLeft() && s.outcome.profiledModes < limit) {
        std::vector<std::pair<double, size_t>> moves;
        // per dimension the step that gains throughput, else the one that saves power at the same throughput
        std::array<int, 4> gain{}, saving{};
        const auto [here, hereWatts] = slope(current);
        for (int d = 0; d < 4; ++d) {
            const size_t dim = static_cast<size_t>(d);
            double bestGain = here * 1.001, bestWatts = hereWatts * 0.995;
            for (int sign : {-1, 1}) {
                const std::optional<size_t> n = gridNeighbour(s.space, current, d, sign * step[dim]);
                if (!n) continue;
                if (!s.tried[*n]) moves.emplace_back(s.predictedScore(*n), *n);
                const auto [throughput, watts] = slope(*n);
                if (throughput > bestGain) {
                    bestGain = throughput;
                    gain[dim] = sign * step[dim];
                } else if (throughput >= here * 0.995 && watts < bestWatts) {
                    bestWatts = watts;
                    saving[dim] = sign * step[dim];
                }
            }
        }
        // Fulcrum's multi-dimensional step: what one dimension saves in power pays for another's throughput
        auto combine = [&](const std::array<int, 4>& moveBy) {
            std::optional<size_t> m = current;
            int dims = 0;
            for (int d = 0; d < 4 && m; ++d)
                if (moveBy[static_cast<size_t>(d)] != 0) {
                    m = gridNeighbour(s.space, *m, d, moveBy[static_cast<size_t>(d)]);
                    ++dims;
                }
            if (dims >= 2 && m && !s.tried[*m]) moves.emplace_back(s.predictedScore(*m), *m);
        };
        std::array<int, 4> all{};
        for (size_t d = 0; d < 4; ++d)
            all[d] = gain[d] != 0 ? gain[d] : saving[d];
        combine(all);
        for (size_t g = 0; g < 4; ++g)
            for (size_t w = 0; w < 4; ++w)
                if (gain[g] != 0 && saving[w] != 0 && g != w) {
                    std::array<int, 4> pair{};
                    pair[g] = gain[g];
                    pair[w] = saving[w];
                    combine(pair);
                }
        std::sort(moves.begin(), moves.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        moves.erase(std::unique(moves.begin(), moves.end()), moves.end());
        bool moved = false;
        int tries = 0;
        for (const auto& [predicted, n] : moves) {
            // a neighbour predicted within the run noise of the current mode is worth a profile too
            if (predicted <= currentScore - noiseAllowance * std::abs(currentScore) ||
                tries == triesPerStep || !s.budgetLeft() || s.outcome.profiledModes >= limit)
                break;
            if (s.tried[n]) continue;
            ++tries;
            const std::optional<double> g = s.profile(n);
            if (g && *g > currentScore) {
                current = n;
                currentScore = *g;
                moved = true;
                break;
            }
        }
        if (!moved) {
            if (std::all_of(step.begin(), step.end(), [](int v) { return v == 1; }))
                return "converged: no neighbouring mode improves";
            for (int& v : step)
                v = std::max(1, v / 2);
        }
    }
    return s.cancelled() ? "cancelled" : "profile budget spent";
}

// GMD: from the prediction's best mode, jumps to the corrected prediction's best while that improves, then
// steps one mode dimension at a time (and all improving ones together) with shrinking steps.
void searchGmd(SearchState& s) {
    const auto prior = bestByCosts(
        s.space, s.budgets, s.simulation, [&](size_t m) { return s.space.modes[m]; }, nullptr, s.cancel);
    if (prior.empty()) {
        s.outcome.stopReason = "no mode can meet the SLO";
        return;
    }
    size_t current = prior.front().mode;
    std::optional<double> f = s.profile(current);
    double currentScore = f ? *f : -1e300;
    for (int jump = 0; jump < 3 && s.budgetLeft(); ++jump) {
        const auto next = bestByCosts(
            s.space, s.budgets, s.simulation, [&](size_t m) { return s.corrected(m); }, &s.tried, s.cancel);
        if (next.empty() || next.front().score <= currentScore * 1.01) break;
        const std::optional<double> g = s.profile(next.front().mode);
        if (!g || *g <= currentScore) break;
        current = next.front().mode;
        currentScore = *g;
    }
    std::array<int, 4> step{};
    for (size_t d = 0; d < 4; ++d)
        step[d] = std::max(1, (s.space.gridSize[d] - 1) / 4);
    if (s.space.gridIndex[current][0] < 0) { // stock modes: the corrected prediction's best, one at a time
        while (s.budgetLeft()) {
            const auto next = bestByCosts(
                s.space, s.budgets, s.simulation, [&](size_t m) { return s.corrected(m); }, &s.tried,
                s.cancel);
            if (next.empty() || next.front().score <= s.bestMeasured()) {
                s.outcome.stopReason = "the corrected prediction expects no better mode";
                return;
            }
            s.profile(next.front().mode);
        }
        s.outcome.stopReason = "profile budget spent";
        return;
    }
    // descend; when no neighbour improves, jump to the mode the corrected prediction expects best and descend
    // from there, until a jump does not improve or the budget is spent
    while (true) {
        s.outcome.stopReason = descend(s, current, currentScore, step, s.maxProfiles);
        for (const auto& [m, c] : s.results)
            if (c.score > currentScore) {
                current = m;
                currentScore = c.score;
            }
        if (!s.budgetLeft()) return;
        const auto next = bestByCosts(
            s.space, s.budgets, s.simulation, [&](size_t m) { return s.corrected(m); }, &s.tried, s.cancel);
        if (next.empty() || next.front().score <= currentScore) return;
        const std::optional<double> g = s.profile(next.front().mode);
        if (!g || *g <= currentScore) {
            s.outcome.stopReason += "; the corrected prediction's best did not improve";
            return;
        }
        current = next.front().mode;
        currentScore = *g;
        step = {1, 1, 1, 1};
    }
}

// The measured front: SLO-feasible (mode, batch) points not beaten in throughput by a point of less power.
std::vector<ParetoPoint> measuredFront(const SearchState& s) {
    std::vector<ParetoPoint> points = s.frontPoints;
    std::sort(points.begin(), points.end(), [](const ParetoPoint& a, const ParetoPoint& b) {
        return a.watts != b.watts ? a.watts < b.watts : a.minibatchesPerSecond > b.minibatchesPerSecond;
    });
    std::vector<ParetoPoint> front;
    for (const ParetoPoint& p : points)
        if (front.empty() || p.minibatchesPerSecond > front.back().minibatchesPerSecond) front.push_back(p);
    return front;
}

double frontAt(const std::vector<ParetoPoint>& front, double watts) {
    double best = 0.0;
    for (const ParetoPoint& p : front)
        if (p.watts <= watts) best = std::max(best, p.minibatchesPerSecond);
    return best;
}

// ALS: an initial design along the prediction's front, then the mode whose corrected prediction would push
// the measured front furthest, weighted toward modes far from every profiled one, until the front settles.
void searchAls(SearchState& s, const PlanSearchOptions& options) {
    s.collectFront = true;
    PlanBudgets sloOnly = s.budgets;
    sloOnly.powerCapWatts.reset();
    const size_t modes = s.space.modes.size();
    const size_t batches = s.space.inferenceBatches.size();
    // the prediction's front, by the quick estimate
    std::vector<std::pair<double, size_t>> byPower; // watts of the mode's best estimated point
    std::vector<std::pair<double, double>> best(modes, {0.0, 0.0}); // (throughput, watts)
    for (size_t m = 0; m < modes; ++m) {
        for (size_t b = 0; b < batches; ++b) {
            const ScheduleEstimate e =
                estimateSchedule(s.space, s.space.modes[m], b, sloOnly, s.simulation.rate);
            if (e.feasible && e.minibatchesPerSecond > best[m].first)
                best[m] = {e.minibatchesPerSecond, e.watts};
        }
        if (best[m].first > 0) byPower.emplace_back(best[m].second, m);
    }
    std::sort(byPower.begin(), byPower.end());
    std::vector<size_t> priorFront;
    double top = 0.0;
    for (const auto& [w, m] : byPower)
        if (best[m].first > top) {
            priorFront.push_back(m);
            top = best[m].first;
        }
    const size_t initial = std::min<size_t>(10, static_cast<size_t>(s.maxProfiles));
    SplitMix64 random = SplitMix64::keyed(options.seed + 17);
    for (size_t i = 0; i < initial && s.budgetLeft(); ++i) {
        size_t m;
        if (priorFront.size() >= initial)
            m = priorFront[i * (priorFront.size() - 1) / std::max<size_t>(1, initial - 1)];
        else if (i < priorFront.size())
            m = priorFront[i];
        else
            m = static_cast<size_t>(random.below(modes));
        if (!s.tried[m]) s.profile(m);
    }
    std::vector<ParetoPoint> front = measuredFront(s);
    int unchanged = 0;
    const int minimum = std::min<int>(options.minProfiles, static_cast<int>(modes));
    while (s.budgetLeft()) {
        if (s.outcome.profiledModes >= static_cast<int>(modes)) {
            s.outcome.stopReason = "every mode profiled";
            break;
        }
        if (s.outcome.profiledModes >= minimum && unchanged >= options.settleProfiles) {
            s.outcome.stopReason =
                "the measured front did not change in " + std::to_string(unchanged) + " profiles";
            break;
        }
        const double scale = std::max(1e-9, front.empty() ? top : front.back().minibatchesPerSecond);
        double bestScore = -1.0;
        size_t choice = modes;
        for (size_t m = 0; m < modes; ++m) {
            if (s.tried[m]) continue;
            const PlanModeCosts c = s.corrected(m);
            double gain = 0.0, reach = 0.0;
            for (size_t b = 0; b < batches; ++b) {
                const ScheduleEstimate e = estimateSchedule(s.space, c, b, sloOnly, s.simulation.rate);
                if (!e.feasible) continue;
                gain = std::max(gain, (e.minibatchesPerSecond - frontAt(front, e.watts)) / scale);
                reach = std::max(reach, e.minibatchesPerSecond / scale);
            }
            double nearest = 1e300;
            for (size_t p : s.correction.profiled())
                nearest = std::min(nearest,
                                   distanceSquared(s.correction.coordinates(m), s.correction.coordinates(p)));
            const double score = std::max(0.0, gain) + 0.2 * std::sqrt(std::min(nearest, 4.0)) * reach;
            if (score > bestScore) {
                bestScore = score;
                choice = m;
            }
        }
        if (choice == modes || bestScore <= 0) {
            s.outcome.stopReason = "no unprofiled mode is expected on the front";
            break;
        }
        const size_t before = front.size();
        const double beforeTop = front.empty() ? 0.0 : front.back().minibatchesPerSecond;
        s.profile(choice);
        front = measuredFront(s);
        const bool onFront =
            std::any_of(front.begin(), front.end(), [&](const ParetoPoint& p) { return p.mode == choice; });
        unchanged = onFront || front.size() != before ||
                            (!front.empty() && front.back().minibatchesPerSecond != beforeTop)
                        ? 0
                        : unchanged + 1;
    }
    if (s.outcome.stopReason.empty())
        s.outcome.stopReason = s.cancelled() ? "cancelled" : "profile budget spent";
    // the front is the reusable answer; for these budgets, profile what the prediction corrected by every
    // profiled mode expects to beat the best one, a few times
    const int before = s.outcome.profiledModes;
    for (int i = 0; i < options.refineProfiles && s.budgetLeft(); ++i) {
        const auto next = bestByCosts(
            s.space, s.budgets, s.simulation, [&](size_t m) { return s.corrected(m); }, &s.tried, s.cancel);
        const double best = s.bestMeasured();
        if (next.empty() || !next.front().result.feasible ||
            next.front().score <= best + noiseAllowance * std::abs(best) * 0.25)
            break;
        s.profile(next.front().mode);
    }
    if (s.outcome.profiledModes > before)
        s.outcome.stopReason += "; then " + std::to_string(s.outcome.profiledModes - before) +
                                " expected to beat the best point for these budgets";
    s.outcome.pareto = measuredFront(s);
}

} // namespace

namespace {
const EnumName<PlanStrategy> planStrategyNames[] = {
    {PlanStrategy::Exhaustive, "exhaustive"}, {PlanStrategy::Gmd, "gmd"}, {PlanStrategy::Als, "als"}};
} // namespace

const char* planStrategyName(PlanStrategy strategy) {
    return nameIn(planStrategyNames, strategy);
}

std::optional<PlanStrategy> parsePlanStrategy(std::string_view text) {
    return parseIn(planStrategyNames, text);
}

void settleOnACheckedPlan(PlanOutcome& outcome, const PlanSpace& space, const PlanBudgets& budgets,
                          const PlanSimulation& simulation) {
    if (simulation.checkArrivals.empty()) return;
    outcome.plan.reset();
    for (size_t i = 0; i < outcome.candidates.size() && !outcome.plan; ++i)
        if (outcome.candidates[i].result.feasible) outcome.plan = i;
    if (!outcome.plan) return;
    const size_t first = *outcome.plan;
    int tried = 0;
    for (size_t i = first; i < outcome.candidates.size() && tried < 20; ++i) {
        PlanCandidate& c = outcome.candidates[i];
        if (!c.result.feasible) continue;
        ++tried;
        c.keptPct = keptShare(space, c.costs, c.result.batchIndex, budgets, simulation);
        if (c.keptPct >= keptShareRequired) {
            outcome.plan = i;
            return;
        }
    }
}

PlanOutcome runPlanSearch(const PlanSpace& space, const PlanBudgets& budgets,
                          const PlanSimulation& simulation, const PlanSearchOptions& options,
                          ModeProfiler* profiler, const PlanProgressCallback& progress,
                          const std::atomic<bool>* cancel) {
    if (space.modes.empty()) throw InputError("plan: no power mode to plan over");
    if (options.strategy != PlanStrategy::Exhaustive && !profiler)
        throw InputError(std::string("plan: --strategy ") + planStrategyName(options.strategy) +
                         " profiles modes through a runner; give --runner (sim for the simulated board)");
    const int defaultProfiles = options.strategy == PlanStrategy::Als ? 150 : 15;
    // a profiled mode must keep the run noise under the cap, so that a plan measured just under it truly is
    PlanBudgets searched = budgets;
    if (options.strategy != PlanStrategy::Exhaustive && searched.powerCapWatts)
        *searched.powerCapWatts *= 1.0 - options.powerMargin;
    SearchState s{space,
                  searched,
                  simulation,
                  profiler,
                  progress,
                  cancel,
                  options.maxProfiles > 0 ? options.maxProfiles : defaultProfiles,
                  CostCorrection(space),
                  std::vector<char>(space.modes.size(), 0),
                  {},
                  false,
                  {},
                  {}};
    if (options.strategy == PlanStrategy::Exhaustive) {
        s.outcome.candidates = bestByCosts(
            space, budgets, simulation, [&](size_t m) { return space.modes[m]; }, nullptr, cancel);
        s.outcome.stopReason = s.cancelled() ? "cancelled before every mode was bounded or simulated"
                                             : "every mode bounded or simulated";
    } else {
        if (options.strategy == PlanStrategy::Gmd)
            searchGmd(s);
        else
            searchAls(s, options);
        for (auto& [m, c] : s.results)
            s.outcome.candidates.push_back(c);
        std::sort(s.outcome.candidates.begin(), s.outcome.candidates.end(), betterCandidate);
    }
    if (s.runnerFailing())
        s.outcome.stopReason =
            "stopped: the first " + std::to_string(s.outcome.profiledModes) + " profiles all failed";
    s.outcome.cancelled = s.cancelled();
    if (!s.outcome.candidates.empty() && s.outcome.candidates.front().result.feasible) s.outcome.plan = 0;
    settleOnACheckedPlan(s.outcome, space, searched, simulation);
    return std::move(s.outcome);
}

} // namespace rooftop
