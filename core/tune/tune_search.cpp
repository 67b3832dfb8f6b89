// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_search.h"

#include "core/common/enum_names.h"
#include "core/common/errors.h"
#include "core/common/splitmix.h"
#include "core/common/text_format.h"
#include "core/measure/run_power.h"
#include "core/measure/runs_file.h"
#include "core/onnx/dim_text.h"
#include "core/platform/mode_switcher.h"
#include "core/roofline/prediction_spread.h"
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

/// The surrogates of latency and power fitted to the ok samples so far. Power is read as the learner reads it
/// (powerFeaturesFor): at each sample's measured latency when fitting and at the latency surrogate's mean
/// when predicting; an LLM tune's at the roofline's, its power being the generation's average.
struct Surrogates {
    LogSurrogate latency, power;
    bool generations = false; ///< an LLM tune's samples
};

Surrogates fitSurrogates(const TuneSpace& space, const std::vector<TuneSample>& samples,
                         const TuneOptions& options) {
    std::vector<const TuneSample*> timed, powered;
    for (const TuneSample& s : samples) {
        if (!s.ok || !(s.latencyMs > 0)) continue;
        timed.push_back(&s);
        if (s.powerW > 0) powered.push_back(&s);
    }
    Surrogates s;
    s.generations = options.llm.active();
    auto fit = [&](LogSurrogate& surrogate, const std::vector<const TuneSample*>& points, bool power) {
        const Eigen::Index n = Eigen::Index(points.size());
        const Eigen::Index k = power ? powerFeatureCount : timeFeatureCount;
        Eigen::MatrixXd physics(n, k), positions(n, positionCount);
        Eigen::VectorXd measured(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const TuneSample& sample = *points[size_t(i)];
            const ConfigFeatures& f = space.features[sample.config];
            if (power)
                physics.row(i) = Eigen::Map<const Eigen::RowVectorXd>(
                    powerFeaturesFor(f, sample.latencyMs * 1e-3, s.generations).data(), k);
            else
                physics.row(i) = Eigen::Map<const Eigen::RowVectorXd>(f.time.data(), k);
            positions.row(i) = Eigen::Map<const Eigen::RowVectorXd>(f.position.data(), positionCount);
            measured[i] = power ? sample.powerW : sample.latencyMs * 1e-3;
        }
        surrogate.fit(physics, positions, measured);
    };
    fit(s.latency, timed, false);
    fit(s.power, powered, true);
    return s;
}

/// log of what the objective minimises for a configuration of latency `logSeconds` and power `logWatts`.
double logObjective(Objective objective, double logSeconds, double logWatts, int64_t batch) {
    if (objective == Objective::Latency) return logSeconds;
    return logSeconds + logWatts - std::log(double(std::max<int64_t>(1, batch))); // energy per inference
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

} // namespace

bool confidentlyFeasible(const TuneSample& s, const TuneOptions& options) {
    if (!s.feasible) return false;
    if (!(options.runNoise > 0)) return true;
    const double margin = std::exp(normalQuantile(options.limits.confidence) * options.runNoise /
                                   std::sqrt(double(s.measurements)));
    const bool slo = s.latencyMs * margin <= options.limits.latencySloSeconds.value_or(1e30) * 1e3;
    const bool cap = !options.limits.powerCapWatts || s.powerW * margin <= *options.limits.powerCapWatts;
    return slo && cap;
}

