// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/plan_session.h"

namespace rooftop::test {

/// A plan built by hand (no counting, no simulation): MobileNetV2 inference beside ResNet-18 training on an
/// Orin Nano 8GB, Poisson 30 req/s, SLO 100 ms, cap 15 W; three modes and three candidates (the plan, a
/// slower feasible one and one over the cap), three arrival processes in the policy comparison.
PlanReport knownPlanReport();

} // namespace rooftop::test
