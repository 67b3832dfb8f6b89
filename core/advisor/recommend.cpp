// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's thin evaluation layer: sweepModes for every candidate, predict() for the explanation.
#include "core/advisor/advisor.h"
#include "core/advisor/explanation.h"
#include "core/advisor/memory_fit.h"
#include "core/advisor/nvpmodel_guide.h"
#include "core/common/errors.h"

#include <map>
#include <optional>
#include <utility>

namespace rooftop {
namespace {

void checkWorkloads(const std::vector<BatchWorkload>& workloads) {
    if (workloads.empty()) throw InputError("the advisor needs at least one batch size");
    for (const auto& w : workloads)
        if (w.batch < 1) throw InputError("batch sizes must be at least 1, got " + std::to_string(w.batch));
}

void overrideTotals(ModelPrediction& prediction, const ModeSummary& summary, Provenance provenance) {
    prediction.latencySeconds = summary.latencySeconds;
    prediction.energyJoules = summary.energyJoules;
    prediction.averageWatts = summary.averageWatts;
    prediction.provenance = provenance;
}

// A batch whose pass the board cannot hold is no candidate, however fast or frugal the roofline finds it; the
// footprint is the batch's, the same in every mode, so it is reckoned once a batch.
void reckonMemory(const DeviceSpec& device, const std::vector<BatchWorkload>& workloads, Candidate& baseline,
                  std::vector<Candidate>& candidates) {
    std::map<int64_t, MemoryFit> fits;
    for (const BatchWorkload& w : workloads)
        fits.emplace(w.batch, memoryFit(device, w.workload));
    const auto apply = [&](Candidate& c) {
        if (const auto fit = fits.find(c.batch); fit != fits.end()) {
            c.memoryBytes = fit->second.heldBytes;
            c.fitsMemory = fit->second.fits;
        }
    };
    apply(baseline);
    for (Candidate& c : candidates)
        apply(c);
}

} // namespace

std::vector<Candidate> evaluateCandidates(const std::vector<BatchWorkload>& workloads,
                                          const std::vector<ModeProfile>& profiles,
                                          const ModeSummarizer& summarize) {
    std::vector<Candidate> candidates;
    candidates.reserve(workloads.size() * profiles.size());
    for (const auto& w : workloads) {
        const std::vector<ModeSummary> summaries =
            summarize ? summarize(w, profiles) : sweepModes(w.workload, profiles);
        if (summaries.size() != profiles.size()) throw std::logic_error("sweepModes returned a wrong count");
        const std::optional<LayerPredictor> prior =
            summarize ? std::nullopt : std::optional<LayerPredictor>(std::in_place, w.workload);
        for (size_t i = 0; i < profiles.size(); ++i) {
            Candidate c;
            c.profile = profiles[i];
            c.batch = w.batch;
            c.summary = summaries[i];
            // the prior's spread by the classes its runtime was checked on, or the predictor's
            if (prior) c.summary.spread = prior->spread(profiles[i]);
            // the inputs this workload uses, or the predictor's numbers
            c.provenance = summarize ? summarize.provenance : prior->provenance(profiles[i]);
            candidates.push_back(std::move(c));
        }
    }
    return candidates;
}

Recommendation recommendMode(const DeviceSpec& device, const std::vector<BatchWorkload>& workloads,
                             const std::vector<ModeProfile>& profiles, const ModeProfile& baselineProfile,
                             const Constraints& constraints, Objective objective,
                             const ModeSummarizer& summarize) {
    checkWorkloads(workloads);
    validateConstraints(constraints);
    if (profiles.empty()) throw InputError(device.id + ": no power modes to choose from");

    Candidate baseline = evaluateCandidates({workloads.front()}, {baselineProfile}, summarize).front();
    std::vector<Candidate> candidates = evaluateCandidates(workloads, profiles, summarize);
    reckonMemory(device, workloads, baseline, candidates);
    const bool training = workloads.front().workload.settings.phase == Phase::Training;
    Recommendation r = decide(std::move(candidates), std::move(baseline), constraints, objective, training);
    r.usableMemoryBytes = device.usableMemoryBytes(memoryReserveGiB(device));
    r.memoryReserveGiB = memoryReserveGiB(device);
    r.memoryReserveFor = memoryReserveFor(device);
    r.workloadOptions = workloadOptionsText(workloads.front().workload.settings);
    r.spreadBasis =
        summarize ? summarize.spreadBasis : coverageSpreadBasis(profiles.front().ceilings.classEfficiency);
    r.spreadSummary = summarize ? summarize.spreadSummary : std::string();
    if (!r.recommended) {
        r.explanation = explainInfeasible(r, constraints);
        return r;
    }
    const Candidate& chosen = r.candidates[*r.recommended];
    const Workload* workload = &workloads.front().workload;
    for (const auto& w : workloads)
        if (w.batch == chosen.batch) workload = &w.workload;
    ModelPrediction recommended = predict(*workload, chosen.profile);
    ModelPrediction base = predict(workloads.front().workload, baselineProfile);
    if (summarize) { // the explanation quotes the summarizer's totals; the layers stay the roofline's
        overrideTotals(recommended, chosen.summary, summarize.provenance);
        overrideTotals(base, r.baseline.summary, summarize.provenance);
    }
    r.explanation = explainRecommendation(r, recommended, base, constraints, objective);
    r.nvpmodelBlock = nvpmodelInstructions(device, chosen.profile.mode);
    return r;
}

Recommendation recommendMode(const DeviceSpec& device, const std::vector<BatchWorkload>& workloads,
                             const std::vector<ModeProfile>& profiles, const Constraints& constraints,
                             Objective objective, const ModeSummarizer& summarize) {
    const StockMode& fastest = device.fastestStockMode();
    for (const auto& p : profiles)
        if (p.mode.stock && p.mode.stockId == fastest.id)
            return recommendMode(device, workloads, profiles, p, constraints, objective, summarize);
    throw InputError(device.id + ": the baseline mode " + fastest.name + " is not among the modes evaluated");
}

} // namespace rooftop
