// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/cost_registry.h"

namespace rooftop {

const CostRuleTable& costRules() {
    static const CostRuleTable table = [] {
        CostRuleTable t;
        registerConvRules(t);
        registerMatmulRules(t);
        registerAttentionRules(t);
        registerElementwiseRules(t);
        registerNormalizationRules(t);
        registerPoolingRules(t);
        registerReduceRules(t);
        registerDataMovementRules(t);
        registerRecurrentRules(t);
        registerQuantizationRules(t);
        registerControlRules(t);
        registerEinsumRules(t);
        return t;
    }();
    return table;
}

CostRule findCostRule(const std::string& domain, const std::string& opType) {
    const std::string key = domain == "ai.onnx" ? std::string() : domain;
    auto it = costRules().find({key, opType});
    return it == costRules().end() ? nullptr : it->second;
}

} // namespace rooftop
