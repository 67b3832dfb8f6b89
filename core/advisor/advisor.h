// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/prediction.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rooftop {

/// What the advisor minimises or maximises.
enum class Objective {
    Energy,    ///< the least energy per inference
    Latency,   ///< the lowest latency per batch
    Efficiency ///< the most inferences per joule, then per second
};

/// The two quantities a Pareto front trades: latency per batch against energy per inference (inference), or
/// against average power (training, PowerTrain's question: the fastest minibatch within a power limit).
enum class FrontAxes {
    LatencyEnergy, ///< latency per batch against energy per inference (inference)
    LatencyPower   ///< latency per batch against average power (training)
};

/// Limits a recommendation must respect; unset limits do not apply.
struct Constraints {
    std::optional<double> latencySloSeconds;  ///< the most latency per batch, seconds
    std::optional<double> powerCapWatts;      ///< the most average power, watts
    std::optional<double> maxSlowdownPercent; ///< against the fastest candidate
    /// A limit is met when the prediction's upper bound at this confidence meets it (latency and power;
    /// the slowdown compares predictions); 0.5 compares the predictions themselves.
    double confidence = 0.9;
};

/// The smallest and largest confidence a limit may be met with.
constexpr double minConfidence = 0.5, maxConfidence = 0.999;

/// One evaluated candidate: a mode at a batch size.
struct Candidate {
    ModeProfile profile; ///< the mode with its ceilings and power model
    int64_t batch = 1;   ///< samples per batch
    ModeSummary summary; ///< predicted latency, power and energy of one batch, with their spreads
    /// Where its numbers come from (the prior's or the summarizer's).
    Provenance provenance = Provenance::Estimate;
    bool feasible = true;      ///< its numbers are finite and meet every set limit (meetsConstraints)
    bool pareto = false;       ///< on the runnable Pareto front (Recommendation::frontAxes)
    bool extrapolated = false; ///< a predictor's numbers outside the ranges it was learned on
    int64_t memoryBytes = 0;   ///< what a pass holds at least (memoryFootprintBytes); 0: not reckoned
    bool fitsMemory = true;    ///< memoryBytes within the board's usable memory (or not reckoned)
    /// Joules per inference; 0 for a batch below 1.
    double energyPerInference() const { return batch > 0 ? summary.energyJoules / double(batch) : 0.0; }
};

/// A candidate's latency per batch, average power and energy per inference with their bounds at a
/// confidence (from its summary's spread).
struct CandidateBounds {
    /// Seconds per batch, watts, joules per inference.
    Interval latencySeconds, averageWatts, energyPerInference;
};
/// The candidate's latency, average power and energy per inference with their bounds at `confidence`.
CandidateBounds candidateBounds(const Candidate& candidate, double confidence);

/// The advisor's answer.
struct Recommendation {
    std::vector<Candidate> candidates; ///< every mode x batch evaluated, feasibility and Pareto flags set
    Candidate baseline;                ///< the board's fastest stock mode at the first batch size
    std::optional<size_t> recommended; ///< index into candidates; empty when no candidate is feasible
    std::vector<size_t> closest;       ///< when infeasible: the candidates nearest to meeting the limits
    std::vector<size_t> closeCalls;    ///< other feasible candidates within the pick's error (closeCalls())
    double savingPercent = 0.0;        ///< energy per inference saved against the baseline
    std::string explanation;           ///< plain language: what binds, why a lower clock costs little
    std::string nvpmodelBlock;         ///< POWER_MODEL block + commands to apply the recommended mode
    double confidence = 0.5;           ///< the limits were met at this confidence (Constraints::confidence)
    bool limited = false;              ///< a latency SLO or a power cap was asked (the slowdown is relative)
    std::string spreadBasis;           ///< what the bounds rest on: the predictor's error or the prior's
    bool training = false;             ///< of training steps: a batch is a minibatch, an inference a sample
    int64_t usableMemoryBytes = 0;     ///< the board's memory less the reserve; 0: unknown, not reckoned
    double memoryReserveGiB = 0.0;     ///< the reserve (memoryReserveGiB of the device)
    std::string memoryReserveFor;      ///< what the reserve is for, in words (memoryReserveFor)
    std::string workloadOptions; ///< the options a profile of its candidates repeats (workloadOptionsText)
    std::string spreadSummary;   ///< the spreadBasis in brief (a card's line); empty: the basis is brief

