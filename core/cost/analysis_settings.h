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
enum class Convention {
    Default, ///< Rooftop's own cost rules
    Pagoda   ///< the Pagoda study's per-op constants where its table lists the op (pagodaFlops)
};

/// Which DRAM traffic model counts the bytes.
enum class TrafficView {
    PerNode, ///< every node reads its inputs from and writes its outputs to DRAM
    Fused    ///< an inference engine's fusion: intermediates of a fused group stay on chip
};

/// What one run of the model does: an inference, or a training step (forward, backward, optimizer update).
enum class Phase {
    Inference, ///< one inference of a batch
    Training   ///< one training step: forward, backward and optimizer update
};

/// The optimizer whose per-parameter update a training step counts.
enum class Optimizer {
    Sgd,      ///< plain SGD: reads w and g, writes w
    Momentum, ///< SGD with momentum: also reads and writes the velocity
    Adam      ///< Adam: also reads and writes both moments
};

/// Everything that changes the counts of a model.
struct AnalysisSettings {
    DimBindings dims;                         ///< values for the model's symbolic input dims (--batch, --dim)
    Precision precision = Precision::AsModel; ///< precision forced on floating-point tensors
    Convention convention = Convention::Default; ///< which per-op constants count the arithmetic
    TrafficView traffic = TrafficView::PerNode;  ///< which DRAM traffic model counts the bytes
    Phase phase = Phase::Inference;              ///< an inference or a training step
    Optimizer optimizer = Optimizer::Adam;       ///< used only when phase is Training
    int64_t samples = 0; ///< training: dataset size for the per-epoch figures (0: none)
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
