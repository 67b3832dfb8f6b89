// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/measured_layers.h"

#include <string>

namespace rooftop {

/// Reads an ONNX Runtime profiler JSON (an array of trace events, or {"traceEvents": [...]}): one layer per
/// node, from its `<node>_kernel_time` Node events (args op_name, provider), its time the average over the
/// node's runs. For a node whose GPU `cat:"Kernel"` events name it (args parent_name) the kernels' time is
/// used, since a CUDA node's own `dur` is the host's asynchronous launch. Kernels that name no node become
/// layers of their own, without nodes. Throws InputError "WHERE: ONNX Runtime profile: event N: ...".
MeasuredLayers parseOrtProfile(const std::string& json, const std::string& where);

} // namespace rooftop
