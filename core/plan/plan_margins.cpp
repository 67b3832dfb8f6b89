// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_margins.h"

#include "core/common/text_format.h"

#include <algorithm>

namespace rooftop {

namespace {

std::string spreadText(const PredictionSpread& s) {
    return "time " + fixed(100 * s.latency, 0) + " %, power " + fixed(100 * s.power, 0) + " %";
}

} // namespace

PlanMargins planMargins(const Predictor* predictor, double confidence, const Predictor* trainingPredictor) {
    PlanMargins m;
    m.confidence = confidence;
    const PredictionSpread prior = priorSpread();
    m.inference = predictor ? predictor->cvSpread() : prior;
    m.training = trainingPredictor ? trainingPredictor->cvSpread() : prior;
    m.idlePower = prior.power;
    m.basis =
        "inference: " +
        (predictor ? "the predictor's cross-validated error (" + spreadText(m.inference) + ")"
                   : "Rooftop's roofline, an estimate (" + spreadText(m.inference) + ")") +
        "; training step: " +
        (trainingPredictor ? "the training predictor's cross-validated error (" + spreadText(m.training) + ")"
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
    for (double& watts : out.inferenceWatts)
        watts = upperBound(watts, m.inference.power, p);
    out.trainingWatts = upperBound(out.trainingWatts, m.training.power, p);
    out.idleWatts = upperBound(out.idleWatts, m.idlePower, p);
    return out;
}

double planSloFactor(const PlanMargins& m) {
    return upperBound(1.0, std::max(m.inference.latency, m.training.latency), m.confidence);
}

PlanSpace withMargins(PlanSpace space, const PlanMargins& margins) {
    for (PlanModeCosts& costs : space.modes)
        costs = withMargin(costs, margins);
    return space;
}

} // namespace rooftop