    /// What the pareto flags trade: latency against power for training, against energy otherwise.
    FrontAxes frontAxes() const { return training ? FrontAxes::LatencyPower : FrontAxes::LatencyEnergy; }
};

/// Indices of the Pareto-optimal candidates (no other is at least as fast and as frugal, and better in one).
/// Minimises batch latency and energy per inference (or average power, by `axes`); O(n log n). Identical
/// points are all kept; candidates with a non-finite latency or second quantity are never on the front.
/// Sorted by latency, then the second quantity, then index.
std::vector<size_t> paretoFront(const std::vector<Candidate>& candidates,
                                FrontAxes axes = FrontAxes::LatencyEnergy);

/// paretoFront of the candidates the board can hold (Candidate::fitsMemory), as indices into `candidates`.
std::vector<size_t> runnableParetoFront(const std::vector<Candidate>& candidates,
                                        FrontAxes axes = FrontAxes::LatencyEnergy);

/// The second quantity of a front: energy per inference (J) or average power (W).
double frontValue(const Candidate& candidate, FrontAxes axes);

// ---- Constraints and objectives ------------------------------------------------------------------------

/// "energy", "latency" or "efficiency".
const char* objectiveName(Objective objective);
/// Parses an objective name; nothing when unknown.
std::optional<Objective> parseObjective(std::string_view text);

/// Throws InputError (one line) for a malformed limit: an SLO or cap that is not a positive finite number,
/// a slowdown that is negative or not finite, a confidence outside [minConfidence, maxConfidence]. Limits
/// that no candidate can meet are not malformed.
void validateConstraints(const Constraints& constraints);

/// The ranking key of a candidate for an objective, lower is better; compared lexicographically.
/// Energy: (energy per inference, latency). Latency: (latency, energy per inference).
/// Efficiency: (-inferences per joule, -inferences per second).
std::pair<double, double> objectiveKey(const Candidate& candidate, Objective objective);

/// The lowest batch latency among the candidates (the reference of the slowdown limit); +inf when none is
/// finite.
double fastestLatency(const std::vector<Candidate>& candidates);

/// The set limits a candidate breaks; an unset limit is never broken.
struct LimitBreaches {
    bool latency = false;  ///< latency above the SLO (or not a number)
    bool power = false;    ///< average power above the cap (or not a number)
    bool slowdown = false; ///< latency above fastest * (1 + slowdown / 100)
    bool memory = false;   ///< the pass does not fit in the board's memory (Candidate::fitsMemory)
    /// True when any limit is broken.
    bool any() const { return latency || power || slowdown || memory; }
};

/// Which limits the candidate breaks at constraints.confidence, with `fastest` the reference of the slowdown
/// limit.
LimitBreaches limitBreaches(const Candidate& candidate, const Constraints& constraints, double fastest);

/// True when the candidate's numbers are finite and it respects every set limit: latency's upper bound <=
/// SLO, average power's upper bound <= cap, latency <= fastest * (1 + slowdown / 100).
bool meetsConstraints(const Candidate& candidate, const Constraints& constraints, double fastest);

/// How far a candidate is from meeting the limits: the sum over set limits of max(0, bound / limit - 1)
/// (0 when feasible, +inf when its numbers are not finite).
double constraintViolation(const Candidate& candidate, const Constraints& constraints, double fastest);

/// How many candidates the advisor lists as closest when no candidate is feasible.
constexpr size_t closestCount = 5;
/// How many close calls (closeCalls) an answer's text and table name; the JSON lists closestCount.
constexpr size_t closeCallsNamed = 3;

/// The quantity an objective ranks by (energy per inference, or latency per batch) and its 1-sigma log
/// spread.
std::pair<double, double> objectiveQuantity(const Candidate& candidate, Objective objective);