namespace {

/// The answer a tune's samples give: the best by the objective within the limits beyond its run noise, else
/// the best within them. `ownOnly`: only configurations this tune ran (the answer must be one; cbo's
/// incumbent may be another's run).
struct Answer {
    std::optional<size_t> sample; ///< index into the samples; nothing when none is within the limits
    bool confident = false;       ///< within them beyond its run noise
};

Answer bestAnswer(const std::vector<TuneSample>& samples, const TuneSpace& space, const TuneOptions& options,
                  bool ownOnly) {
    for (const bool confident : {true, false}) {
        Answer a{std::nullopt, confident};
        for (size_t i = 0; i < samples.size(); ++i) {
            const TuneSample& s = samples[i];
            if (!s.feasible || (ownOnly && s.ownRuns == 0) || (confident && !confidentlyFeasible(s, options)))
                continue;
            if (!a.sample || sampleKey(s, space, options.objective) <
                                 sampleKey(samples[*a.sample], space, options.objective))
                a.sample = i;
        }
        if (a.sample) return a;
    }
    return {};
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
    const Surrogates model = fitSurrogates(space, samples, options);
    // the incumbent: the objective of the answer the samples give now (any runs'), log units
    std::optional<double> best;
    if (const std::optional<size_t> i = bestAnswer(samples, space, options, false).sample) {
        const TuneSample& s = samples[*i];
        best = logObjective(options.objective, std::log(s.latencyMs * 1e-3), std::log(s.powerW),
                            space.configs[s.config].batch);
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
        const LogBelief power = model.power.at(
            powerFeaturesFor(f, std::exp(latency.mean), model.generations).data(), f.position.data());
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

/// "latency 7.104 ms > SLO 7.1 ms": with the digits that tell the two apart ("7.1 ms > SLO 7.1 ms" says
/// nothing).
std::string overLimit(const std::string& what, double value, const std::string& limitName, double limit,
                      const std::string& unit) {
    int digits = 4;
    while (digits < 9 && general(value, digits) == general(limit, digits))
        ++digits;
    return what + " " + general(value, digits) + " " + unit + " > " + limitName + " " +
           general(limit, digits) + " " + unit;
}

/// Fills feasible and reason from the measured numbers and the limits.
void judge(TuneSample& s, const Constraints& limits, Objective objective) {
    if (!s.ok) {
        s.feasible = false;
        return;
    }
    std::string why;
    const double slo = limits.latencySloSeconds.value_or(1e30) * 1e3;
    if (!(s.latencyMs <= slo)) why = overLimit("latency", s.latencyMs, "SLO", slo, "ms");
    if (limits.powerCapWatts) {
        std::string power;
        if (!(s.powerW > 0))
            power = "no power measured";
        else if (s.powerW > *limits.powerCapWatts)
            power = overLimit("power", s.powerW, "cap", *limits.powerCapWatts, "W");
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
    if (s.ok && row.llm.active()) {
        // a decode step of the batch's sequences; its power is the generation's average (the prefill's share
        // of the generation is small when it generates many tokens)
        s.ok = row.tpotMs.has_value();
        s.latencyMs = row.tpotMs.value_or(0.0);
        if (row.powerW) {
            s.powerW = *row.powerW;
            s.energyMj = s.powerW * s.latencyMs / batch;
        }
        if (!s.ok) s.reason = "no tpot_ms";
    } else if (s.ok) {
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
    s.ownAttempts += run.ownAttempts;
    if (run.ok) s.ownRuns += run.ownRuns;
    if (!run.ok) return; // a failed repeat leaves the numbers as they were, and counts as an attempt
    if (!s.ok) {
        const int attempts = s.attempts, ownRuns = s.ownRuns, ownAttempts = s.ownAttempts;
        const bool resumed = s.resumed;
        s = run;
        s.attempts = attempts;
        s.ownRuns = ownRuns;
        s.ownAttempts = ownAttempts;
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

double violation(const TuneSample& s, const Constraints& limits) {
    double v = std::max(0.0, s.latencyMs * 1e-3 / limits.latencySloSeconds.value_or(1e30) - 1.0);
    if (limits.powerCapWatts) v += s.powerW > 0 ? std::max(0.0, s.powerW / *limits.powerCapWatts - 1.0) : 1.0;
    return v;
}

void decide(TuneOutcome& out, const TuneSpace& space, const TuneOptions& options) {
    for (size_t i = 0; i < out.samples.size() && !out.baseline; ++i)
        if (out.samples[i].config == space.baseline && out.samples[i].ok) out.baseline = i;
    const Answer answer = bestAnswer(out.samples, space, options, true); // the answer is a run of this tune's
    out.recommended = answer.sample;
    if (answer.sample && !answer.confident)
        out.caveat = "the pick meets the limits by less than its run noise (not at " +
                     general(100.0 * options.limits.confidence, 3) + " % confidence)";
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

/// The best sample within the limits, by the objective; nothing when none is.
std::optional<size_t> bestFeasible(const std::vector<TuneSample>& samples, const TuneSpace& space,
                                   const TuneOptions& options) {
    std::optional<size_t> best;
    for (size_t i = 0; i < samples.size(); ++i)
        if (samples[i].feasible && (!best || sampleKey(samples[i], space, options.objective) <
                                                 sampleKey(samples[*best], space, options.objective)))
            best = i;
    return best;
}

/// The best sample within the limits when it lies within two standard errors of the run noise of a limit
/// and may still be run again; nothing otherwise.
std::optional<size_t> nearALimit(const std::vector<TuneSample>& samples, const TuneSpace& space,
                                 const TuneOptions& options) {
    const std::optional<size_t> best = bestFeasible(samples, space, options);
    if (!best || samples[*best].attempts >= options.maxMeasurements || !(options.runNoise > 0)) return {};
    const TuneSample& s = samples[*best];
    const double band = std::exp(-2.0 * options.runNoise / std::sqrt(double(s.measurements)));
    const bool nearSlo = s.latencyMs > options.limits.latencySloSeconds.value_or(1e30) * 1e3 * band;
    const bool nearCap = options.limits.powerCapWatts && s.powerW > *options.limits.powerCapWatts * band;
    if (nearSlo || nearCap) return best;
    return {};
}

/// The best sample within the limits, when this tune has not run it (it is known from others' runs only).
std::optional<size_t> bestUnconfirmed(const std::vector<TuneSample>& samples, const TuneSpace& space,
                                      const TuneOptions& options) {
    const std::optional<size_t> best = bestFeasible(samples, space, options);
    if (best && samples[*best].ownRuns == 0 && samples[*best].ownAttempts < options.maxMeasurements)
        return best;
    return {};
}

/// 64-bit FNV-1a, for the tune's identity.
uint64_t fnv1a(const std::string& text, uint64_t hash = 1469598103934665603ULL) {
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return hash;
}

/// runTuneSearch in named steps over its state: resume the runs file, measure the baseline (the initial
/// design), then choose and measure one configuration at a time until the budget is spent or a stop, restore
/// the mode and decide.
class TuneSearch {
public:
    TuneSearch(const DeviceSpec& device, const TuneSpace& space, const TuneEnvironment& env,
               const TuneOptions& options, const TuneProgressCallback& progress,
               const std::atomic<bool>* cancel)
        : device_(device), space_(space), env_(env), options_(options), progress_(progress), cancel_(cancel),
          tried_(space.configs.size(), 0), sampleOf_(space.configs.size(), 0) {}

    /// The whole search, once: the outcome with its recommendation.
    TuneOutcome run() {
        out_.origin = tuneOrigin(options_, space_);
        if (!options_.runsPath.empty()) {
            writer_ = std::make_unique<RunsFileWriter>(options_.runsPath); // locked from here on
            resume(
                readRunsFile(options_.runsPath)); // throws for a malformed file; counts what others appended
        }
        prepareRuns();
        if (options_.method == TuneMethod::Random) order_ = shuffledIndices(space_.candidates, options_.seed);
        spent_ = size_t(out_.resumed);
        if (out_.resumed > 0) notify();
        measureBaseline();
        measureBatchProbe();
        while (!out_.cancelled && spent_ < size_t(options_.budget))
            if (!step()) break;
        if (out_.cancelled) out_.stopReason = "cancelled";
        if (out_.stopReason.empty()) out_.stopReason = "budget spent";
        // throws when the restore fails; the journal then stays for the next start
        if (guard_) guard_->restore();
        decide(out_, space_, options_);
        noteWhatIsMissing();
        return std::move(out_);
    }

private:
    bool cancelled() const { return cancel_ && cancel_->load(); }
    void notify() {
        if (progress_) progress_(out_, space_);
    }

    /// Takes the runs file's rows of the space as resumed samples, the rows of one configuration averaged;
    /// refuses another model's, another board's or another runner's rows.
    void resume(const std::vector<RunRow>& rows) {
        if (!options_.model.empty()) checkRunsAreOf(rows, options_.runsPath, options_.model);
        std::map<std::string, size_t> indexOf;
        for (size_t i = 0; i < space_.configs.size(); ++i)
            indexOf.emplace(
                tuneKey(space_.configs[i], options_.dims, options_.phase, options_.optimizer, options_.llm),
                i);
        for (const RunRow& row : rows) {
            if (row.phase != options_.phase) continue;
            const auto found = indexOf.find(runKey(row));
            if (found == indexOf.end()) continue;
            const bool own = row.origin == out_.origin;
            checkSameBoard(row, space_.configs[found->second].mode);
            if (own) {
                checkSameRunner(row);
                ++out_.resumed; // failed runs count too: the budget counts every run, and none is retried
            } else if (row.runner != env_.runner->name()) {
                ++out_.otherRunner; // another runner's numbers are not this runner's
                continue;
            } else {
                ++out_.priorRuns;
            }
            TuneSample s = sampleFromRow(space_, found->second, row, options_);
            s.resumed = true;
            s.ownAttempts = own ? 1 : 0;
            s.ownRuns = own && s.ok ? 1 : 0;
            if (tried_[found->second]) { // a repeat: the mean of the runs
                mergeRun(out_.samples[out_.latest = sampleOf_[found->second]], s, options_);
                continue;
            }
            tried_[found->second] = 1;
            add(found->second, std::move(s));
        }
    }

    /// Refuses a row of another board (other clocks for the mode).
    void checkSameBoard(const RunRow& row, const PowerMode& mode) const {
        const std::string where = options_.runsPath + ":" + std::to_string(row.line) + ": ";
        if (row.cores != mode.onlineCores || row.cpuKhz != mode.cpuKhz || row.gpuHz != mode.gpuHz ||
            row.emcHz != mode.emcHz)
            throw InputError(where + "mode " + row.mode + " has other clocks or cores than on " + device_.id +
                             " (runs of another board?); use another runs file");
    }

    /// Refuses this tune's own earlier row when another runner made it.
    void checkSameRunner(const RunRow& row) const {
        const std::string where = options_.runsPath + ":" + std::to_string(row.line) + ": ";
        if (row.runner != env_.runner->name())
            throw InputError(where + "a run by " + row.runner + ", not by " + env_.runner->name() +
                             " (a tune resumes its own runner's runs only); use another runs file");
    }

    /// The power meter, the settle wait and the guard that restores the power mode.
    void prepareRuns() {
        if (env_.power) meter_ = std::make_unique<RunPowerMeter>(env_.power, env_.powerPeriod);
        sleep_ = env_.sleep ? env_.sleep : std::function<void(double)>([](double s) {
            std::this_thread::sleep_for(std::chrono::duration<double>(s));
        });
        if (env_.switcher) guard_ = std::make_unique<RestoreGuard>(*env_.switcher, *env_.journal);
    }

    /// The initial design: the baseline alone (its run recalibrates the prior), unless resumed.
    void measureBaseline() {
        if (tried_[space_.baseline] || spent_ >= size_t(options_.budget) || cancelled()) return;
        if (!measure(space_.baseline, std::nullopt, 0.0))
            out_.cancelled = true;
        else
            notify();
    }

    /// Chooses and measures one configuration; false when the search ends (cancelled, or a stop reason).
    bool step() {
        if (cancelled()) {
            out_.cancelled = true;
            return false;
        }
        std::optional<size_t> next;
        std::optional<Choice> choice;
        const auto start = std::chrono::steady_clock::now();
        if (const std::string why = runnerCannotRun(); !why.empty()) {
            out_.stopReason = why;
            return false;
        }
        if (const std::string why = fastestMissTheSlo(); !why.empty()) {
            out_.stopReason = why;
            return false;
        }
        if (const std::optional<size_t> unsure = nearALimit(out_.samples, space_, options_)) {
            next = out_.samples[*unsure].config; // noise requires it: run the best sample again
        } else if (const std::optional<size_t> known = bestUnconfirmed(out_.samples, space_, options_)) {
            next = out_.samples[*known].config; // the answer must be a run of this tune's
        } else if (options_.method == TuneMethod::Cbo) {
            choice = chooseCbo(space_, out_.samples, options_);
            if (choice && hopeless(*choice)) {
                out_.stopReason = "no configuration is expected to meet the limits (the best has " +
                                  (choice->score < 1e-4 ? std::string("less than a 0.01 %")
                                                        : "a " + general(100.0 * choice->score, 2) + " %") +
                                  " chance)";
                return false;
            }
            if (choice && stopsEarly(*choice)) {
                out_.stopReason = "no untried configuration is expected to improve on the answer";
                return false;
            }
            if (choice) next = choice->config;
        } else {
            next = nextInOrder();
        }
        const double chooseMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!next) {
            out_.stopReason = "every configuration measured";
            return false;
        }
        if (!measure(*next, choice, chooseMs)) {
            out_.cancelled = true;
            return false;
        }
        notify();
        return true;
    }

    /// cbo's early stop: a configuration within the limits measured, enough samples, and no choice that
    /// expects a worthwhile improvement.
    bool stopsEarly(const Choice& choice) const {
        const bool anyFeasible = std::any_of(out_.samples.begin(), out_.samples.end(),
                                             [](const TuneSample& s) { return s.feasible; });
        return options_.earlyStop && anyFeasible && choice.score < options_.stopImprovement &&
               out_.samples.size() >= size_t(options_.minSamplesBeforeStop) + (probed_ ? 1 : 0);
    }

    /// Why the search stops because the runner cannot run (failuresBeforeStop failed runs in a row made now,
    /// and no run ok at all); empty otherwise.
    std::string runnerCannotRun() const {
        if (options_.failuresBeforeStop < 1 || failedInARow_ < options_.failuresBeforeStop) return {};
        if (std::any_of(out_.samples.begin(), out_.samples.end(), [](const TuneSample& s) { return s.ok; }))
            return {};
        return "the runner failed " + std::to_string(failedInARow_) +
               " times in a row and never ran (last: " + lastFailure_ + ")";
    }

    /// Why no configuration can meet the SLO, by measurement: nothing within the limits measured, and every
    /// fastest configuration of the space (the baseline's clocks at each precision's smallest batch: lower
    /// clocks, fewer cores and larger batches only take longer) ran over the SLO beyond its run noise; empty
    /// otherwise, or while one of them is unmeasured.
    std::string fastestMissTheSlo() const {
        if (!options_.earlyStop || !options_.limits.latencySloSeconds) return {};
        if (std::any_of(out_.samples.begin(), out_.samples.end(),
                        [](const TuneSample& s) { return s.feasible; }))
            return {};
        const double sloMs = *options_.limits.latencySloSeconds * 1e3;
        const PowerMode& top = space_.configs[space_.baseline].mode;
        std::map<Precision, int64_t> smallestBatch; // of the candidates, per precision
        for (size_t i = 0; i < space_.candidates; ++i) {
            const TuneConfig& c = space_.configs[i];
            if (c.mode.onlineCores > top.onlineCores || c.mode.cpuKhz > top.cpuKhz ||
                c.mode.gpuHz > top.gpuHz || c.mode.emcHz > top.emcHz)
                return {}; // a clock above the baseline's: the baseline is not the fastest
            const auto found = smallestBatch.find(c.precision);
            if (found == smallestBatch.end() || c.batch < found->second) smallestBatch[c.precision] = c.batch;
        }
        std::map<Precision, size_t> fastest; // per precision: the top clocks at that batch or a smaller one
        for (size_t i = 0; i < space_.configs.size(); ++i) {
            const TuneConfig& c = space_.configs[i];
            const auto batch = smallestBatch.find(c.precision);
            if (batch == smallestBatch.end() || c.batch > batch->second ||
                c.mode.onlineCores != top.onlineCores || c.mode.cpuKhz != top.cpuKhz ||
                c.mode.gpuHz != top.gpuHz || c.mode.emcHz != top.emcHz)
                continue;
            const auto [it, added] = fastest.emplace(c.precision, i);
            if (!added && !tried_[it->second] && tried_[i]) it->second = i;
        }
        if (fastest.size() != smallestBatch.size()) return {}; // a precision's fastest is not in the space
        double quickest = std::numeric_limits<double>::infinity();
        for (const auto& [precision, index] : fastest) {
            if (!tried_[index]) return {};
            const TuneSample& s = out_.samples[sampleOf_[index]];
            const double beyondNoise = std::exp(2.0 * options_.runNoise / std::sqrt(double(s.measurements)));
            if (!s.ok || !(s.latencyMs > sloMs * beyondNoise)) return {};
            quickest = std::min(quickest, s.latencyMs);
        }
        return "no configuration can meet the SLO: the fastest (" + top.name + " at its smallest batch" +
               (fastest.size() > 1 ? ", each precision" : "") + ") took " + general(quickest, 4) +
               " ms a batch, over the SLO of " + general(sloMs, 4) + " ms beyond the run noise";
    }

    /// cbo's stop for a hopeless limit: nothing within the limits measured, the prior recalibrated by at
    /// least two ok runs, and no candidate left that meets the limits with the chance hopelessChance.
    bool hopeless(const Choice& choice) const {
        const bool anyFeasible = std::any_of(out_.samples.begin(), out_.samples.end(),
                                             [](const TuneSample& s) { return s.feasible; });
        const auto ok =
            std::count_if(out_.samples.begin(), out_.samples.end(), [](const TuneSample& s) { return s.ok; });
        return options_.earlyStop && !anyFeasible && ok >= 2 && choice.score < options_.hopelessChance;
    }

    /// The initial design's second run, for the batch axis that the prior knows least: the baseline's clocks
    /// at the next batch of the space that the prior, rescaled by the baseline's measured latency, expects
    /// within the SLO (none when the space has one batch, the baseline failed or none is expected within).
    void measureBatchProbe() {
        if (!options_.batchProbe || options_.method != TuneMethod::Cbo || spent_ >= size_t(options_.budget) ||
            cancelled() || !tried_[space_.baseline])
            return;
        const TuneSample& base = out_.samples[sampleOf_[space_.baseline]];
        if (!base.ok || !(base.predictedLatencyMs > 0)) return;
        const double scale = base.latencyMs / base.predictedLatencyMs;
        const TuneConfig& baseConfig = space_.configs[space_.baseline];
        const double slo = options_.limits.latencySloSeconds.value_or(1e30);
        std::optional<size_t> probe;
        for (size_t i = 0; i < space_.candidates; ++i) {
            const TuneConfig& c = space_.configs[i];
            const PowerMode& m = c.mode;
            const PowerMode& b = baseConfig.mode; // a grid names the baseline's clocks otherwise
            if (m.onlineCores != b.onlineCores || m.cpuKhz != b.cpuKhz || m.gpuHz != b.gpuHz ||
                m.emcHz != b.emcHz || c.precision != baseConfig.precision || c.batch == baseConfig.batch ||
                tried_[i])
                continue;
            if (space_.predictedLatencySeconds(i) * scale > slo) continue;
            if (!probe || c.batch < space_.configs[*probe].batch) probe = i;
        }
        if (!probe) return;
        probed_ = true;
        if (!measure(*probe, std::nullopt, 0.0))
            out_.cancelled = true;
        else
            notify();
    }

    /// Adds `more` to the answer's caveat, after what it already says.
    void addCaveat(const std::string& more) { out_.caveat += (out_.caveat.empty() ? "" : "; ") + more; }

    /// What the answer still lacks when the search ended: a pick within the run noise of a limit that the
    /// budget left no repeat for, or a better configuration known from others' runs that was not run.
    void noteWhatIsMissing() {
        if (out_.cancelled) return;
        if (const std::optional<size_t> unsure = nearALimit(out_.samples, space_, options_);
            unsure && out_.recommended && *unsure == *out_.recommended)
            addCaveat(
                "the budget ran out before the pick could be run again: it lies within the run noise of "
                "a limit");
        else if (const std::optional<size_t> known = bestUnconfirmed(out_.samples, space_, options_))
            addCaveat("the budget ran out before " + space_.configs[out_.samples[*known].config].mode.name +
                      " at batch " + std::to_string(space_.configs[out_.samples[*known].config].batch) +
                      ", better in earlier runs, could be run by this tune");
    }

    /// random and exhaustive: the next untried configuration of the order.
    std::optional<size_t> nextInOrder() {
        while (cursor_ < space_.candidates) {
            const size_t i = options_.method == TuneMethod::Random ? order_[cursor_] : cursor_;
            ++cursor_;
            if (!tried_[i]) return i;
        }
        return std::nullopt;
    }

    /// Measures one configuration (a repeat is folded into its sample); false when cancelled (no sample
    /// then).
    bool measure(size_t index, const std::optional<Choice>& choice, double chooseMs) {
        const TuneConfig& config = space_.configs[index];
        const bool repeat = tried_[index] != 0;
        tried_[index] = 1;
        const RunConfig run{config.mode,      config.batch,
                            config.precision, options_.phase,
                            options_.dims,    options_.optimizer,
                            options_.llm,     repeat ? out_.samples[sampleOf_[index]].attempts : 0};
        if (env_.switcher && config.mode.name != inForce_) {
            if (const std::string why = switchTo(config.mode); !why.empty()) {
                switchFailed(index, run, why, repeat);
                return true;
            }
            sleep_(options_.settleSeconds);
        }
        bool measured = false;
        const RunResult result = runMeasured(device_, *env_.runner, run, meter_.get(), cancel_, &measured);
        if (cancelled() && !result.ok) return false; // killed by the cancel: no row
        const RunRow row = appendRow(run, result);
        ++out_.runsMade;
        ++spent_;
        failedInARow_ = row.ok() ? 0 : failedInARow_ + 1;
        if (!row.ok()) lastFailure_ = row.status;
        TuneSample s = sampleFromRow(space_, index, row, options_);
        s.ownAttempts = 1;
        s.ownRuns = s.ok ? 1 : 0;
        if (repeat) {
            ++out_.repeats;
            mergeRun(out_.samples[out_.latest = sampleOf_[index]], s, options_);
            return true;
        }
        s.chooseMs = chooseMs;
        if (choice) {
            s.surrogateLatencyMs = choice->latencyMs;
            s.surrogateEnergyMj = choice->energyMj;
            s.expectedImprovement = choice->score;
        }
        add(index, std::move(s));
        return true;
    }

    /// Switches to `mode`; why not, when a reboot would be needed or the switch failed (empty when done).
    std::string switchTo(const PowerMode& mode) {
        std::string why = rebootReason(device_, env_.switcher->observe(), mode);
        if (!why.empty()) return why;
        guard_->beforeChange();
        try {
            switchAndVerify(*env_.switcher, mode);
            inForce_ = mode.name;
        } catch (const UnavailableError& error) {
            why = error.what();
        }
        return why;
    }

    /// A mode that could not be switched to: a failed row, so that a resumed tune counts it and does not try
    /// it again, and (unless a repeat) a failed sample.
    void switchFailed(size_t index, const RunConfig& run, const std::string& why, bool repeat) {
        RunResult failed;
        failed.failure = "switch: " + why;
        const RunRow row = appendRow(run, failed);
        inForce_.clear();
        ++spent_;
        ++failedInARow_;
        lastFailure_ = row.status;
        TuneSample s = sampleFromRow(space_, index, row, options_);
        s.ownAttempts = 1;
        if (repeat)
            mergeRun(out_.samples[out_.latest = sampleOf_[index]], s, options_);
        else
            add(index, std::move(s));
    }

    /// The runs file's row of a run, appended at once when there is a runs file.
    RunRow appendRow(const RunConfig& run, const RunResult& result) {
        RunRow row = runRowFrom(run, result, env_.runner->name(), out_.origin);
        row.model = options_.model;
        if (writer_) writer_->append(row);
        return row;
    }

    /// A new sample of configuration `index`.
    void add(size_t index, TuneSample s) {
        sampleOf_[index] = out_.latest = out_.samples.size();
        out_.samples.push_back(std::move(s));
    }

    const DeviceSpec& device_;
    const TuneSpace& space_;
    const TuneEnvironment& env_;
    const TuneOptions& options_;
    const TuneProgressCallback& progress_;
    const std::atomic<bool>* cancel_;
    TuneOutcome out_;
    std::vector<char> tried_;
    std::vector<size_t> sampleOf_; ///< the sample of each tried configuration
    size_t spent_ = 0;             ///< runs counted in the budget
    std::vector<size_t> order_;    ///< random: a seeded permutation of the candidates
    size_t cursor_ = 0;
    std::string inForce_; ///< the mode this search switched to last
    std::unique_ptr<RunsFileWriter> writer_;
    std::unique_ptr<RunPowerMeter> meter_;
    std::function<void(double)> sleep_;
    std::unique_ptr<RestoreGuard> guard_;
    bool probed_ = false;  ///< the initial design's batch probe was run (it does not count toward the stop)
    int failedInARow_ = 0; ///< failed runs made now since the last ok one
    std::string lastFailure_; ///< the last failed run's status
};

} // namespace

namespace {
const EnumName<TuneMethod> tuneMethodNames[] = {
    {TuneMethod::Cbo, "cbo"}, {TuneMethod::Random, "random"}, {TuneMethod::Exhaustive, "exhaustive"}};
} // namespace

std::string energyItem(const TuneOptions& options) {
    return options.llm.active() ? "output token" : options.phase == Phase::Training ? "sample" : "inference";
}

const char* tuneMethodName(TuneMethod method) {
    return nameIn(tuneMethodNames, method);
}

std::optional<TuneMethod> parseTuneMethod(std::string_view text) {
    return parseIn(tuneMethodNames, text);
}

std::string tuneOrigin(const TuneOptions& options, const TuneSpace& space) {
    std::string identity = options.model + "\n" + namedDimsText(options.dims) + "\n" +
                           general(options.limits.latencySloSeconds.value_or(0), 9) + "\n" +
                           general(options.limits.powerCapWatts.value_or(0), 9) + "\n" +
                           objectiveName(options.objective) + "\n" + tuneMethodName(options.method) + "\n" +
                           std::to_string(options.seed);
    // An inference tune's identity is what it always was, so that its earlier runs stay its own.
    if (options.phase == Phase::Training) identity += "\ntraining\n" + optimizerName(options.optimizer);
    uint64_t hash = fnv1a(identity);
    for (size_t i = 0; i < space.candidates; ++i)
        hash = fnv1a(tuneKey(space.configs[i], options.dims, options.phase, options.optimizer, options.llm) +
                         "\n",
                     hash);
    static const char digits[] = "0123456789abcdef";
    std::string hex(8, '0');
    for (size_t i = 0; i < 8; ++i)
        hex[i] = digits[(hash >> (60 - 4 * i)) & 0xf];
    return "tune:" + hex;
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
    return TuneSearch(device, space, env, options, progress, cancel).run();
}

} // namespace rooftop
