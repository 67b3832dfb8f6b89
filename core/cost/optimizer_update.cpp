// SPDX-License-Identifier: GPL-3.0-or-later
// Per-parameter optimizer updates, as PyTorch's single-tensor torch.optim steps write them (no weight decay,
// no dampening, no AMSGrad; bias corrections and step sizes are per-step scalars computed once on the host).
#include "core/cost/optimizer_update.h"

namespace rooftop {

OptimizerConstants optimizerConstants(Optimizer optimizer) {
    switch (optimizer) {
    case Optimizer::Sgd:
        // w.add_(g, alpha=-lr): mul, add. Reads w, g; writes w.
        return {2, 0, 2, 1};
    case Optimizer::Momentum:
        // v.mul_(mu).add_(g): mul, add; w.add_(v, alpha=-lr): mul, add. Reads w, g, v; writes w, v.
        return {4, 0, 3, 2};
    case Optimizer::Adam:
        // m.lerp_(g, 1-b1): sub, mul, add (3); v.mul_(b2).addcmul_(g, g, 1-b2): mul, mul, mul, add (4);
        // denom = v.sqrt() / sqrt(bc2) + eps: sqrt (SFU), div, add (2); w.addcdiv_(m, denom, -step): div,
        // mul, add (3). 12 vector + 1 SFU = 13 FLOPs. Reads w, g, m, v; writes w, m, v.
        return {12, 1, 4, 3};
    }
    return {};
}

} // namespace rooftop
