// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/cost/op_cost.h"
#include "core/graph/graph.h"

#include <vector>

namespace rooftop {

/// DRAM bytes one node moves once (before repeats).
struct NodeTraffic {
    int64_t weightBytes = 0;    ///< weights read (only the rows read of a table; 0 when foldedWeights)
    int64_t inputBytes = 0;     ///< non-weight inputs read (not those kept on chip)
    int64_t outputBytes = 0;    ///< outputs written (not those kept on chip)
    bool fused = false;         ///< reads or writes an intermediate kept on chip
    bool foldedWeights = false; ///< BatchNormalization folded into its producer (fused view)
    /// Transforms weights alone (dequantise, transpose, cast...): folded into its consumer (fused view).
    bool buildsWeights = false;
    /// Reads and writes folded integers only (arithmetic on shapes): the runtime works it out on the host.
    bool onHost = false;
};

/// Bytes of `elements` values of a tensor of `type` at the forced precision: elements x element bits, rounded
/// up to a whole byte (1 B a value when the size is unknown), except a floating-point tensor forced to fp4,
/// which is stored as NVFP4: ceil(elements / 2) bytes of packed E2M1 values plus ceil(elements / 16) bytes of
/// FP8 E4M3 block scales (one per 16 values), 4.5 bits a value. NVFP4's single FP32 scale per tensor is not
/// counted (4 bytes a tensor).
int64_t precisionBytes(int64_t elements, DataType type, Precision precision);

/// Bytes of a tensor at the forced precision (packed for sub-byte types, NVFP4 with its scales at fp4); 0
/// for unknown shapes.
int64_t tensorBytes(const Tensor& tensor, Precision precision);

/// True for small folded integer constants (shapes, axes, indices of shape ops): host-side metadata.
bool isMetadataTensor(const Tensor& tensor);

/// Per-node traffic for every node, in the view the settings name. costs[i] belongs to graph.nodes[i].
std::vector<NodeTraffic> computeTraffic(const Graph& graph, const std::vector<OpCost>& costs,
                                        const AnalysisSettings& settings);

} // namespace rooftop
