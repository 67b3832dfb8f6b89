// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/measure/runner.h"
#include "core/platform/power_sampler.h"
#include "core/platform/restore_journal.h"
#include "core/tune/tune_space.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooftop {

/// How the next configuration is chosen.
enum class TuneMethod {
    Cbo,       ///< constrained Bayesian optimisation: the largest constrained expected improvement
    Random,    ///< a seeded permutation of the space
    Exhaustive ///< the space in order
};

/// "cbo", "random" or "exhaustive".
const char* tuneMethodName(TuneMethod method);
/// Parses a method name; nothing when unknown.
std::optional<TuneMethod> parseTuneMethod(std::string_view text);

/// What a tune searches for and how much it may measure.
struct TuneOptions {
    TuneMethod method = TuneMethod::Cbo; ///< how the next configuration is chosen
    int budget = 15;   ///< the runs this tune makes, its own earlier runs in the runs file included
    uint64_t seed = 0; ///< random's permutation
    Objective objective = Objective::Energy; ///< what the answer minimises or maximises
    Constraints limits;   ///< latency SLO (of one batch) and power cap; the slowdown is not used
    std::string runsPath; ///< the runs file: resumed, and every run appended at once; empty: none
    std::string model;    ///< runsModelKey of the model: written with each row, another's runs refused
    std::map<std::string, int64_t>
        dims;                       ///< the model's dims bound: in every run and row; other dims' rows unused
    Phase phase = Phase::Inference; ///< what each run runs: inferences or training steps (PowerTrain)
    Optimizer optimizer = Optimizer::Adam; ///< a training step's optimizer
    /// An LLM generation each run measures (tune --llm): the latency searched is then its time per output
    /// token (a decode step of the batch's sequences) and the energy per inference its energy per token.
    LlmRun llm;
    double xi = 0.1;               ///< EI margin, in units of the surrogate's prior standard deviation
    double stopImprovement = 3e-4; ///< cbo stops when no configuration expects a larger log improvement
    bool earlyStop = true; ///< cbo may stop before the budget is spent (no improvement expected, or hopeless)
    int minSamplesBeforeStop = 10; ///< cbo does not stop early before this many samples
    double settleSeconds = 2.0;    ///< after each mode switch
    double runNoise = 0.02;  ///< relative noise of one run: a best sample this close to a limit is repeated
    int maxMeasurements = 3; ///< runs of one configuration at most (repeats only when noise requires it)
    int failuresBeforeStop = 3;   ///< this many failed runs in a row, and none ok yet: the runner cannot run
    double hopelessChance = 1e-3; ///< cbo stops when no configuration meets the limits with this probability
    bool batchProbe = true;       ///< cbo's initial design runs the baseline's mode at a second batch
};

/// What one unit of a tune's energy is spent on: "output token" (--llm), "sample" (training) or "inference".
std::string energyItem(const TuneOptions& options);

/// The tune's identity in the runs file's origin column, "tune:" and 8 hex digits: a hash of the model, dims,
/// limits, objective, method, seed and space (not the budget, so that a tune rerun with more budget resumes).
std::string tuneOrigin(const TuneOptions& options, const TuneSpace& space);

/// What a tune runs on; everything injectable for tests.
struct TuneEnvironment {
    Runner* runner = nullptr;                  ///< required
    ModeSwitcher* switcher = nullptr;          ///< null: no switching (--no-switch, a simulated board)
    RestoreJournal* journal = nullptr;         ///< required with a switcher
    std::function<void(double seconds)> sleep; ///< settle wait; default: the real clock
    std::shared_ptr<PowerSource> power;        ///< Rooftop's own power readings; null: the runner's
    std::chrono::milliseconds powerPeriod{20}; ///< how often `power` is read
};

