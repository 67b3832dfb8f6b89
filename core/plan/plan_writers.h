// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/plan_session.h"

#include <string>

namespace rooftop {

/// The plan as text: the workloads and budgets, the plan with its simulated figures and their basis, how
/// often it kept the budgets on fresh streams, the policy comparison and the best candidates.
std::string planTable(const PlanReport& report);

/// The plan as JSON: {"device", "strategy", "profiled_modes", "plan": {...} or null, "predicted": {...} or
/// null, "candidates": [...], "policies": [...], "pareto": [...], "timeline": [...], ...}.
std::string planJson(const PlanReport& report);

} // namespace rooftop
