// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/roofline/prediction.h"

#include <cstdint>
#include <vector>

namespace rooftop {

/// A workload with its layers of equal roofline behaviour merged, for sweeps over thousands of modes: a
/// decoder's layers repeat the same shapes once per transformer block.
struct CompactWorkload {
    Workload workload;           ///< the merged layers (each the sum of its group)
    int64_t extraDispatches = 0; ///< kernel launches the merge folded away, paid back per mode
};

/// Merges layers of the same compute class, operator class and dispatch whose FLOPs and bytes are in the same
/// ratio: max(a W / P, a Q / B) = a max(W / P, Q / B), and energy is linear, so the sums are exact.
CompactWorkload compactForSweep(const Workload& workload);

/// sweepModes of the compact workload with the folded launches paid back: the numbers sweepModes gives for
/// the original workload, in a fraction of the time.
std::vector<ModeSummary> sweepCompact(const CompactWorkload& compact,
                                      const std::vector<ModeProfile>& profiles);

} // namespace rooftop
