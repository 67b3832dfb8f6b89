// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

namespace rooftop {

void registerRecurrentRules(CostRuleTable& table) { (void)table; }

} // namespace rooftop
