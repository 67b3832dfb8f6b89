// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/power_sampler.h"

#include <memory>
#include <string>

namespace rooftop {

/// The NVML library opened: $ROOFTOP_NVML_LIBRARY when set, else "libnvidia-ml.so.1".
std::string nvmlLibrary();

/// Board power of a discrete GPU through NVML (dlopen()ed; nvmlDeviceGetPowerUsage, mW).
/// A missing library or symbol, a failing init or a NOT_SUPPORTED power query mean "not available":
/// nullptr with the reason in *whyNot, never a crash.
std::unique_ptr<PowerSource> openNvmlPowerSource(unsigned deviceIndex, std::string* whyNot);

} // namespace rooftop
