// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's plain-language explanation, built from predictions already made.
#include "core/advisor/explanation.h"

#include "core/common/text_format.h"
#include "core/cost/memory_footprint.h"
#include "core/device/operator_class.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <vector>

namespace rooftop {
namespace {

std::string percent(double fraction) {
    return fixed(100.0 * fraction, 0) + "%";
}

// Whole percents of the memory, compute and overhead shares that add up as the shares do (largest
// remainders): rounded apart, 16.6 + 79.6 + 3.8 read 17 + 80 + 4 = 101.
std::array<std::string, 3> boundPercents(const BoundBreakdown& b) {
    const std::array<double, 3> values = {100.0 * b.share(Bound::Memory), 100.0 * b.share(Bound::Compute),
                                          100.0 * b.share(Bound::Overhead)};
    std::array<long, 3> whole{};
    long assigned = 0;
    for (size_t k = 0; k < 3; ++k)
        assigned += whole[k] = static_cast<long>(std::floor(values[k]));
    const long total = std::lround(values[0] + values[1] + values[2]);
    std::array<size_t, 3> order = {0, 1, 2};
    std::sort(order.begin(), order.end(), [&](size_t a, size_t c) {
        return values[a] - double(whole[a]) > values[c] - double(whole[c]);
    });
    for (size_t i = 0; i < 3 && assigned < total; ++i, ++assigned)
        ++whole[order[i]];
    return {std::to_string(whole[0]) + "%", std::to_string(whole[1]) + "%", std::to_string(whole[2]) + "%"};
}

std::string signedPercent(double value) {
    return signedFixed(value, 1) + "%";
}

std::string modeAt(const Candidate& c) {
    return c.profile.mode.name + " at batch " + std::to_string(c.batch);
}

std::string limitsText(const Constraints& c) {
    std::vector<std::string> parts;
    if (c.latencySloSeconds) parts.push_back("latency <= " + fixed(*c.latencySloSeconds * 1e3, 3) + " ms");
    if (c.powerCapWatts) parts.push_back("average power <= " + fixed(*c.powerCapWatts, 1) + " W");
    if (c.maxSlowdownPercent)
        parts.push_back("slowdown <= " + fixed(*c.maxSlowdownPercent, 1) + "% against the fastest candidate");
    std::string text;
    for (size_t i = 0; i < parts.size(); ++i)
        text += (i ? ", " : "") + parts[i];
    return text.empty() ? "no limits" : text;
}

// what one item of a batch is: an inference, or a training sample (a minibatch step's share)
const char* itemWord(const Recommendation& r) {
    return r.training ? "sample" : "inference";
}

std::string betterWords(Objective objective, size_t count, const Recommendation& r) {
    const bool one = count == 1;
    const std::string item = itemWord(r);
    switch (objective) {
    case Objective::Energy:
        return (one ? "uses less energy per " : "use less energy per ") + item;
    case Objective::Latency:
        return one ? "is faster" : "are faster";
    case Objective::Efficiency:
        return (one ? "does more " : "do more ") + item + "s per joule";
    }
    return one ? "scores better" : "score better";
}

// "4.93 ms (≤ 5.10 ms at 90 %)": the value alone when the bound says nothing more
std::string bounded(double value, double high, double scale, int decimals, const char* unit,
                    double confidence) {
    std::string text = fixed(value * scale, decimals) + " " + unit;
    if (confidence > 0.5 && high > value)
        text +=
            " (≤ " + fixed(high * scale, decimals) + " " + unit + " at " + confidenceText(confidence) + ")";
    return text;
}

std::string gib(int64_t bytes) {
    return fixed(double(bytes) / double(int64_t{1} << 30), 2) + " GiB";
}

// "the board's memory (12 candidates: from batch 256 a pass holds at least 5.81 GiB of the 5.47 GiB usable)"
std::string memoryLimitText(const Recommendation& r, size_t count) {
    const Candidate* smallest = nullptr;
    for (const Candidate& c : r.candidates)
        if (!c.fitsMemory && (!smallest || c.memoryBytes < smallest->memoryBytes)) smallest = &c;
    std::string text = "the board's memory (" + countedNoun(count, "candidate", "candidates");
    if (smallest)
        text += ": from batch " + std::to_string(smallest->batch) + " a pass holds at least " +
                gib(smallest->memoryBytes) + " of " +
                memoryFootprintWords(r.training ? Phase::Training : Phase::Inference) + ", of the " +
                gib(r.usableMemoryBytes) + " usable after " + fixed(r.memoryReserveGiB, 1) + " GiB for " +
                r.memoryReserveFor;
    return text + ")";
}

bool hasSpread(const Candidate& c) {
    return c.summary.spread.latency > 0 || c.summary.spread.power > 0 || c.summary.spread.energy > 0;
}

} // namespace

std::string boundedLatency(const Candidate& c, double confidence) {
    const bool seconds = c.summary.latencySeconds >= 10.0; // as the tables write it: "1182.77 s", not ms
    return bounded(c.summary.latencySeconds, candidateBounds(c, confidence).latencySeconds.high,
                   seconds ? 1.0 : 1e3, 2, seconds ? "s" : "ms", confidence);
}

std::string boundedPower(const Candidate& c, double confidence) {
    return bounded(c.summary.averageWatts, candidateBounds(c, confidence).averageWatts.high, 1.0, 1, "W",
                   confidence);
}

std::string boundedEnergy(const Candidate& c, double confidence) {
    return bounded(c.energyPerInference(), candidateBounds(c, confidence).energyPerInference.high, 1e3, 2,
                   "mJ", confidence);
}

std::string confidenceSentence(const Recommendation& r, bool brief) {
    const std::string& basis = brief && !r.spreadSummary.empty() ? r.spreadSummary : r.spreadBasis;
    const Candidate* c = r.recommended ? &r.candidates[*r.recommended] : nullptr;
    if (!c && !r.closest.empty()) c = &r.candidates[r.closest.front()];
    if (!c || !hasSpread(*c)) return {};
    if (!r.limited)
        return "No latency or power limit was set; the bounds (≤) hold at " + confidenceText(r.confidence) +
               " and rest on " + basis + ".";
    // without a pick the rule is stated, not a claim that the limits are met
    if (r.confidence <= 0.5)
        return std::string(r.recommended ? "The limits are met" : "A mode meets a limit") +
               " by the predictions themselves (confidence 50 %); their error: " + basis + ".";
    return std::string(r.recommended ? "The limits are met" : "A mode meets the limits") + " at " +
           confidenceText(r.confidence) +
           " confidence: a mode counts when its bound (≤) does; the bounds rest on " + basis + ".";
}

std::string profileSelection(const std::vector<std::pair<std::string, int64_t>>& configurations) {
    std::vector<std::string> modes;
    std::vector<int64_t> batches;
    for (const auto& [mode, batch] : configurations) {
        if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
        if (std::find(batches.begin(), batches.end(), batch) == batches.end()) batches.push_back(batch);
    }
    std::string text = "--modes '";
    for (size_t i = 0; i < modes.size(); ++i)
        text += (i ? ";" : "") + modes[i];
    text += "' --batch ";
    for (size_t i = 0; i < batches.size(); ++i)
        text += (i ? "," : "") + std::to_string(batches[i]);
    return text;
}

std::string closeCallSentence(const Recommendation& r, Objective objective) {
    if (!r.recommended || r.closeCalls.empty()) return {};
    const Candidate& chosen = r.candidates[*r.recommended];
    const auto [value, spread] = objectiveQuantity(chosen, objective);
    const std::string quantity = objective == Objective::Latency
                                     ? (r.training ? "time per minibatch" : "latency per batch")
                                     : std::string("energy per ") + itemWord(r);
    std::ostringstream out;
    const size_t count = r.closeCalls.size();
    out << "A close call: " << countedNoun(count, "other candidate is", "other candidates are")
        << " predicted within " << fixed(100.0 * spread, 1) << "% of its " << quantity
        << ", the pick's own error (1 sigma), so the predictions do not settle which is least: ";
    std::vector<std::pair<std::string, int64_t>> configurations{{chosen.profile.mode.name, chosen.batch}};
    for (size_t i = 0; i < std::min(closeCallsNamed, count); ++i) {
        const Candidate& c = r.candidates[r.closeCalls[i]];
        out << (i ? ", " : "") << modeAt(c) << " ("
            << signedPercent(100.0 * (objectiveQuantity(c, objective).first / value - 1.0)) << ")";
        configurations.emplace_back(c.profile.mode.name, c.batch);
    }
    // a few are worth profiling one by one; many are a search's work
    if (count > closeCallsNamed)
        out << " and " << count - closeCallsNamed
            << " more. Measuring settles it: rooftop tune (with the limit, or a loose --latency-slo) finds "
               "the "
               "least measured "
            << quantity << " in a few runs.";
    else
        out << ". Measuring settles it: run them (rooftop profile with " << profileSelection(configurations)
            << r.workloadOptions << ") and compare their measured " << quantity << ".";
    return out.str();
}

BoundBreakdown boundBreakdown(const ModelPrediction& prediction) {
    BoundBreakdown b;
    for (const auto& layer : prediction.layers) {
        const auto k = size_t(layer.bound);
        if (k >= b.layers.size()) continue;
        b.layers[k] += 1;
        b.seconds[k] += layer.seconds;
        b.totalLayers += 1;
        b.totalSeconds += layer.seconds;
    }
    b.totalSeconds += prediction.fixedSeconds; // shares are of the whole latency, the fixed cost included
    return b;
}

namespace {

/// What a calibrated runtime fitted in a mode's profile ("the dense_conv and pointwise efficiencies, the
/// power model"); empty when nothing was fitted. A measured profile's power model is the profile's, not the
/// runtime's: it is left out then.
std::string fittedParts(const ModeProfile& profile) {
    std::vector<std::string> classes;
    const ClassEfficiencies& efficiencies = profile.ceilings.classEfficiency;
    for (size_t k = 0; k < efficiencies.fitted.size(); ++k)
        if (efficiencies.fitted[k]) classes.push_back(operatorClassName(OperatorClass(k)));
    std::string parts;
    for (size_t i = 0; i < classes.size(); ++i)
        parts += (i == 0 ? "the " : i + 1 == classes.size() ? " and " : ", ") + classes[i];
    if (!parts.empty()) parts += classes.size() == 1 ? " efficiency" : " efficiencies";
    const auto add = [&parts](bool fitted, const char* what) {
        if (fitted) parts += (parts.empty() ? "" : ", ") + std::string(what);
    };
    const Ceilings& c = profile.ceilings;
    add(c.inferenceOverhead.provenance == Provenance::Fitted, "the fixed cost per inference");
    add(c.dispatchOverhead.provenance == Provenance::Fitted, "the dispatch cost per layer");
    const PowerModel& p = profile.power;
    add(profile.fromBench == BenchSource::None && (p.constantPower.provenance == Provenance::Fitted ||
                                                   p.energyPerFlop.provenance == Provenance::Fitted ||
                                                   p.energyPerByte.provenance == Provenance::Fitted),
        "the power model");
    return parts;
}

} // namespace

std::string provenanceSentence(Provenance provenance, const ModeProfile* profile) {
    switch (provenance) {
    case Provenance::Measured:
    case Provenance::Fitted:
        return "These numbers come from ceilings measured on this board and a power model fitted to its "
               "measurements (provenance: " +
               std::string(provenanceName(provenance)) + ").";
    case Provenance::Predicted:
        return "These numbers are predicted for this mode by a predictor learned from profiled runs "
               "(provenance: predicted), not measured in it.";
    case Provenance::Datasheet:
    case Provenance::Estimate:
        break;
    }
    const BenchSource source = profile ? profile->fromBench : BenchSource::None;
    std::vector<std::string> rests;
    if (source == BenchSource::Measured)
        rests.push_back("ceilings and power measured in this mode by rooftop bench (--profile)");
    else if (source == BenchSource::Predicted)
        rests.push_back("ceilings and power predicted from the modes rooftop bench measured (--profile)");
    if (const std::string fitted = profile ? fittedParts(*profile) : std::string(); !fitted.empty())
        rests.push_back(std::string("a runtime calibrated from ") +
                        (profile->ceilings.classEfficiency.onSimulator
                             ? "the simulated board's runs (not measurements; fitted: "
                             : "runs (fitted: ") +
                        fitted + ")");
    const std::string benchThisMode =
        "rooftop bench " +
        (profile && !profile->mode.name.empty() ? "--modes " + profile->mode.name + " " : std::string()) +
        "measures its ceilings on the board (read back with --profile)";
    if (!rests.empty()) {
        std::string text = "These numbers rest on ";
        for (size_t i = 0; i < rests.size(); ++i)
            text += (i == 0 ? "" : i + 1 == rests.size() ? " and " : ", ") + rests[i];
        return text +
               ", and on estimates for the rest (provenance: " + std::string(provenanceName(provenance)) +
               ", the weakest input used), not on runs of the model in this mode: " +
               (source == BenchSource::Predicted ? benchThisMode + "; " : std::string()) +
               "profile modes and learn a predictor (rooftop learn) to predict every mode from runs.";
    }
    return "These numbers are predicted from datasheet-derived ceilings and an estimated power model "
           "(provenance: " +
           std::string(provenanceName(provenance)) + "), not measured in this mode: " + benchThisMode +
           ", and runs of the model (rooftop profile, rooftop learn) its latency and power.";
}

std::string explainRecommendation(const Recommendation& r, const ModelPrediction& recommended,
                                  const ModelPrediction& baseline, const Constraints& constraints,
                                  Objective objective) {
    if (!r.recommended) return explainInfeasible(r, constraints);
    const Candidate& chosen = r.candidates[*r.recommended];
    const Candidate& base = r.baseline;
    const PowerMode& mode = chosen.profile.mode;
    const PowerMode& baseMode = base.profile.mode;
    std::ostringstream out;

    // The numbers.
    out << "Recommended: " << modeAt(chosen)
        << (mode.stock ? " (stock nvpmodel mode " + std::to_string(mode.stockId) + ")" : " (custom clocks)")
        << ": predicted " << boundedLatency(chosen, r.confidence)
        << (r.training ? " per minibatch, " : " per batch, ") << boundedEnergy(chosen, r.confidence)
        << " per " << itemWord(r) << ", " << boundedPower(chosen, r.confidence)
        << " on average; objective: " << objectiveName(objective) << ", limits: " << limitsText(constraints)
        << ".\n";
    const std::string confidence = confidenceSentence(r);
    if (!confidence.empty()) out << confidence << "\n";

    // Against the baseline.
    const double baseLatency = base.summary.latencySeconds, latency = chosen.summary.latencySeconds;
    const double latencyChange = baseLatency > 0 ? 100.0 * (latency - baseLatency) / baseLatency : 0.0;
    out << "Against " << modeAt(base) << " (the board's fastest stock mode): latency "
        << fixed(baseLatency * 1e3, 2) << " -> " << fixed(latency * 1e3, 2) << " ms ("
        << signedPercent(latencyChange) << "), energy per " << itemWord(r) << " "
        << fixed(base.energyPerInference() * 1e3, 2) << " -> " << fixed(chosen.energyPerInference() * 1e3, 2)
        << " mJ ("
        << (r.savingPercent >= 0 ? fixed(r.savingPercent, 1) + "% saved"
                                 : fixed(-r.savingPercent, 1) + "% more")
        << "), average power " << fixed(base.summary.averageWatts, 1) << " -> "
        << fixed(chosen.summary.averageWatts, 1) << " W.\n";
    if (chosen.batch != base.batch) {
        const double baseRate = baseLatency > 0 ? double(base.batch) / baseLatency : 0.0;
        const double rate = latency > 0 ? double(chosen.batch) / latency : 0.0;
        out << "Latency is per batch: batch " << chosen.batch << " instead of " << base.batch
            << (chosen.batch > base.batch
                    ? " shares the weight traffic and the per-layer dispatch overhead among more "
                    : " waits for fewer ")
            << itemWord(r) << (chosen.batch > base.batch ? "s" : "s per batch") << "; throughput "
            << fixed(baseRate, 1) << " -> " << fixed(rate, 1) << " " << itemWord(r) << "s/s.\n";
    }

    // What binds the layers in this mode.
    const BoundBreakdown b = boundBreakdown(recommended);
    if (b.totalLayers > 0) {
        const std::array<std::string, 3> shares = boundPercents(b);
        out << "In " << mode.name << ", " << b.layerCount(Bound::Memory) << " of " << b.totalLayers
            << " layers (" << shares[0] << " of the time) are memory-bound, " << b.layerCount(Bound::Compute)
            << " (" << shares[1] << ") compute-bound and " << b.layerCount(Bound::Overhead) << " ("
            << shares[2] << ") bound by per-layer dispatch overhead";
        const BoundBreakdown bb = boundBreakdown(baseline);
        if (bb.totalLayers > 0 && baseMode.name != mode.name) {
            const std::array<std::string, 3> baseShares = boundPercents(bb);
            out << " (in " << baseMode.name << ": " << baseShares[0] << " memory, " << baseShares[1]
                << " compute, " << baseShares[2] << " overhead)";
        }
        out << ".\n";
        const double memory = b.share(Bound::Memory), compute = b.share(Bound::Compute),
                     overhead = b.share(Bound::Overhead);
        if (memory >= compute && memory >= overhead) {
            out << "Memory-bound layers wait for DRAM, whose bandwidth follows the memory (EMC) clock, "
                << mhz(mode.emcHz) << " MHz here, not the GPU clock";
            if (mode.gpuHz < baseMode.gpuHz)
                out << ": running the GPU at " << mhz(mode.gpuHz) << " MHz instead of " << mhz(baseMode.gpuHz)
                    << (compute < 0.005
                            ? std::string(" MHz costs almost no time, as no layer is compute-bound")
                            : " MHz slows only the " + percent(compute) +
                                  " of the time that is compute-bound")
                    << ", while the GPU's power and energy per operation drop with its clock";
            if (mode.emcHz < baseMode.emcHz)
                out << "; the lower memory clock (" << mhz(baseMode.emcHz) << " -> " << mhz(mode.emcHz)
                    << " MHz) costs time on exactly these layers";
            out << ".\n";
        } else if (compute >= overhead) {
            out << "Compute-bound layers run at the GPU's arithmetic rate, so latency follows the GPU clock ("
                << mhz(mode.gpuHz) << " MHz here) and the active TPCs; the memory clock matters only for the "
                << percent(memory) << " of the time that is memory-bound";
            if (mode.gpuHz < baseMode.gpuHz && r.savingPercent > 0)
                out << ". The lower GPU clock (" << mhz(mode.gpuHz) << " instead of " << mhz(baseMode.gpuHz)
                    << " MHz) costs time on those layers, but the energy of each operation falls with the "
                       "clock "
                       "(lower voltage) and so does the power drawn, so each "
                    << itemWord(r) << " takes less energy";
            out << ".\n";
        } else {
            out << "Most of the time is per-layer dispatch overhead, which the runtime and the CPU clock set "
                   "("
                << fixed(double(mode.cpuKhz) / 1e3, 1) << " MHz here): GPU and memory clocks change little, "
                << "a slower CPU costs latency directly; a larger batch spreads the overhead over more "
                << itemWord(r) << "s.\n";
        }
    }

    // What limits the choice: the limits that rule out candidates the objective prefers.
    const auto key = objectiveKey(chosen, objective);
    const double fastest = fastestLatency(r.candidates);
    size_t better = 0, bySlo = 0, byCap = 0, bySlowdown = 0, byMemory = 0;
    for (const auto& c : r.candidates) {
        if (!(objectiveKey(c, objective) < key)) continue;
        ++better;
        const LimitBreaches breaches = limitBreaches(c, constraints, fastest);
        bySlo += breaches.latency;
        byCap += breaches.power;
        bySlowdown += breaches.slowdown;
        byMemory += breaches.memory;
    }
    if (better == 0) {
        out << "What limits it: nothing; no candidate of " << r.candidates.size() << " "
            << betterWords(objective, 1, r) << ", with or without the limits.\n";
    } else {
        std::vector<std::string> limits;
        // a limit that rules out all of them needs no count of its own ("849 candidates ... (849
        // candidates)")
        const auto counted = [better](size_t count) {
            return count == better ? std::string()
                                   : " (" + countedNoun(count, "candidate", "candidates") + ")";
        };
        if (bySlo)
            limits.push_back("the " + fixed(*constraints.latencySloSeconds * 1e3, 3) + " ms latency SLO" +
                             counted(bySlo));
        if (byCap)
            limits.push_back("the " + fixed(*constraints.powerCapWatts, 1) + " W power cap" + counted(byCap));
        if (bySlowdown)
            limits.push_back("the " + fixed(*constraints.maxSlowdownPercent, 1) + "% maximum slowdown" +
                             counted(bySlowdown));
        if (byMemory) limits.push_back(memoryLimitText(r, byMemory));
        out << "What limits it: " << countedNoun(better, "candidate", "candidates") << " "
            << betterWords(objective, better, r) << (better == 1 ? " but breaks " : " but break ");
        for (size_t i = 0; i < limits.size(); ++i)
            out << (i == 0 ? "" : i + 1 == limits.size() ? " and " : ", ") << limits[i];
        out << ".\n";
    }
    if (const std::string close = closeCallSentence(r, objective); !close.empty()) out << close << "\n";
    if (constraints.powerCapWatts && chosen.provenance == Provenance::Estimate)
        out << "The power cap is met by an estimated power: the prior's bounds hold against the physics they "
               "were measured on, and boards unlike it differ by more (the simulated board of --runner sim "
               "draws about twice it); before a cap must hold, profile the model in a few modes and learn a "
               "predictor (rooftop profile, rooftop learn) or calibrate the power model.\n";
    out << provenanceSentence(chosen.provenance, &chosen.profile);
    return out.str();
}

namespace {

/// " The fastest candidate takes 10.000 ms (SLO 5.000 ms).", or, when the prediction meets the limit and
/// only its upper bound at `confidence` does not, says so and how to narrow it.
std::string limitMissedText(const std::string& what, const std::string& verb, double value, double spread,
                            double limit, const std::string& limitName, const std::string& unit, int digits,
                            double confidence) {
    const double high = upperBound(value, spread, confidence);
    if (value <= limit && high > limit)
        return " " + what + " is predicted at " + fixed(value, digits) + unit + ", under the " + limitName +
               " of " + fixed(limit, digits) + unit + ", but its upper bound at " +
               confidenceText(confidence) + " is " + fixed(high, digits) + unit +
               ": lower --confidence, or narrow the error with runs near it (rooftop profile, rooftop "
               "learn).";
    return " " + what + " " + verb + " " + fixed(value, digits) + unit + " (" + limitName + " " +
           fixed(limit, digits) + unit + ").";
}

} // namespace

std::string explainInfeasible(const Recommendation& r, const Constraints& constraints) {
    std::ostringstream out;
    const bool limited =
        constraints.latencySloSeconds || constraints.powerCapWatts || constraints.maxSlowdownPercent;
    if (limited)
        out << "The constraints cannot be met: none of the " << r.candidates.size()
            << " candidates (modes x batch sizes) satisfies " << limitsText(constraints) << ".";
    else // without limits only the board's memory (or numbers that are not numbers) rules a candidate out
        out << "None of the " << r.candidates.size() << " candidates (modes x batch sizes) can run here.";
    const Candidate* fastest = nullptr;
    const Candidate* lowestPower = nullptr;
    size_t meetSlo = 0, meetCap = 0;
    const double fastestOfAll = fastestLatency(r.candidates);
    for (const auto& c : r.candidates) {
        if (std::isfinite(c.summary.latencySeconds) &&
            (!fastest || c.summary.latencySeconds < fastest->summary.latencySeconds))
            fastest = &c;
        if (std::isfinite(c.summary.averageWatts) &&
            (!lowestPower || c.summary.averageWatts < lowestPower->summary.averageWatts))
            lowestPower = &c;
        const LimitBreaches breaches = limitBreaches(c, constraints, fastestOfAll);
        meetSlo += constraints.latencySloSeconds && !breaches.latency;
        meetCap += constraints.powerCapWatts && !breaches.power;
    }
    if (constraints.latencySloSeconds && fastest)
        out << limitMissedText("The fastest candidate", "takes", fastest->summary.latencySeconds * 1e3,
                               fastest->summary.spread.latency, *constraints.latencySloSeconds * 1e3, "SLO",
                               " ms", 3, r.confidence);
    if (constraints.powerCapWatts && lowestPower)
        out << limitMissedText("The lowest average power", "is", lowestPower->summary.averageWatts,
                               lowestPower->summary.spread.power, *constraints.powerCapWatts, "cap", " W", 1,
                               r.confidence);
    if (constraints.latencySloSeconds && constraints.powerCapWatts && meetSlo > 0 && meetCap > 0)
        out << " " << meetSlo << " candidates meet the SLO and " << meetCap
            << " the cap, but none meets both (plus any slowdown limit).";
    if (const size_t overMemory = std::count_if(r.candidates.begin(), r.candidates.end(),
                                                [](const Candidate& c) { return !c.fitsMemory; }))
        out << " " << (overMemory == r.candidates.size() ? "Every candidate breaks " : "Some break ")
            << memoryLimitText(r, overMemory) << ".";
    if (!r.closest.empty()) {
        out << " Closest:";
        for (size_t i = 0; i < r.closest.size(); ++i) {
            const Candidate& c = r.candidates[r.closest[i]];
            out << (i ? ";" : "") << " " << modeAt(c) << " (" << boundedLatency(c, r.confidence) << ", "
                << boundedPower(c, r.confidence) << ")";
        }
        out << ".";
    }
    const std::string confidence = confidenceSentence(r);
    if (!confidence.empty()) out << " " << confidence;
    return out.str();
}

} // namespace rooftop
