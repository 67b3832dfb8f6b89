// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rooftop {

/// How many layers, and how much of the time, each bound takes in one prediction.
struct BoundBreakdown {
    std::array<int, 3> layers{};     ///< indexed by Bound (Compute, Memory, Overhead)
    std::array<double, 3> seconds{}; ///< layer time per bound
    int totalLayers = 0;             ///< layers counted over every bound
    double totalSeconds = 0.0;       ///< layer time over every bound, seconds

    /// Layers with this bound.
    int layerCount(Bound bound) const { return layers[size_t(bound)]; }
    /// Share of the time (0..1) spent in layers with this bound.
    double share(Bound bound) const { return totalSeconds > 0 ? seconds[size_t(bound)] / totalSeconds : 0.0; }
};

/// Counts the layers and sums the layer time of each bound.
BoundBreakdown boundBreakdown(const ModelPrediction& prediction);

/// One sentence naming where the numbers come from ("predicted from datasheet-derived ceilings ..."); with
/// the mode's profile, what a calibrated runtime fitted beside the estimates.
std::string provenanceSentence(Provenance provenance, const ModeProfile* profile = nullptr);

/// Plain-language reasons for a decided recommendation: the numbers, the comparison with the baseline, what
/// binds the layers in the recommended mode (from `recommended`, predict() of that mode), why a lower clock
/// costs little time when the binding resource is another one, what limits the choice, and the provenance.
/// `baseline` is predict() of the baseline mode at the first batch size.
std::string explainRecommendation(const Recommendation& recommendation, const ModelPrediction& recommended,
                                  const ModelPrediction& baseline, const Constraints& constraints,
                                  Objective objective);

/// A candidate's latency per batch with its upper bound at a confidence: "4.93 ms (≤ 5.10 ms at 90 %)"; the
/// value alone when the bound is the value (no spread, or a confidence of 0.5).
std::string boundedLatency(const Candidate& candidate, double confidence);
/// Its average power so: "12.3 W (≤ 13.0 W at 90 %)".
std::string boundedPower(const Candidate& candidate, double confidence);
/// Its energy per inference so: "61.20 mJ (≤ 65.00 mJ at 90 %)".
std::string boundedEnergy(const Candidate& candidate, double confidence);

/// What the recommendation's confidence means and what its bounds rest on, in one sentence; empty when its
/// candidates carry no spread. Brief: the basis in brief (Recommendation::spreadSummary) where there is one.
std::string confidenceSentence(const Recommendation& recommendation, bool brief = false);

/// "--modes 'A;B' --batch 1,4": the profile options that run these (mode name, batch) configurations, each
/// name and batch once, in their order.
std::string profileSelection(const std::vector<std::pair<std::string, int64_t>>& configurations);

/// "A close call: ..." naming the candidates the predictions cannot tell from the pick (closeCalls) and how
/// to settle it by measuring; empty when there are none.
std::string closeCallSentence(const Recommendation& recommendation, Objective objective);

/// Why nothing is feasible: each limit against the best any candidate reaches, and the closest candidates.
std::string explainInfeasible(const Recommendation& recommendation, const Constraints& constraints);

} // namespace rooftop
