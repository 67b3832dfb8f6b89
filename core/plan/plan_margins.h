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
    /// Per PlanSpace::inferenceBatches entry: `inference`, widened at a batch beyond the predictor's runs
    std::vector<PredictionSpread> inferenceByBatch;
    PredictionSpread training;     ///< of the training step: a training predictor's, else the prior's
    double idlePower = 0.0;        ///< of the idle power (the prior's)
    std::string basis;             ///< each stream's basis and spread, in words
    bool estimated = true;         ///< false: the plan's workload costs were measured (gmd, als)
    bool idleAtUpperBound = false; ///< the space's idle powers are their upper bounds (withIdleMargin)

    /// The costs are estimates planned at their upper bounds (at confidence 0.5 the bounds are the
    /// estimates).
    bool applied() const { return estimated && confidence > 0.5; }
};

/// The margins of a plan over the prediction: each stream's predictor's spread when it has one (the inference
/// predictor, the training predictor), else the prior's; the prior's for the idle power. A predictor's spread
/// grows 10 % a doubling of the batch beyond its runs' batches (spreadBeyondBatches), per inference batch
/// and at the training batch.
PlanMargins planMargins(const Predictor* predictor, double confidence, const Predictor* trainingPredictor,
                        const std::vector<int64_t>& inferenceBatches, int64_t trainingBatch);

/// A mode's costs with the power margin: every power times exp(z spread) at the margins' confidence; the
/// times stay the estimates (longer ones would leave less training and lower the average power).
PlanModeCosts withMargin(const PlanModeCosts& costs, const PlanMargins& margins);

/// The time margin, taken from the SLO: exp(z spread) of the largest time spread, over the inference batches
/// and the training step (the plan keeps latencies under SLO / this factor at its estimated times).
double planSloFactor(const PlanMargins& margins);

/// Every mode of a space with the power margin (withMargin).
PlanSpace withMargins(PlanSpace space, const PlanMargins& margins);

/// Every mode's idle power at its upper bound at the margins' confidence: the one estimated cost of a plan
/// that measures its workloads (gmd, als), whose runs cannot see the board idle.
PlanSpace withIdleMargin(PlanSpace space, const PlanMargins& margins);

/// The basis of a measured plan's costs: the workloads through `runner`, the idle power an estimate taken at
/// its upper bound.
std::string measuredPlanBasis(const std::string& runner, const PlanMargins& margins);

} // namespace rooftop
