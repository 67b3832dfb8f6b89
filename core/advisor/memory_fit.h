// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"

#include <cstdint>
#include <string>

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

/// Throws InputError when the workload's pass does not fit: "`what` holds at least 8599.47 GiB of ..., more
/// than the 58.00 GiB agx-orin-64gb leaves after ...: leave it out of --batch". `what`: "tune: batch 4 at
/// fp16".
void requireMemoryFit(const DeviceSpec& device, const Workload& workload, const std::string& what);

} // namespace rooftop
