// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_rendering.h"

#include "core/common/text_format.h"
#include "core/device/power_mode.h"
#include "core/onnx/dim_text.h"
#include "core/plan/plan_margins.h"
#include "core/roofline/prediction_spread.h"

#include <cmath>

namespace rooftop {

namespace {

std::string candidateName(const PlanReport& r, const PlanCandidate& c) {
    return readableModeName(r.space.modes[c.mode].mode) + " at batch " +
           std::to_string(r.space.inferenceBatches[c.result.batchIndex]);
}

const char* const kSimulated = "simulated";

std::string percent(double v) {
    return fixed(v, 2) + " %";
}

PlanCell numberCell(double v, int decimals, const std::string& suffix = "") {
    return {fixed(v, decimals) + suffix, v};
}

PlanCell textCell(const std::string& text) {
    return {text, std::nullopt};
}

// What a candidate's costs rest on: the runs through the runner, or the prior.
std::string costsBasis(const PlanReport& r, const PlanCandidate& c) {
    if (c.profiled) return "runs through " + (r.runner.empty() ? std::string("the runner") : r.runner);
    return r.space.basis;
}

std::vector<PlanLine> settingsOf(const PlanReport& r) {
    std::vector<PlanLine> lines;
    std::string requests = describeArrivals(r.arrival) + "; SLO " + general(r.budgets.sloSeconds * 1e3, 4) +
                           " ms, at most " + general(r.budgets.maxViolationPct, 3) + " % late or dropped";
    if (r.budgets.powerCapWatts)
        requests += ", average power <= " + general(*r.budgets.powerCapWatts, 4) + " W";
    lines.push_back({"Requests", requests, "", ""});
    lines.push_back({"Strategy",
                     std::string(planStrategyName(r.request.strategy)) + ", " +
                         std::to_string(r.outcome.profiledModes) + " modes profiled" +
                         (r.runner.empty() ? "" : " by " + r.runner) + " of " +
                         std::to_string(r.space.modes.size()) + " (" + r.outcome.stopReason + ")",
                     "", ""});
    if (!r.inferenceRunsPath.empty())
        lines.push_back(
            {"Runs",
             r.inferenceRunsPath +
                 (r.trainingRunsPath != r.inferenceRunsPath ? " and " + r.trainingRunsPath : std::string()),
             "", ""});
    lines.push_back({"Prior", r.space.basis, "", ""});
    std::string assumed;
    const auto addAssumed = [&assumed](const std::vector<std::string>& dims, const char* model,
                                       const char* option) {
        if (dims.empty()) return;
        assumed += std::string(assumed.empty() ? "" : "; ") + model;
        for (size_t i = 0; i < dims.size(); ++i)
            assumed += (i ? ", " : " ") + dims[i];
        assumed += std::string(" (bind with ") + option + " NAME=VALUE)";
    };
    addAssumed(r.inferenceAssumedDims, "inference", "--dim");
    addAssumed(r.trainingAssumedDims, "training", "--training-dim");
    if (!assumed.empty()) lines.push_back({"Assumed dims", assumed + ": unbound, taken as 1", "", ""});
    if (!r.margins.basis.empty())
        lines.push_back(
            {"Costs",
             r.margins.basis +
                 (r.margins.estimated && r.request.strategy == PlanStrategy::Exhaustive
                      ? "; planned with their error as a margin at " + confidenceText(r.margins.confidence) +
                            ": each power at its upper bound, the SLO shortened by x" +
                            fixed(planSloFactor(r.margins), 2)
                      : std::string()),
             "", ""});
    lines.push_back({"Schedule", planScheduleBasis(r) + ", adaptive policy", "", ""});
    return lines;
}

std::vector<PlanLine> figuresOf(const PlanReport& r, const PlanCandidate& c) {
    // on estimates: the figures at the estimates, the power's bound beside them
    const ScheduleStats& s = r.atEstimates ? r.atEstimates->stats : c.result.stats;
    const size_t b = c.result.batchIndex;
    const std::string simulated = planScheduleBasis(r) + " on the costs below";
    const std::string costs = costsBasis(r, c);
    std::vector<PlanLine> lines;
    lines.push_back({"Training", fixed(s.minibatchesPerSecond, 2) + " minibatches/s", kSimulated, simulated});
    lines.push_back({"SLO violations",
                     percent(s.violationPct) + " (" + std::to_string(s.late) + " late, " +
                         std::to_string(s.dropped) + " dropped of " + std::to_string(s.requests) +
                         " requests over " + std::to_string(r.request.planningStreams) + " streams)",
                     kSimulated, simulated});
    lines.push_back({"Latency", "p50 " + fixed(s.p50Ms, 2) + " ms, p99 " + fixed(s.p99Ms, 2) + " ms",
                     kSimulated, simulated});
    std::string power = fixed(s.averageWatts, 2) + " W average";
    // at 0.5 the bounds are the estimates themselves: none is written
    const bool margin = r.margins.applied();
    if (r.atEstimates && margin)
        power += " (≤ " + fixed(c.result.stats.averageWatts, 2) + " W at " +
                 confidenceText(r.margins.confidence) + ", the costs' error as a margin)";
    lines.push_back(
        {"Power", power + ", " + fixed(s.energyJoules, 1) + " J per " + general(r.simulatedSeconds, 4) + " s",
         kSimulated, simulated});
    // on estimates each cost with its upper bound at the margins' confidence, as the plan was chosen with
    const bool bounded = margin;
    const auto bound = [&](double value, double spread, int digits, const char* unit) {
        return bounded ? " (≤ " + fixed(upperBound(value, spread, r.margins.confidence), digits) + unit + ")"
                       : std::string();
    };
    const PredictionSpread& inference =
        b < r.margins.inferenceByBatch.size() ? r.margins.inferenceByBatch[b] : r.margins.inference;
    lines.push_back({"Inference batch",
                     fixed(1e3 * c.costs.inferenceSeconds[b], 3) + " ms" +
                         bound(1e3 * c.costs.inferenceSeconds[b], inference.latency, 3, " ms") + " at " +
                         fixed(c.costs.inferenceWatts[b], 1) + " W" +
                         bound(c.costs.inferenceWatts[b], inference.power, 1, " W") + " (batch " +
                         std::to_string(r.space.inferenceBatches[b]) + ")",
                     c.costs.provenance, costs});
    lines.push_back({"Training step",
                     fixed(1e3 * c.costs.trainingSeconds, 2) + " ms" +
                         bound(1e3 * c.costs.trainingSeconds, r.margins.training.latency, 2, " ms") + " at " +
                         fixed(c.costs.trainingWatts, 1) + " W" +
                         bound(c.costs.trainingWatts, r.margins.training.power, 1, " W") + " (minibatch " +
                         std::to_string(r.space.trainingBatch) + ")",
                     c.costs.trainingProvenance.empty() ? c.costs.provenance : c.costs.trainingProvenance,
                     c.costs.trainingProvenance.empty()
                         ? costs
                         : "Rooftop's roofline (the predictor covers inference only)"});
    lines.push_back(
        {"Idle power",
         fixed(c.costs.idleWatts, 1) + " W" +
             (r.margins.idleAtUpperBound && margin
                  ? " (the estimate's upper bound at " + confidenceText(r.margins.confidence) + ")"
                  : bound(c.costs.idleWatts, r.margins.idlePower, 1, " W")),
         c.costs.idleProvenance,
         "the constant power of Rooftop's power model of the mode" +
             (c.costs.idleBasis.empty() ? std::string() : " (" + c.costs.idleBasis + ")")});
    lines.push_back(
        {"Budgets kept",
         fixed(r.budgetMetPct, 1) + " % of " + std::to_string(r.checkStreams) +
             (r.arrival.kind == ArrivalSpec::Kind::Trace ? " jittered replays of the trace"
                                                         : " fresh simulated streams") +
             (margin ? " at the estimated powers' upper bounds (" + confidenceText(r.margins.confidence) +
                           "): the estimates' error as a margin, not a measurement"
              : r.margins.estimated ? " at the estimated powers, with no margin for their error "
                                      "(--confidence 0.5), not a measurement"
                                    : std::string()),
         kSimulated, "the plan simulated again on streams it was not chosen on"});
    return lines;
}

PlanTable policiesOf(const PlanReport& r) {
    PlanTable t;
    // the plan's configuration, or without a plan the best candidate the policies were compared at
    t.title = "SLO violations by scheduling policy";
    if (r.outcome.plan)
        t.title += " at " + candidateName(r, r.outcome.candidates[*r.outcome.plan]);
    else if (!r.outcome.candidates.empty())
        t.title += " at the best candidate, " + candidateName(r, r.outcome.candidates.front()) + " (no plan)";
    // the plan's own figures ran against a shortened SLO: these, at the SLO itself, differ from them
    if (r.margins.applied() && r.request.strategy == PlanStrategy::Exhaustive &&
        planSloFactor(r.margins) > 1.005)
        t.title += ", against the SLO itself (the plan's figures: against it shortened by x" +
                   fixed(planSloFactor(r.margins), 2) + " for the costs' error)";
    t.provenance = kSimulated;
    t.basis =
        "% of requests late or dropped, and training throughput, at the mode and batch the title names; " +
        planScheduleBasis(r);
    t.columns = {
        {"Arrivals", "", true, "The arrival process at the request's rate"},
        {"No training", "%", false, "The inference stream alone (the baseline)"},
        {"Greedy", "%", false, "A minibatch whenever no inference batch must start now"},
        {"Adaptive", "%", false, "A minibatch only in a gap it fits in (the plan's policy)"},
        {"Greedy minibatches/s", "minibatches/s", false, "Training throughput of the greedy policy"},
        {"Adaptive minibatches/s", "minibatches/s", false, "Training throughput of the adaptive policy"}};
    for (const PolicyComparison& p : r.policies) {
        t.rows.push_back({textCell(p.arrival), numberCell(p.inferenceOnlyPct, 2, " %"),
                          numberCell(p.greedyPct, 2, " %"), numberCell(p.adaptivePct, 2, " %"),
                          numberCell(p.greedyMinibatchesPerSecond, 2),
                          numberCell(p.adaptiveMinibatchesPerSecond, 2)});
        t.rowNotes.emplace_back();
        t.greyedRows.push_back(false);
    }
    return t;
}

PlanTable candidatesOf(const PlanReport& r, size_t limit) {
    PlanTable t;
    t.title = std::string("Best candidates over ") +
              (r.request.strategy == PlanStrategy::Exhaustive ? "the prediction" : "the profiled modes");
    t.provenance = kSimulated;
    // on estimates the search ran on the powers' upper bounds and the shortened SLO: so do these figures
    const bool bounded = r.margins.applied() && r.request.strategy == PlanStrategy::Exhaustive;
    t.basis = planScheduleBasis(r) + " on each candidate's costs (see Costs)" +
              (bounded ? ", at the costs' upper bounds (" + confidenceText(r.margins.confidence) +
                             ") and against the SLO shortened by x" + fixed(planSloFactor(r.margins), 2) +
                             ", as the search weighed them (the policies above are at the SLO itself)"
                       : std::string());
    t.columns = {{"Mode", "", true,
                  "The power mode; a custom mode by its clocks (GPU · EMC · cores × CPU MHz), its id "
                  "(c2-cpu…) in the headline and the JSON"},
                 {"Batch", "", false, "The inference batch size of the candidate", true},
                 {"Minibatches/s", "minibatches/s", false, "Training throughput beside the inference stream"},
                 {bounded ? "Violations, SLO bound" : "SLO violations", "%", false,
                  bounded
                      ? "Requests late or dropped, over all streams, against the SLO shortened by the costs' "
                        "time margin (the policies' table is at the SLO itself)"
                      : "Requests late or dropped, over all streams"},
                 {bounded ? "Avg power bound" : "Avg power", "W", false,
                  bounded ? "Average power over the schedule at the costs' upper bounds (the plan's figures "
                            "above are at the estimates themselves)"
                          : "Average power over the schedule"},
                 {"Costs", "", true, "Where the candidate's time and power per workload come from"},
                 {"Note", "", true, "Why the candidate misses the budgets"}};
    for (size_t i = 0; i < r.outcome.candidates.size() && i < limit; ++i) {
        const PlanCandidate& c = r.outcome.candidates[i];
        const ScheduleStats& s = c.result.stats;
        t.rows.push_back({textCell(readableModeName(r.space.modes[c.mode].mode)),
                          {std::to_string(r.space.inferenceBatches[c.result.batchIndex]),
                           static_cast<double>(r.space.inferenceBatches[c.result.batchIndex])},
                          numberCell(s.minibatchesPerSecond, 2),
                          numberCell(s.violationPct, 2, " %"),
                          numberCell(s.averageWatts, 1, " W"),
                          textCell(c.costs.provenance),
                          textCell(!c.result.feasible ? c.result.reason
                                   : c.keptPct >= 0 && (!r.outcome.plan || i < *r.outcome.plan)
                                       ? "kept the budgets in " + fixed(c.keptPct, 0) + " % of fresh streams"
                                       : std::string())});
        t.rowNotes.push_back(c.result.feasible ? std::string() : c.result.reason);
        t.greyedRows.push_back(!c.result.feasible);
    }
    if (r.outcome.plan && *r.outcome.plan < t.rows.size())
        t.emphasisedRow = static_cast<int>(*r.outcome.plan);
    return t;
}

} // namespace

std::string planScheduleBasis(const PlanReport& r) {
    return "seeded discrete-event simulation of " + std::to_string(r.request.planningStreams) +
           " streams of " + general(r.simulatedSeconds, 4) + " s";
}

std::string planModeClocks(const PowerMode& mode) {
    return std::to_string(mode.onlineCores) + " cores @ " + mhz(mode.cpuKhz * 1e3) + " MHz, GPU " +
           mhz(static_cast<double>(mode.gpuHz)) + " MHz, EMC " + mhz(static_cast<double>(mode.emcHz)) +
           " MHz";
}

namespace {

double roundedUp(double value, double step) {
    return std::ceil(value / step - 1e-9) * step;
}

} // namespace

std::string planClosestMiss(const PlanReport& r) {
    if (r.outcome.plan) return {};
    const PlanBudgets& b = r.budgets;
    // of the candidates that train: keeping the SLO over the cap (the least power), and within the cap
    // missing the SLO too often (the fewest misses)
    const PlanCandidate* overCap = nullptr;
    const PlanCandidate* tooLate = nullptr;
    bool anyTrains = false;
    for (const PlanCandidate& c : r.outcome.candidates) {
        if (!c.result.evaluated || c.result.stats.minibatchesPerSecond <= 0) continue;
        anyTrains = true;
        const bool keepsSlo = c.result.worstViolationPct <= b.maxViolationPct;
        const bool keepsCap = !b.powerCapWatts || c.result.worstWatts <= *b.powerCapWatts;
        if (keepsSlo && !keepsCap && (!overCap || c.result.worstWatts < overCap->result.worstWatts))
            overCap = &c;
        if (keepsCap && !keepsSlo &&
            (!tooLate || c.result.worstViolationPct < tooLate->result.worstViolationPct))
            tooLate = &c;
    }
    std::string text;
    if (overCap) {
        const double watts = overCap->result.worstWatts, cap = *b.powerCapWatts;
        text += "Closest within the SLO: " + candidateName(r, *overCap) + " trains " +
                general(overCap->result.stats.minibatchesPerSecond, 3) + " minibatches/s at " +
                fixed(watts, 1) + " W average, " + fixed((watts / cap - 1) * 100, 0) + " % over the " +
                general(cap, 4) + " W cap: a cap of " + fixed(roundedUp(watts, 0.1), 1) + " W admits it.";
    }
    if (tooLate) {
        const double pct = tooLate->result.worstViolationPct;
        text += std::string(text.empty() ? "" : " ") +
                "Closest within the power cap: " + candidateName(r, *tooLate) + " trains " +
                general(tooLate->result.stats.minibatchesPerSecond, 3) + " minibatches/s with " +
                fixed(pct, 2) + " % of requests late or dropped against " + general(b.maxViolationPct, 3) +
                " %: allowing " + fixed(roundedUp(pct, 0.01), 2) + " %, or a latency SLO above " +
                general(b.sloSeconds * 1e3, 4) + " ms, admits it.";
    }
    if (!text.empty()) return text;
    // on estimates the costs' error was taken as a margin (powers up, the SLO shorter): measuring removes it
    const bool margin = r.margins.estimated;
    const std::string withMargin = margin ? " once the costs' error is taken as a margin" : "";
    const std::string measure = margin ? ", or measure the costs (the gmd strategy, through a runner)" : "";
    if (anyTrains)
        return "Every configuration tried breaks both the SLO and the power cap" + withMargin +
               ": relax both, lower the arrival rate" + measure + ".";
    return "No mode tried trains a minibatch beside inference within the " + general(b.sloSeconds * 1e3, 4) +
           " ms SLO" + withMargin + ": relax the SLO, use a smaller training minibatch" + measure + ".";
}

PlanRendering renderPlan(const PlanReport& r, size_t candidateRows) {
    PlanRendering out;
    out.title = "Plan for training " + modelAtDims(r.trainingModel, r.request.trainingDims) + " (batch " +
                std::to_string(r.space.trainingBatch) + ", " + optimizerName(r.request.optimizer) +
                ") beside inference of " + modelAtDims(r.inferenceModel, r.request.inferenceDims) + " on " +
                r.device.name;
    out.settings = settingsOf(r);
    if (r.outcome.plan) {
        const PlanCandidate& c = r.outcome.candidates[*r.outcome.plan];
        const PowerMode& mode = r.space.modes[c.mode].mode;
        out.planned = true;
        // a custom mode by its clocks as a person reads them, its canonical name (nvpmodel, the CLI) beside
        out.headline =
            std::string(r.outcome.cancelled ? "Cancelled; the best of what was weighed before: " : "") +
            "Plan: " + readableModeName(mode) + " (" + (mode.stock ? planModeClocks(mode) : mode.name) +
            "), inference batch " + std::to_string(r.space.inferenceBatches[c.result.batchIndex]);
        out.figures = figuresOf(r, c);
        out.nvpmodel = r.nvpmodel;
        out.timelineConfiguration = candidateName(r, c);
    } else if (r.outcome.cancelled) {
        // a search that did not end says nothing of whether a configuration meets the budgets
        out.headline = "Cancelled before the search ended (" + std::to_string(r.outcome.profiledModes) +
                       " modes profiled): no plan; run it again to finish";
    } else if (r.outcome.nothingMeasured()) {
        out.headline =
            "No plan: every profile through " + (r.runner.empty() ? std::string("the runner") : r.runner) +
            " failed (" + std::to_string(r.outcome.failedProfiles) +
            "): no mode was profiled completely (inference at every batch size and a training step); each "
            "one's reason is in the notes below";
    } else {
        out.headline = "No configuration meets the budgets. " + planClosestMiss(r);
        if (!r.outcome.candidates.empty())
            out.timelineConfiguration =
                "the best candidate, " + candidateName(r, r.outcome.candidates.front()) + " (no plan)";
    }
    out.policies = policiesOf(r);
    out.candidates = candidatesOf(r, candidateRows);
    out.notes = r.outcome.notes;
    if (!r.advice.empty()) out.notes.insert(out.notes.begin(), r.advice);
    return out;
}

} // namespace rooftop
