// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/advisor/memory_fit.h"

#include "core/cost/memory_footprint.h"

namespace rooftop {

MemoryFit memoryFit(const DeviceSpec& device, const Workload& workload) {
    MemoryFit fit;
    fit.usableBytes = device.usableMemoryBytes(memoryReserveGiB(device));
    if (fit.usableBytes <= 0) return fit;
    fit.heldBytes = memoryFootprintBytes(workload);
    fit.fits = fit.heldBytes <= fit.usableBytes;
    return fit;
}

} // namespace rooftop
