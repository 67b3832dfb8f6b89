// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_margins.h"

#include "core/common/text_format.h"

#include <algorithm>

namespace rooftop {

namespace {

std::string spreadText(const PredictionSpread& s) {
    return "time " + fixed(100 * s.latency, 0) + " %, power " + fixed(100 * s.power, 0) + " %";
}

/// `spread` at `batch`, widened beyond the batches of the predictor's time runs and, when it learned power,
/// of its power runs.
PredictionSpread atBatch(const Predictor& predictor, PredictionSpread spread, int64_t batch) {
    const double time = spreadBeyondBatches(predictor.range.minBatch, predictor.range.maxBatch, batch);
    const double power = predictor.powerLearned ? spreadBeyondBatches(predictor.powerRange.minBatch,
                                                                      predictor.powerRange.maxBatch, batch)
                                                : 0.0;
    spread.latency += time;
    spread.power += power;
    spread.energy += std::max(time, power);
    return spread;
}

/// "; at batch 8, beyond its runs' batches (1): time 34 %, power 33 %" for each batch the spread widens at.
std::string beyondText(const Predictor& predictor, const std::vector<int64_t>& batches,
                       const std::vector<PredictionSpread>& spreads) {
    std::string text;
    for (size_t i = 0; i < batches.size(); ++i)
        if (spreads[i].latency != predictor.cvSpread().latency ||
            spreads[i].power != predictor.cvSpread().power)
            text += "; at batch " + std::to_string(batches[i]) + ", beyond its runs' batches (" +
                    std::to_string(predictor.range.minBatch) +
                    (predictor.range.maxBatch != predictor.range.minBatch
                         ? "-" + std::to_string(predictor.range.maxBatch)
                         : std::string()) +
                    ", 10 % more a doubling): " + spreadText(spreads[i]);
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
        m.inferenceByBatch.push_back(predictor ? atBatch(*predictor, m.inference, batch) : m.inference);
    m.training =
        trainingPredictor ? atBatch(*trainingPredictor, trainingPredictor->cvSpread(), trainingBatch) : prior;
    m.idlePower = prior.power;
    const bool trainingBeyond =
        trainingPredictor && (m.training.latency != trainingPredictor->cvSpread().latency ||
                              m.training.power != trainingPredictor->cvSpread().power);
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

PlanSpace withMargins(PlanSpace space, const PlanMargins& margins) {
    for (PlanModeCosts& costs : space.modes)
        costs = withMargin(costs, margins);
    return space;
}

} // namespace rooftop