/// The other feasible candidates whose objective quantity exceeds the pick's by no more than the pick's own
/// 1-sigma spread (the predictions cannot tell them apart), best first; none when the pick has no spread.
std::vector<size_t> closeCalls(const std::vector<Candidate>& candidates, size_t pick, Objective objective);

/// Percent of energy per inference saved against the baseline: 100 * (base - chosen) / base
/// (negative when the chosen candidate spends more; 0 when the baseline's energy is not positive).
double savingPercent(const Candidate& chosen, const Candidate& baseline);

/// The pure decision on already-evaluated candidates: sets every feasible and pareto flag (and the
/// baseline's feasible flag), picks the feasible candidate with the lowest objectiveKey (ties: lowest index),
/// or, when none is feasible, lists the closestCount candidates with the least constraintViolation
/// (ties: objectiveKey, then index). Fills savingPercent; leaves explanation and nvpmodelBlock empty.
/// `training`: the candidates are training steps (Recommendation::training, and the front it implies).
Recommendation decide(std::vector<Candidate> candidates, Candidate baseline, const Constraints& constraints,
                      Objective objective, bool training = false);

// ---- Entry point ---------------------------------------------------------------------------------------

/// A model counted at one batch size (analyzeModelFile with settings.dims.batch = batch).
struct BatchWorkload {
    int64_t batch = 1; ///< samples per batch
    Workload workload; ///< the model counted at that batch
};

/// Latency, energy and power of a workload in each profile from elsewhere than the roofline (a learned
/// predictor); the candidates it evaluates carry its provenance.
struct ModeSummarizer {
    /// The summaries of a workload in each profile; empty: none (the roofline's).
    std::function<std::vector<ModeSummary>(const BatchWorkload&, const std::vector<ModeProfile>&)> summarize;
    Provenance provenance =
        Provenance::Predicted; ///< of its numbers (estimate when part of them is Rooftop's)
    std::string spreadBasis;   ///< what the summaries' spreads rest on
    std::string spreadSummary; ///< the spreadBasis in brief; empty: the basis is brief already

    /// True when a summarize function is set.
    explicit operator bool() const { return bool(summarize); }
    /// The summaries of `w` in each profile.
    std::vector<ModeSummary> operator()(const BatchWorkload& w,
                                        const std::vector<ModeProfile>& profiles) const {
        return summarize(w, profiles);
    }
};

/// Evaluates every profile at every batch size with sweepModes (spread: the prior's, priorSpread), or
/// `summarize` when set (batch-major order).
std::vector<Candidate> evaluateCandidates(const std::vector<BatchWorkload>& workloads,
                                          const std::vector<ModeProfile>& profiles,
                                          const ModeSummarizer& summarize = {});

/// The weakest provenance among a profile's ceilings and power model
/// (estimate < predicted < datasheet < fitted < measured).
Provenance profileProvenance(const ModeProfile& profile);

/// Recommends a mode: evaluates every profile at every batch size, decides, explains the choice from
/// predict() of the recommended mode and writes the nvpmodel instructions. The baseline is
/// `baselineProfile` (the board's fastest stock mode) at the first batch size. Throws InputError when the
/// workloads or profiles are empty, a batch is below 1, or a limit is malformed.
Recommendation recommendMode(const DeviceSpec& device, const std::vector<BatchWorkload>& workloads,
                             const std::vector<ModeProfile>& profiles, const ModeProfile& baselineProfile,
                             const Constraints& constraints, Objective objective,
                             const ModeSummarizer& summarize = {});

/// As above, with the baseline taken from `profiles` (the stock mode DeviceSpec::fastestStockMode());
/// throws InputError when that mode is not among them.
Recommendation recommendMode(const DeviceSpec& device, const std::vector<BatchWorkload>& workloads,
                             const std::vector<ModeProfile>& profiles, const Constraints& constraints,
                             Objective objective, const ModeSummarizer& summarize = {});

} // namespace rooftop
