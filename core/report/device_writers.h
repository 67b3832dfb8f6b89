// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <string>

namespace rooftop {

/// One row per board (SMs, cores, top GPU clock, FP32 peak, memory, modes, grid, default), then the detected
/// GPUs.
std::string devicesTable(const DeviceCatalog& devices);

/// "rooftop-devices/6" (docs/json.md): every board under "devices", the GPUs found on this machine under
/// "detected".
std::string devicesJson(const DeviceCatalog& devices);

} // namespace rooftop
