// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/measured_layers.h"
#include "core/compare/trtexec_layer_info.h"
#include "core/measure/run_config.h"

#include <string>
#include <vector>

namespace rooftop {

/// A trtexec --exportProfile's layers (averageMs each) joined with its --exportLayerInfo layers: by name,
/// the k-th layer of a name with the k-th of that name, and by position when no name matches but the counts
/// agree (TREx's join). Layers the info lacks keep no Metadata. `file` names the profile.
MeasuredLayers joinTrtexecLayers(const std::vector<LayerTime>& profile,
                                 const std::vector<EngineLayerInfo>& info, const std::string& file);

} // namespace rooftop
