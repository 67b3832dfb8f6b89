// SPDX-License-Identifier: GPL-3.0-or-later
// Control flow, constants, sequences and optionals: no work of their own. The graph builder flattens Loop,
// Scan and If bodies into the node list (repeat = the constant trip count), so the body nodes carry the cost.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

namespace rooftop {
namespace {

// 0 FLOPs, 0 bytes.
OpCost control(const CostContext&) {
    OpCost cost;
    cost.kind = OpKind::Control;
    return cost;
}

} // namespace

void registerControlRules(CostRuleTable& table) {
    for (const char* op : {"Loop", "If", "Scan", "Constant", "SequenceConstruct", "SequenceEmpty",
                           "SequenceAt", "SequenceInsert", "SequenceErase", "SequenceLength", "SequenceMap",
                           "Optional", "OptionalGetElement", "OptionalHasElement"})
        table[{"", op}] = control;
}

} // namespace rooftop
