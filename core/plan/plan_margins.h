// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/predictor.h"
#include "core/plan/plan_space.h"
#include "core/roofline/prediction_spread.h"

#include <string>

namespace rooftop {

/// What a plan's costs rest on, how far they may be off, and the margin that takes from the budgets: a plan
/// on estimated costs meets the cap and the SLO with their upper bounds at `confidence`.
struct PlanMargins {
    double confidence = 0.9;
    PredictionSpread inference; ///< of the inference costs: a predictor's, else the prior's (priorSpread)
    PredictionSpread training;  ///< of the training step: a training predictor's, else the prior's
    double idlePower = 0.0;     ///< of the idle power (the prior's)
    std::string basis;          ///< each stream's basis and spread, in words
    bool estimated = true;      ///< false: the plan's workload costs were measured (gmd, als)
};

/// The margins of a plan over the prediction: each stream's predictor's spread when it has one (the inference
/// predictor, the training predictor), else the prior's; the prior's for the idle power.
PlanMargins planMargins(const Predictor* predictor, double confidence,
                        const Predictor* trainingPredictor = nullptr);

/// A mode's costs with the power margin: every power times exp(z spread) at the margins' confidence; the
/// times stay the estimates (longer ones would leave less training and lower the average power).
PlanModeCosts withMargin(const PlanModeCosts& costs, const PlanMargins& margins);

/// The time margin, taken from the SLO: exp(z spread) of the larger time spread (the plan keeps latencies
/// under SLO / this factor at its estimated times).
double planSloFactor(const PlanMargins& margins);

/// Every mode of a space with the power margin (withMargin).
PlanSpace withMargins(PlanSpace space, const PlanMargins& margins);

} // namespace rooftop
