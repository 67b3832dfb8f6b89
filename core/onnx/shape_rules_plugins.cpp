// SPDX-License-Identifier: GPL-3.0-or-later
// Shape rules of TensorRT Edge-LLM's plugin operators (domains trt_edgellm and trt), which its ONNX export
// writes for attention and int4 weight-only GEMMs.
#include "core/graph/checked_math.h"
#include "core/onnx/shape_rules_common.h"

namespace rooftop::shapes {

// AttentionPlugin: packed QKV (B, S, (Hq + 2 Hkv) x D) or (B, S, Hq + 2 Hkv, D), or Q (B, S, Hq x D), K and V
// apart; then the KV cache (B, 2, Hkv, capacity, D), context_lengths, rope_rotary_cos_sin,
// kvcache_start_index. The output keeps Q's layout with Hq heads; the present cache is the past one, updated
// in place.
bool attentionPluginRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* qkv = knownInput(graph, node, 0);
    const int64_t qHeads = node.attributeInt("num_q_heads", 0);
    const int64_t kvHeads = node.attributeInt("num_kv_heads", 0);
    const int64_t headSize = node.attributeInt("head_size", 0);
    if (!qkv || qHeads <= 0 || kvHeads <= 0 || headSize <= 0) return false;
    const int64_t packedHeads = checkedAdd(qHeads, checkedMul(2, kvHeads));
    Dims out;
    const bool threeD = qkv->dims.size() == 3 && (qkv->dims[2] == checkedMul(packedHeads, headSize) ||
                                                  qkv->dims[2] == checkedMul(qHeads, headSize));
    const bool fourD = qkv->dims.size() == 4 && qkv->dims[3] == headSize &&
                       (qkv->dims[2] == packedHeads || qkv->dims[2] == qHeads);
    if (threeD)
        out = {qkv->dims[0], qkv->dims[1], checkedMul(qHeads, headSize)};
    else if (fourD)
        out = {qkv->dims[0], qkv->dims[1], qHeads, headSize};
    else
        return false;
    if (!setOutput(outputs, 0, qkv->type, out)) return false;
    for (size_t i = 1; i < node.inputs.size(); ++i)
        if (const Tensor* cache = knownInput(graph, node, i); cache && cache->dims.size() == 5)
            return outputs.size() < 2 || setOutput(outputs, 1, cache->type, cache->dims);
    return true;
}

// Int4GroupwiseGemmPlugin (V1 and V2): A (..., K) times int4 weights gives (..., gemm_n).
bool int4GroupwiseGemmRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    return productWidthRule(graph, node, "gemm_n", outputs);
}

} // namespace rooftop::shapes
