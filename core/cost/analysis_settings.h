// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/data_type.h"
#include "core/onnx/dim_binding.h"

#include <string>

namespace rooftop {

/// Which per-operator constants count the arithmetic.
enum class Convention { Default, Pagoda };

/// Which DRAM traffic model counts the bytes.
enum class TrafficView { PerNode, Fused };

/// Everything that changes the counts of a model.
struct AnalysisSettings {
    DimBindings dims;
    Precision precision = Precision::AsModel;
    Convention convention = Convention::Default;
    TrafficView traffic = TrafficView::PerNode;
};

/// Parses "default" / "pagoda"; false when unknown.
bool parseConvention(const std::string& text, Convention& out);
/// The name parseConvention accepts.
std::string conventionName(Convention convention);
/// Parses "per-node" / "fused"; false when unknown.
bool parseTrafficView(const std::string& text, TrafficView& out);
/// The name parseTrafficView accepts.
std::string trafficViewName(TrafficView view);

} // namespace rooftop
