// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/run_config.h"

#include <string>
#include <vector>

namespace rooftop {

/// Reads trtexec's --exportProfile JSON: `[{"count": N}, {"name", "timeMs", "averageMs", "medianMs",
/// "percentage"}, ...]` (medianMs since TensorRT 8.4; without it the median is the average). Every layer is
/// kept, zero-time ones included. Throws InputError "WHERE: trtexec layer profile: ..." naming the record and
/// the field for anything else.
std::vector<LayerTime> parseTrtexecLayerProfile(const std::string& json, const std::string& where);

} // namespace rooftop
