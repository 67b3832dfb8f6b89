// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_search.h"

#include "core/common/errors.h"
#include "core/common/splitmix.h"
#include "core/common/text_format.h"
#include "core/measure/run_power.h"
#include "core/measure/runs_file.h"
#include "core/platform/mode_switcher.h"
#include "core/tune/constrained_ei.h"
#include "core/tune/tune_surrogate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <thread>

namespace rooftop {

namespace {

/// The surrogates of latency and power fitted to the ok samples so far.
struct Surrogates {
    LogSurrogate latency, power;
};

Surrogates fitSurrogates(const TuneSpace& space, const std::vector<TuneSample>& samples) {
    std::vector<const TuneSample*> timed, powered;
    for (const TuneSample& s : samples) {
        if (!s.ok || !(s.latencyMs > 0)) continue;
        timed.push_back(&s);
        if (s.powerW > 0) powered.push_back(&s);
    }
    auto fit = [&](LogSurrogate& surrogate, const std::vector<const TuneSample*>& points, bool power) {
        const Eigen::Index n = Eigen::Index(points.size());
        const Eigen::Index k = power ? powerFeatureCount : timeFeatureCount;
        Eigen::MatrixXd physics(n, k), positions(n, positionCount);
        Eigen::VectorXd measured(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const ConfigFeatures& f = space.features[points[size_t(i)]->config];
            physics.row(i) = Eigen::Map<const Eigen::RowVectorXd>(power ? f.power.data() : f.time.data(), k);
            positions.row(i) = Eigen::Map<const Eigen::RowVectorXd>(f.position.data(), positionCount);
            measured[i] = power ? points[size_t(i)]->powerW : points[size_t(i)]->latencyMs * 1e-3;
        }
        surrogate.fit(physics, positions, measured);
    };
    Surrogates s;
    fit(s.latency, timed, false);
    fit(s.power, powered, true);
    return s;
}

/// log of what the objective minimises for a configuration of latency `logSeconds` and power `logWatts`.
double logObjective(Objective objective, double logSeconds, double logWatts, int64_t batch) {
    if (objective == Objective::Latency) return logSeconds;
    return logSeconds + logWatts - std::log(double(std::max<int64_t>(1, batch))); // energy per inference
}

struct Choice {
    size_t config = 0;
    double score = 0.0;
    double latencyMs = 0.0, energyMj = 0.0;
};

std::optional<Choice> chooseCbo(const TuneSpace& space, const std::vector<TuneSample>& samples,
                                const TuneOptions& options) {
    std::vector<char> tried(space.configs.size(), 0);
    for (const TuneSample& s : samples)
        tried[s.config] = 1;
    const Surrogates model = fitSurrogates(space, samples);
    std::optional<double> best; // the best measured objective within the limits, log units
    for (const TuneSample& s : samples)
        if (s.ok && s.feasible) {
            const double f = logObjective(options.objective, std::log(s.latencyMs * 1e-3), std::log(s.powerW),
                                          space.configs[s.config].batch);
            if (!best || f < *best) best = f;
        }
    const double spread = options.objective == Objective::Latency
                              ? model.latency.signalSd()
                              : std::hypot(model.latency.signalSd(), model.power.signalSd());
    const double xi = options.xi * spread;
    const double logSlo = std::log(options.limits.latencySloSeconds.value_or(1e30));
    const double logCap = std::log(options.limits.powerCapWatts.value_or(1e30));
    std::optional<Choice> choice;
    for (size_t i = 0; i < space.candidates; ++i) {
        if (tried[i]) continue;
        const ConfigFeatures& f = space.features[i];
        const LogBelief latency = model.latency.at(f.time.data(), f.position.data());
        const LogBelief power = model.power.at(f.power.data(), f.position.data());
        const double latencySd = std::sqrt(latency.variance), powerSd = std::sqrt(power.variance);
        double feasible = probabilityBelow(latency.mean, latencySd, logSlo);
        if (options.limits.powerCapWatts) feasible *= probabilityBelow(power.mean, powerSd, logCap);
        const int64_t batch = space.configs[i].batch;
        const double mean = logObjective(options.objective, latency.mean, power.mean, batch);
        const double sd =
            options.objective == Objective::Latency ? latencySd : std::hypot(latencySd, powerSd);
        const double score = best ? expectedImprovement(mean, sd, *best, xi) * feasible : feasible;
        if (!choice || score > choice->score)
            choice = Choice{i, score, std::exp(latency.mean) * 1e3,
                            std::exp(logObjective(Objective::Energy, latency.mean, power.mean, batch)) * 1e3};
    }
    return choice;
}

/// Fills feasible and reason from the measured numbers and the limits.
void judge(TuneSample& s, const Constraints& limits, Objective objective) {
    if (!s.ok) {
        s.feasible = false;
        return;
    }
    std::string why;
    const double slo = limits.latencySloSeconds.value_or(1e30) * 1e3;
    if (!(s.latencyMs <= slo))
        why = "latency " + general(s.latencyMs, 4) + " ms > SLO " + general(slo, 4) + " ms";
    if (limits.powerCapWatts) {
        std::string power;
        if (!(s.powerW > 0))
            power = "no power measured";
        else if (s.powerW > *limits.powerCapWatts)
            power = "power " + general(s.powerW, 4) + " W > cap " + general(*limits.powerCapWatts, 4) + " W";
        if (!power.empty()) why += (why.empty() ? "" : "; ") + power;
    }
    if (objective != Objective::Latency && !(s.powerW > 0) && why.empty())
        why = "no power measured (the objective needs energy)";
    s.feasible = why.empty();
    s.reason = why;
}

TuneSample sampleFromRow(const TuneSpace& space, size_t index, const RunRow& row,
                         const TuneOptions& options) {
    TuneSample s;
    s.config = index;
    s.predictedLatencyMs = space.predictedLatencySeconds(index) * 1e3;
    s.predictedPowerW = space.predictedWatts(index);
    const double batch = double(std::max<int64_t>(1, space.configs[index].batch));
    s.predictedEnergyMj = s.predictedLatencyMs * s.predictedPowerW / batch;
    s.runner = row.runner;
    s.ok = row.ok() && row.latencyMs && *row.latencyMs > 0;
    if (s.ok) {
        s.latencyMs = *row.latencyMs;
        if (row.powerW) s.powerW = *row.powerW;
        if (row.energyMj) s.energyMj = *row.energyMj / batch;
    } else {
        s.reason = row.status == "ok" ? "no latency" : row.status;
    }
    judge(s, options.limits, options.objective);
    return s;
}

/// Folds one more run of the same configuration into a sample: the mean of its runs, judged again.
void mergeRun(TuneSample& s, const TuneSample& run, const TuneOptions& options) {
    ++s.attempts;
    if (!run.ok) return; // a failed repeat leaves the numbers as they were, and counts as an attempt
    if (!s.ok) {
        const int attempts = s.attempts;
        const bool resumed = s.resumed;
        s = run;
        s.attempts = attempts;
        s.resumed = resumed;
        return;
    }
    const double n = double(s.measurements);
    auto mean = [n](double a, double b) {
        return std::isfinite(a) && std::isfinite(b) ? (a * n + b) / (n + 1) : a;
    };
    s.latencyMs = mean(s.latencyMs, run.latencyMs);
    s.powerW = mean(s.powerW, run.powerW);
    s.energyMj = mean(s.energyMj, run.energyMj);
    ++s.measurements;
    judge(s, options.limits, options.objective);
}

/// The ranking key of a sample for the objective (lower is better), as the advisor ranks candidates.
std::pair<double, double> sampleKey(const TuneSample& s, const TuneSpace& space, Objective objective) {
    Candidate c;
    c.batch = space.configs[s.config].batch;
    c.summary.latencySeconds = s.latencyMs * 1e-3;
    c.summary.averageWatts = s.powerW;
    c.summary.energyJoules = s.energyMj * 1e-3 * double(c.batch);
    return objectiveKey(c, objective);
}

double violation(const TuneSample& s, const Constraints& limits) {
    double v = std::max(0.0, s.latencyMs * 1e-3 / limits.latencySloSeconds.value_or(1e30) - 1.0);
    if (limits.powerCapWatts) v += s.powerW > 0 ? std::max(0.0, s.powerW / *limits.powerCapWatts - 1.0) : 1.0;
    return v;
}

void decide(TuneOutcome& out, const TuneSpace& space, const TuneOptions& options) {
    for (size_t i = 0; i < out.samples.size(); ++i) {
        const TuneSample& s = out.samples[i];
        if (s.config == space.baseline && s.ok && !out.baseline) out.baseline = i;
        if (!s.feasible) continue;
        if (!out.recommended || sampleKey(s, space, options.objective) <
                                    sampleKey(out.samples[*out.recommended], space, options.objective))
            out.recommended = i;
    }
    if (out.recommended && out.baseline) {
        const double base = out.samples[*out.baseline].energyMj,
                     chosen = out.samples[*out.recommended].energyMj;
        out.savingPercent = base > 0 && std::isfinite(base) && std::isfinite(chosen)
                                ? 100.0 * (base - chosen) / base
                                : std::numeric_limits<double>::quiet_NaN(); // energy not measured: no saving
    }
    if (out.recommended) return;
    std::vector<size_t> ok;
    for (size_t i = 0; i < out.samples.size(); ++i)
        if (out.samples[i].ok) ok.push_back(i);
    std::stable_sort(ok.begin(), ok.end(), [&](size_t a, size_t b) {
        return violation(out.samples[a], options.limits) < violation(out.samples[b], options.limits);
    });
    ok.resize(std::min(ok.size(), closestCount));
    out.closest = ok;
}

void checkOptions(const TuneOptions& options) {
    if (options.budget < 1) throw InputError("tune: --budget must be at least 1");
    if (!options.limits.latencySloSeconds) throw InputError("tune: --latency-slo MS is required");
    validateConstraints(options.limits);
    if (!(options.xi >= 0)) throw InputError("tune: xi must be >= 0");
}

/// The best sample within the limits when it lies within two standard errors of the run noise of a limit
/// and may still be run again; nothing otherwise.
std::optional<size_t> nearALimit(const std::vector<TuneSample>& samples, const TuneSpace& space,
                                 const TuneOptions& options) {
    std::optional<size_t> best;
    for (size_t i = 0; i < samples.size(); ++i)
        if (samples[i].feasible && (!best || sampleKey(samples[i], space, options.objective) <
                                                 sampleKey(samples[*best], space, options.objective)))
            best = i;
    if (!best || samples[*best].attempts >= options.maxMeasurements || !(options.runNoise > 0)) return {};
    const TuneSample& s = samples[*best];
    const double band = std::exp(-2.0 * options.runNoise / std::sqrt(double(s.measurements)));
    const bool nearSlo = s.latencyMs > options.limits.latencySloSeconds.value_or(1e30) * 1e3 * band;
    const bool nearCap = options.limits.powerCapWatts && s.powerW > *options.limits.powerCapWatts * band;
    if (nearSlo || nearCap) return best;
    return {};
}

} // namespace

const char* tuneMethodName(TuneMethod method) {
    switch (method) {
    case TuneMethod::Cbo:
        return "cbo";
    case TuneMethod::Random:
        return "random";
    case TuneMethod::Exhaustive:
        return "exhaustive";
    }
    return "cbo";
}

bool parseTuneMethod(const std::string& text, TuneMethod& out) {
    for (TuneMethod m : {TuneMethod::Cbo, TuneMethod::Random, TuneMethod::Exhaustive})
        if (text == tuneMethodName(m)) {
            out = m;
            return true;
        }
    return false;
}

std::optional<std::pair<size_t, double>>
nextCboSample(const TuneSpace& space, const std::vector<TuneSample>& samples, const TuneOptions& options) {
    const std::optional<Choice> c = chooseCbo(space, samples, options);
    if (!c) return std::nullopt;
    return std::make_pair(c->config, c->score);
}

TuneOutcome runTuneSearch(const DeviceSpec& device, const TuneSpace& space, const TuneEnvironment& env,
                          const TuneOptions& options, const TuneProgressCallback& progress,
                          const std::atomic<bool>* cancel) {
    checkOptions(options);
    if (!env.runner) throw InputError("tune: no runner");
    if (env.switcher && !env.journal) throw UnavailableError("mode switching needs a restore journal");
    if (space.candidates == 0) throw InputError("tune: nothing to search");

    TuneOutcome out;
    std::map<std::string, size_t> indexOf;
    for (size_t i = 0; i < space.configs.size(); ++i)
        indexOf.emplace(tuneKey(space.configs[i], options.dims), i);
    std::vector<char> tried(space.configs.size(), 0);
    std::vector<size_t> sampleOf(space.configs.size(), 0); // the sample of each tried configuration
    size_t spent = 0;                                      // runs counted in the budget
    std::unique_ptr<RunsFileWriter> writer;
    if (!options.runsPath.empty()) {
        const std::vector<RunRow> rows = readRunsFile(options.runsPath); // throws for a malformed file
        if (!options.model.empty()) checkRunsAreOf(rows, options.runsPath, options.model);
        for (const RunRow& row : rows) {
            if (row.phase != "inference") continue;
            const auto found = indexOf.find(runKey(row.mode, row.batch, row.precision, row.phase, row.dims));
            if (found == indexOf.end()) continue;
            const PowerMode& mode = space.configs[found->second].mode;
            const std::string where = options.runsPath + ":" + std::to_string(row.line) + ": ";
            if (row.cores != mode.onlineCores || row.cpuKhz != mode.cpuKhz || row.gpuHz != mode.gpuHz ||
                row.emcHz != mode.emcHz)
                throw InputError(where + "mode " + row.mode + " has other clocks or cores than on " +
                                 device.id + " (runs of another board?); use another runs file");
            if (row.runner != env.runner->name())
                throw InputError(where + "a run by " + row.runner + ", not by " + env.runner->name() +
                                 " (a tune resumes its own runner's runs only); use another runs file");
            ++out.resumed; // failed runs count too: the budget counts every run, and none is retried
            if (tried[found->second]) { // a repeat: the mean of the runs
                mergeRun(out.samples[sampleOf[found->second]],
                         sampleFromRow(space, found->second, row, options), options);
                continue;
            }
            tried[found->second] = 1;
            sampleOf[found->second] = out.samples.size();
            out.samples.push_back(sampleFromRow(space, found->second, row, options));
            out.samples.back().resumed = true;
        }
        writer = std::make_unique<RunsFileWriter>(options.runsPath);
    }
    std::unique_ptr<RunPowerMeter> meter;
    if (env.power) meter = std::make_unique<RunPowerMeter>(*env.power, env.powerPeriod);
    const auto sleep = env.sleep ? env.sleep : std::function<void(double)>([](double s) {
        std::this_thread::sleep_for(std::chrono::duration<double>(s));
    });
    std::unique_ptr<RestoreGuard> guard;
    if (env.switcher) guard = std::make_unique<RestoreGuard>(*env.switcher, *env.journal);
    std::string inForce; // the mode this search switched to last

    // Measures one configuration; false when cancelled (no sample then).
    auto measure = [&](size_t index, const std::optional<Choice>& choice, double chooseMs) {
        const TuneConfig& config = space.configs[index];
        const bool repeat = tried[index] != 0;
        tried[index] = 1;
        if (env.switcher && config.mode.name != inForce) {
            std::string why = rebootReason(device, env.switcher->observe(), config.mode);
            if (why.empty()) {
                guard->beforeChange();
                try {
                    switchAndVerify(*env.switcher, config.mode);
                    inForce = config.mode.name;
                } catch (const UnavailableError& error) {
                    why = error.what();
                }
            }
            if (!why.empty()) { // a failed row, so that a resumed tune counts it and does not try it again
                RunResult failed;
                failed.failure = "switch: " + why;
                RunRow row = runRowFrom(
                    RunConfig{config.mode, config.batch, config.precision, "inference", options.dims}, failed,
                    env.runner->name());
                row.model = options.model;
                if (writer) writer->append(row);
                inForce.clear();
                ++spent;
                if (repeat) return true;
                sampleOf[index] = out.samples.size();
                out.samples.push_back(sampleFromRow(space, index, row, options));
                return true;
            }
            sleep(options.settleSeconds);
        }
        const RunConfig run{config.mode, config.batch, config.precision, "inference", options.dims};
        bool measured = false;
        const RunResult result = runMeasured(*env.runner, run, meter.get(), cancel, &measured);
        if (cancel && cancel->load() && !result.ok) return false; // killed by the cancel: no row
        RunRow row = runRowFrom(run, result, env.runner->name());
        row.model = options.model;
        if (writer) writer->append(row);
        ++out.runsMade;
        ++spent;
        TuneSample s = sampleFromRow(space, index, row, options);
        if (repeat) {
            ++out.repeats;
            mergeRun(out.samples[sampleOf[index]], s, options);
            return true;
        }
        sampleOf[index] = out.samples.size();
        s.chooseMs = chooseMs;
        if (choice) {
            s.surrogateLatencyMs = choice->latencyMs;
            s.surrogateEnergyMj = choice->energyMj;
            s.expectedImprovement = choice->score;
        }
        out.samples.push_back(std::move(s));
        return true;
    };

    std::vector<size_t> order; // random: a seeded permutation of the candidates
    if (options.method == TuneMethod::Random) {
        order.resize(space.candidates);
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        SplitMix64 random(options.seed);
        for (size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[random.below(i)]);
    }
    size_t cursor = 0;
    const auto budget = size_t(options.budget);
    auto cancelled = [&] { return cancel && cancel->load(); };
    auto notify = [&] {
        if (progress) progress(out, space);
    };
    spent = size_t(out.resumed);
    if (out.resumed > 0) notify();
    if (!tried[space.baseline] && spent < budget && !cancelled()) {
        if (!measure(space.baseline, std::nullopt, 0.0))
            out.cancelled = true;
        else
            notify();
    }
    while (!out.cancelled && spent < budget) {
        if (cancelled()) {
            out.cancelled = true;
            break;
        }
        std::optional<size_t> next;
        std::optional<Choice> choice;
        const auto start = std::chrono::steady_clock::now();
        if (const std::optional<size_t> unsure = nearALimit(out.samples, space, options)) {
            next = out.samples[*unsure].config; // noise requires it: run the best sample again
        } else if (options.method == TuneMethod::Cbo) {
            choice = chooseCbo(space, out.samples, options);
            const bool anyFeasible = std::any_of(out.samples.begin(), out.samples.end(),
                                                 [](const TuneSample& s) { return s.feasible; });
            if (choice && options.earlyStop && anyFeasible && choice->score < options.stopImprovement &&
                out.samples.size() >= size_t(options.minSamplesBeforeStop)) {
                out.stopReason = "expected improvement negligible";
                break;
            }
            if (choice) next = choice->config;
        } else {
            while (cursor < space.candidates) {
                const size_t i = options.method == TuneMethod::Random ? order[cursor] : cursor;
                ++cursor;
                if (!tried[i]) {
                    next = i;
                    break;
                }
            }
        }
        const double chooseMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!next) {
            out.stopReason = "every configuration measured";
            break;
        }
        if (!measure(*next, choice, chooseMs)) {
            out.cancelled = true;
            break;
        }
        notify();
    }
    if (out.cancelled) out.stopReason = "cancelled";
    if (out.stopReason.empty()) out.stopReason = "budget spent";
    if (guard) guard->restore(); // throws when the restore fails; the journal then stays for the next start
    decide(out, space, options);
    return out;
}

} // namespace rooftop
