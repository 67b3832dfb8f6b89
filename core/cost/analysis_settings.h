// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/data_type.h"
#include "core/onnx/dim_binding.h"

#include <cstdint>
#include <string>

namespace rooftop {

/// Which per-operator constants count the arithmetic.
enum class Convention { Default, Pagoda };

/// Which DRAM traffic model counts the bytes.
enum class TrafficView { PerNode, Fused };

/// What one run of the model does: an inference, or a training step (forward, backward, optimizer update).
enum class Phase { Inference, Training };

/// The optimizer whose per-parameter update a training step counts.
enum class Optimizer { Sgd, Momentum, Adam };

/// Everything that changes the counts of a model.
struct AnalysisSettings {
    DimBindings dims;
    Precision precision = Precision::AsModel;
    Convention convention = Convention::Default;
    TrafficView traffic = TrafficView::PerNode;
    Phase phase = Phase::Inference;
    Optimizer optimizer = Optimizer::Adam; ///< used only when phase is Training
    int64_t samples = 0;                   ///< training: dataset size for the per-epoch figures (0: none)
};

/// Minibatches in an epoch of `samples` at `batch` per step: ceil(samples / batch).
int64_t minibatchesPerEpoch(int64_t samples, int64_t batch);

/// Parses "default" / "pagoda"; false when unknown.
bool parseConvention(const std::string& text, Convention& out);
/// The name parseConvention accepts.
std::string conventionName(Convention convention);
/// Parses "per-node" / "fused"; false when unknown.
bool parseTrafficView(const std::string& text, TrafficView& out);
/// The name parseTrafficView accepts.
std::string trafficViewName(TrafficView view);
/// Parses "inference" / "training"; false when unknown.
bool parsePhase(const std::string& text, Phase& out);
/// The name parsePhase accepts.
std::string phaseName(Phase phase);
/// Parses "sgd" / "momentum" / "adam"; false when unknown.
bool parseOptimizer(const std::string& text, Optimizer& out);
/// The name parseOptimizer accepts.
std::string optimizerName(Optimizer optimizer);

} // namespace rooftop
