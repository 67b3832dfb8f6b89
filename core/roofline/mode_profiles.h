// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/ceilings.h"
#include "core/device/measured_profile.h"
#include "core/device/runtime_profile.h"

#include <vector>

namespace rooftop {

/// Profiles for the requested modes: measured where the profile has the mode (measured ceilings, fitted
/// power), predicted from a model fitted to the measured modes where it has others, derived where it has
/// none.
std::vector<ModeProfile> resolveModeProfiles(const DeviceSpec& device, const std::vector<PowerMode>& modes,
                                             const RuntimeProfile& runtime, const MeasuredProfile* profile);

} // namespace rooftop
