// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"

#include <cstdint>

namespace rooftop {

/// How one pass of a workload sits in a board's memory.
struct MemoryFit {
    int64_t heldBytes = 0; ///< memoryFootprintBytes of the workload (a lower bound)
    int64_t usableBytes =
        0;            ///< the board's memory less memoryReserveGiB; 0 when the board's memory is unknown
    bool fits = true; ///< heldBytes within usableBytes, or the board's memory unknown
};

/// The workload's pass against what the board leaves after its reserve (memoryReserveGiB).
MemoryFit memoryFit(const DeviceSpec& device, const Workload& workload);

} // namespace rooftop