/// One measured (or resumed) configuration.
struct TuneSample {
    size_t config = 0;    ///< index into TuneSpace::configs
    bool resumed = false; ///< read from the runs file, not run now
    int ownRuns = 0; ///< ok runs this tune made of it (now or before a resume); 0: known from others' only
    int ownAttempts = 0;             ///< runs this tune made of it, failed ones included
    bool ok = false;                 ///< a run succeeded: the measured numbers are valid
    int measurements = 1;            ///< runs averaged (repeats when noise put it within reach of a limit)
    int attempts = 1;                ///< runs tried, failed ones included (what the repeat limit counts)
    std::string runner;              ///< the runner that ran it ("sim:0", "command"); its provenance
    double latencyMs = std::nan(""); ///< measured, one batch (the mean of its runs)
    double powerW = std::nan("");    ///< measured average power (the mean of its runs)
    double energyMj = std::nan("");  ///< measured energy per inference (power x latency / batch)
    bool feasible = false;           ///< measured within the limits
    std::string reason;              ///< why not feasible, or why the run failed
    double predictedLatencyMs = 0, predictedPowerW = 0, predictedEnergyMj = 0;  ///< Rooftop's roofline
    double surrogateLatencyMs = std::nan(""), surrogateEnergyMj = std::nan(""); ///< cbo's belief when chosen
    double expectedImprovement = std::nan(""); ///< cbo's constrained EI when chosen (log units)
    double chooseMs = 0.0;                     ///< time spent choosing it
};

/// How a tune ended.
struct TuneOutcome {
    std::vector<TuneSample> samples; ///< in the order measured (resumed ones first)
    size_t latest = 0; ///< index into samples of the one the last run measured (a repeat: the mean it joined)
    std::optional<size_t> baseline; ///< index into samples: the fastest stock mode, when it ran ok
    /// Index into samples: the best measured config within the limits beyond its run noise (at the limits'
    /// confidence), or, when none is, the best within them (caveat says so).
    std::optional<size_t> recommended;
    std::vector<size_t> closest; ///< when none met the limits: the ok samples nearest to them
    double savingPercent = 0.0;  ///< energy per inference saved against the baseline (measured)
    std::string stopReason;      ///< "budget spent", "no untried configuration is expected to
                                 ///< improve on the answer", ...
    std::string caveat;     ///< what the answer still lacks (the budget ran out before a repeat near a limit)
    bool cancelled = false; ///< the search was cancelled before it ended
    int runsMade = 0;       ///< runs made now, repeats included
    int resumed = 0;        ///< this tune's own runs taken from the runs file (they count in the budget)
    int priorRuns = 0;   ///< other runs of the space in the runs file (profile's, other tunes'): not budget
    int otherRunner = 0; ///< other runs of the space by another runner: left out
    int repeats = 0; ///< runs made now of configurations measured before (noise near a limit, or to confirm
                     ///< a configuration known from others' runs only)
    std::string origin; ///< tuneOrigin: what this tune's rows carry in the runs file
};

/// Called after each sample, on the search's thread, with the outcome so far.
using TuneProgressCallback = std::function<void(const TuneOutcome& sofar, const TuneSpace& space)>;

/// Searches `space` for the configuration with the best objective within the limits: first the runs file's
/// rows of the space (its own earlier runs, which count in the budget, and others' runs, which inform the
/// search but cost nothing; neither is run again), then the baseline, then (cbo) the configuration of the
/// largest constrained expected improvement under the surrogates of latency and power (prior: Rooftop's
/// prediction, recalibrated after every run), (random) a seeded permutation, or (exhaustive) the space in
/// order, until the budget is spent, the space is exhausted, cbo expects nothing more, or *cancel. No
/// configuration is measured twice unless noise requires it: when the best sample within the limits lies
/// within two standard errors (runNoise / sqrt(runs)) of a limit, it is run again (up to maxMeasurements)
/// and judged on the mean, so that the answer truly meets the limits. The answer is always a configuration
/// this tune ran: the best one known from others' runs only is run before it can be the answer. A tune stops
/// early when the runner fails failuresBeforeStop times in a row with no run ok, or (cbo) when no
/// configuration is expected to meet the limits. Mode switching and restore as in rooftop profile
/// (RestoreGuard).
/// Throws InputError for a budget below 1, no latency SLO, a bad limit or a malformed runs file, before
/// anything changes.
TuneOutcome runTuneSearch(const DeviceSpec& device, const TuneSpace& space, const TuneEnvironment& env,
                          const TuneOptions& options, const TuneProgressCallback& progress,
                          const std::atomic<bool>* cancel);

/// True when a sample's measured mean meets the limits with its run noise at the limits' confidence: mean x
/// exp(z_P runNoise / sqrt(runs)) within the SLO and the cap (the answer's rule).
bool confidentlyFeasible(const TuneSample& sample, const TuneOptions& options);

/// The configuration cbo would measure next given the samples so far, with its constrained EI; nothing
/// when every candidate is measured. Exposed for the benchmark of the time it takes.
std::optional<std::pair<size_t, double>>
nextCboSample(const TuneSpace& space, const std::vector<TuneSample>& samples, const TuneOptions& options);

} // namespace rooftop
