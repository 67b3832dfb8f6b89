// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/data_type.h"
#include "core/onnx/dim_binding.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

/// Parses "default" / "pagoda"; nothing when unknown.
std::optional<Convention> parseConvention(std::string_view text);
/// The name parseConvention accepts.
std::string conventionName(Convention convention);
/// Parses "per-node" / "fused"; nothing when unknown.
std::optional<TrafficView> parseTrafficView(std::string_view text);
/// The name parseTrafficView accepts.
std::string trafficViewName(TrafficView view);
/// Parses "inference" / "training"; nothing when unknown.
std::optional<Phase> parsePhase(std::string_view text);
/// The name parsePhase accepts.
std::string phaseName(Phase phase);
/// Parses "sgd" / "momentum" / "adam"; nothing when unknown.
std::optional<Optimizer> parseOptimizer(std::string_view text);
/// The name parseOptimizer accepts.
std::string optimizerName(Optimizer optimizer);

/// The options that make a measuring command (profile, tune) run this workload, batch aside: " --dim seq=128
/// --precision fp16 --phase training --optimizer sgd", each only where it is not the default; "" for none.
std::string workloadOptionsText(const AnalysisSettings& settings);

} // namespace rooftop
