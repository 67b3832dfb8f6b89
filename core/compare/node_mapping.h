// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/measured_layers.h"
#include "core/cost/workload.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace rooftop {

/// The ONNX nodes of a counted model by name, in topological order (the Workload's layer order).
class NodeIndex {
public:
    /// Indexes the workload's layers by name.
    explicit NodeIndex(const Workload& workload);
    /// The layer index of the node with this name; -1 when there is none.
    int find(const std::string& name) const;
    /// The number of nodes.
    int size() const { return static_cast<int>(names_.size()); }
    /// The name of node i.
    const std::string& name(int i) const { return names_[static_cast<size_t>(i)]; }

private:
    std::vector<std::string> names_;
    std::unordered_map<std::string, int> byName_;
};

/// How a measured layer maps to the model: to ONNX nodes, to overhead TensorRT inserted (no node), or not.
enum class MappingKind {
    Nodes,    ///< covers ONNX nodes of the model
    Overhead, ///< a layer TensorRT inserted: no node
    Unmapped  ///< maps to nothing in the model
};

/// The ONNX nodes one measured layer covers.
struct LayerMapping {
    MappingKind kind = MappingKind::Unmapped; ///< how the layer maps
    std::vector<int> nodes;                   ///< Workload layer indices, ascending, no repeats
    double share = 1.0; ///< the layer's weight in one inference: 1/passes for kernels of several passes
};

/// The name tokens of a TensorRT layer name: " [profile N]" stripped, split on " || " and " + ", PWN(...)
/// opened (nested too) and split on ',' and '+'; a `{ForeignNode[first...last]}` stays one token.
std::vector<std::string> tensorRtNameTokens(const std::string& name);

/// Maps a TensorRT layer: its Metadata node names when the layer info gave some, else its name: tokens that
/// are node names, `{ForeignNode[first...last]}` as every node from first to last in topological order;
/// folded-constant tokens ignored. "Reformatting CopyNode ...", Reformat layers and layers TensorRT or its
/// ONNX parser inserted (reshape_before_X, X_copy_input, X copy, X_clone_N, ONNXTRT_castHelper_N) are
/// overhead.
LayerMapping mapTensorRtLayer(const MeasuredLayer& layer, const NodeIndex& nodes);

/// Maps a layer by the node names its tool gives (ONNX Runtime; "fused NAME", ORT's Conv/Gemm + activation
/// fusion, as NAME); unmapped when none is in the model.
LayerMapping mapNamedLayer(const MeasuredLayer& layer, const NodeIndex& nodes);

/// Maps Nsight Compute kernels: by name where a kernel's name maps as a TensorRT name does, the others by
/// order onto the model's kernel-launching nodes (dispatchesKernel) when their count is a whole multiple of
/// those nodes' (one profiled inference or several, each kernel then weighing 1/passes); unmapped otherwise.
std::vector<LayerMapping> mapKernels(const std::vector<MeasuredLayer>& kernels, const Workload& workload,
                                     const NodeIndex& nodes);

/// True when an unmapped layer names ONNX nodes this model lacks: a token (or an ONNX Runtime node name, or a
/// Metadata node) written as exporters name nodes ("/layer4/layer4.0/conv1/Conv", "Conv_12"). Layers without
/// such names (Myelin "__myl_..." kernels, "(Unnamed Layer* 3)") are not.
bool namesAbsentNodes(const MeasuredLayer& layer, const LayerMapping& mapping);

/// The mapping of every layer of a profile by its source's rules.
std::vector<LayerMapping> mapProfile(const MeasuredLayers& profile, const Workload& workload);

} // namespace rooftop
