// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/op_cost.h"

namespace rooftop {

const char* opKindName(OpKind kind) {
    switch (kind) {
    case OpKind::Matrix:
        return "matrix";
    case OpKind::Pointwise:
        return "pointwise";
    case OpKind::Vector:
        return "vector";
    case OpKind::DataMovement:
        return "data-movement";
    case OpKind::Alias:
        return "alias";
    case OpKind::Control:
        return "control";
    }
    return "vector";
}

const Tensor* CostContext::input(size_t i) const {
    return i < node_.inputs.size() ? graph_.tensor(node_.inputs[i]) : nullptr;
}

const Tensor* CostContext::output(size_t i) const {
    return i < node_.outputs.size() ? graph_.tensor(node_.outputs[i]) : nullptr;
}

bool CostContext::inputKnown(size_t i) const {
    const Tensor* t = input(i);
    return t && t->shapeKnown;
}

bool CostContext::outputKnown(size_t i) const {
    const Tensor* t = output(i);
    return t && t->shapeKnown;
}

int64_t CostContext::inputElements(size_t i) const {
    return inputKnown(i) ? input(i)->elementCount() : 0;
}

int64_t CostContext::outputElements(size_t i) const {
    return outputKnown(i) ? output(i)->elementCount() : 0;
}

OpCost unsupportedCost(OpKind kind) {
    OpCost cost;
    cost.kind = kind;
    cost.supported = false;
    return cost;
}

} // namespace rooftop
