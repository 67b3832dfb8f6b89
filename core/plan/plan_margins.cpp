// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_margins.h"

#include "core/common/runner_name.h"
#include "core/common/text_format.h"

#include <algorithm>

namespace rooftop {

namespace {

std::string spreadText(const PredictionSpread& s) {
    return "time " + fixed(100 * s.latency, 0) + " %, power " + fixed(100 * s.power, 0) + " %";
}

bool widens(const PredictionSpread& beyond) {
    return beyond.latency > 0 || beyond.power > 0;
}

std::string batchesText(const LearnRange& range) {
    return std::to_string(range.minBatch) +
           (range.maxBatch != range.minBatch ? "-" + std::to_string(range.maxBatch) : std::string());
}

/// "; at batch 8, beyond its runs' batches (1): time 34 %, power 33 %" for each batch the spread widens at.
std::string beyondText(const Predictor& predictor, const std::vector<int64_t>& batches,
                       const std::vector<PredictionSpread>& spreads) {
    std::string text;
    for (size_t i = 0; i < batches.size(); ++i)
        if (widens(predictor.spreadBeyondRuns(batches[i])))
            text += "; at batch " + std::to_string(batches[i]) + ", beyond its runs' batches (" +
                    batchesText(predictor.range) + ", 10 % more a doubling): " + spreadText(spreads[i]);
    return text;
}

} // namespace

PlanMargins planMargins(const Predictor* predictor, double confidence, const Predictor* trainingPredictor,
                        const std::vector<int64_t>& inferenceBatches, int64_t trainingBatch) {
    PlanMargins m;
    m.confidence = confidence;
    const PredictionSpread prior = priorSpread();
    m.inference = predictor ? predictor->cvSpread() : prior;
    for (int64_t batch : inferenceBatches)
        m.inferenceByBatch.push_back(predictor ? m.inference + predictor->spreadBeyondRuns(batch)
                                               : m.inference);
    m.training = trainingPredictor
                     ? trainingPredictor->cvSpread() + trainingPredictor->spreadBeyondRuns(trainingBatch)
                     : prior;
    m.idlePower = prior.power;
    const bool trainingBeyond =
        trainingPredictor && widens(trainingPredictor->spreadBeyondRuns(trainingBatch));
    m.basis =
        "inference: " +
        (predictor ? "the predictor's cross-validated error (" + spreadText(m.inference) + ")" +
                         beyondText(*predictor, inferenceBatches, m.inferenceByBatch)
                   : "Rooftop's roofline, an estimate (" + spreadText(m.inference) + ")") +
        "; training step: " +
        (trainingPredictor
             ? "the training predictor's cross-validated error (" +
                   spreadText(trainingPredictor->cvSpread()) + ")" +
                   (trainingBeyond
                        ? "; at minibatch " + std::to_string(trainingBatch) +
                              ", beyond its runs' batches (10 % more a doubling): " + spreadText(m.training)
                        : std::string())
             : "Rooftop's roofline, an estimate (" + spreadText(m.training) + ")") +
        "; idle power: Rooftop's power model, an estimate (" + fixed(100 * m.idlePower, 0) +
        " %); 1 sigma, the prior's from its error against a simulated board's other physics";
    return m;
}

// Times stay the estimates: longer times would leave fewer gaps for training and so lower the average power,
// the opposite of a margin; the SLO takes the time margin instead (planSloFactor).
PlanModeCosts withMargin(const PlanModeCosts& costs, const PlanMargins& m) {
    PlanModeCosts out = costs;
    const double p = m.confidence;
    for (size_t i = 0; i < out.inferenceWatts.size(); ++i)
        out.inferenceWatts[i] =
            upperBound(out.inferenceWatts[i],
                       i < m.inferenceByBatch.size() ? m.inferenceByBatch[i].power : m.inference.power, p);
    out.trainingWatts = upperBound(out.trainingWatts, m.training.power, p);
    out.idleWatts = upperBound(out.idleWatts, m.idlePower, p);
    return out;
}

double planSloFactor(const PlanMargins& m) {
    double widest = std::max(m.inference.latency, m.training.latency);
    for (const PredictionSpread& s : m.inferenceByBatch)
        widest = std::max(widest, s.latency);
    return upperBound(1.0, widest, m.confidence);
}

PlanSpace withIdleMargin(PlanSpace space, const PlanMargins& margins) {
    if (margins.idleAtUpperBound) return space;
    for (PlanModeCosts& costs : space.modes)
        costs.idleWatts = upperBound(costs.idleWatts, margins.idlePower, margins.confidence);
    return space;
}

std::string measuredPlanBasis(const std::string& runner, const PlanMargins& margins) {
    const std::string how = isSimulatedRunner(runner)
                                ? "simulated through " + runner + " (the simulated board, not a measurement)"
                                : "measured through " + runner;
    return "inference and training " + how + "; idle power: Rooftop's power model, an estimate (" +
           fixed(100 * margins.idlePower, 0) + " %, 1 sigma), taken at its upper bound at " +
           fixed(100 * margins.confidence, 0) + " % (the runs do not see the board idle)";
}

PlanSpace withMargins(PlanSpace space, const PlanMargins& margins) {
    for (PlanModeCosts& costs : space.modes)
        costs = withMargin(costs, margins);
    return space;
}

} // namespace rooftop
