// SPDX-License-Identifier: GPL-3.0-or-later
// Recurrent layers, counted over the whole sequence and all directions. X is [S, B, I] (layout 0) or
// [B, S, I] (layout 1), W [dirs, gates*H, I], R [dirs, gates*H, H]. With units = dirs x S x B x H:
// MACs = units x gates x (I + H); gate nonlinearities and state updates are counted per unit.
// A sigmoid is 3 vector ops + 1 exp (as the Sigmoid rule), a tanh 1 SFU op.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

namespace rooftop {
namespace {

struct RecurrentDims {
    int64_t steps = 0;
    int64_t batch = 0;
    int64_t input = 0;
    int64_t hidden = 0;
    int64_t directions = 0;
};

bool rank3(const Tensor* t) {
    return t && t->shapeKnown && t->dims.size() == 3;
}

// Reads S, B, I, H and dirs from X, W, R and the attributes; false when a shape is unknown.
bool bindRecurrentDims(const CostContext& c, RecurrentDims& d) {
    const Tensor* x = c.input(0);
    const Tensor* w = c.input(1);
    const Tensor* r = c.input(2);
    if (!rank3(x) || !rank3(w) || !rank3(r)) return false;
    const bool batchFirst = c.node().attributeInt("layout", 0) == 1;
    d.steps = batchFirst ? x->dims[1] : x->dims[0];
    d.batch = batchFirst ? x->dims[0] : x->dims[1];
    d.input = x->dims[2];
    d.hidden = c.node().attributeInt("hidden_size", r->dims[2]);
    d.directions = w->dims[0];
    return d.hidden > 0 && d.directions > 0;
}

// Per-unit vector and SFU ops on top of the gate products.
struct UnitOps {
    int64_t vector = 0;
    int64_t sfu = 0;
};

OpCost recurrentCost(const CostContext& c, int64_t gates, UnitOps perUnit) {
    OpCost cost;
    cost.kind = OpKind::Matrix;
    RecurrentDims d;
    if (!bindRecurrentDims(c, d)) {
        cost.supported = false;
        return cost;
    }
    const int64_t units = checkedMul(checkedMul(checkedMul(d.directions, d.steps), d.batch), d.hidden);
    cost.macs = checkedMul(checkedMul(units, gates), checkedAdd(d.input, d.hidden));
    cost.vectorOps = checkedMul(units, perUnit.vector);
    cost.sfuOps = checkedMul(units, perUnit.sfu);
    return cost;
}

// LSTM per unit: 3 sigmoids (9 vector + 3 SFU), 2 tanh (2 SFU), c = f*c + i*g and h = o*tanh(c) (4 vector);
// + 8 bias adds with B (Wb and Rb for 4 gates), + 6 with peepholes P (3 multiplies, 3 adds).
OpCost lstm(const CostContext& c) {
    UnitOps ops{9 + 4, 3 + 2};
    if (c.input(3)) ops.vector += 8;
    if (c.input(7)) ops.vector += 6;
    return recurrentCost(c, 4, ops);
}

// GRU per unit: 2 sigmoids (6 vector + 2 SFU), 1 tanh (1 SFU), r*(Rh) and h = (1-z)*n + z*h (5 vector);
// + 6 bias adds with B.
OpCost gru(const CostContext& c) {
    UnitOps ops{6 + 5, 2 + 1};
    if (c.input(3)) ops.vector += 6;
    return recurrentCost(c, 3, ops);
}

// RNN per unit: 1 tanh (1 SFU; other activations are counted the same); + 2 bias adds with B.
OpCost rnn(const CostContext& c) {
    UnitOps ops{0, 1};
    if (c.input(3)) ops.vector += 2;
    return recurrentCost(c, 1, ops);
}

} // namespace

void registerRecurrentRules(CostRuleTable& table) {
    table[{"", "LSTM"}] = lstm;
    table[{"", "GRU"}] = gru;
    table[{"", "RNN"}] = rnn;
}

} // namespace rooftop
