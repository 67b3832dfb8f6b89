// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/op_cost.h"

#include <optional>

namespace rooftop {

/// FLOPs under the Pagoda study's per-op constants, for the ops its table lists; nullopt for the others,
/// which keep our own count.
std::optional<int64_t> pagodaFlops(const CostContext& context, const OpCost& ours);

} // namespace rooftop
