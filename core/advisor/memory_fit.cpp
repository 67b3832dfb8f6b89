// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/advisor/memory_fit.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
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

void requireMemoryFit(const DeviceSpec& device, const Workload& workload, const std::string& what) {
    const MemoryFit fit = memoryFit(device, workload);
    if (fit.fits) return;
    throw InputError(what + " holds at least " + gibText(fit.heldBytes) + " of " +
                     memoryFootprintWords(workload.settings.phase) + ", more than the " +
                     gibText(fit.usableBytes) + " " + device.id + " leaves after " +
                     fixed(memoryReserveGiB(device), 1) + " GiB for " + memoryReserveFor(device) +
                     ": leave it out of --batch");
}

} // namespace rooftop
