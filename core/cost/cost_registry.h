// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/op_cost.h"

#include <map>
#include <string>
#include <utility>

namespace rooftop {

/// Cost rules keyed by (domain, op type); the default domain is "".
using CostRuleTable = std::map<std::pair<std::string, std::string>, CostRule>;

/// The rule for this operator, or nullptr when it has none (the node is then reported unsupported).
CostRule findCostRule(const std::string& domain, const std::string& opType);

/// Every (domain, op type) with a rule, for listings and tests.
const CostRuleTable& costRules();

// One registration function per operator family (cost/*_rules.cpp).
void registerConvRules(CostRuleTable& table);
void registerMatmulRules(CostRuleTable& table);
void registerAttentionRules(CostRuleTable& table);
void registerElementwiseRules(CostRuleTable& table);
void registerNormalizationRules(CostRuleTable& table);
void registerPoolingRules(CostRuleTable& table);
void registerReduceRules(CostRuleTable& table);
void registerDataMovementRules(CostRuleTable& table);
void registerRecurrentRules(CostRuleTable& table);
void registerQuantizationRules(CostRuleTable& table);
void registerControlRules(CostRuleTable& table);
void registerEinsumRules(CostRuleTable& table);

} // namespace rooftop
