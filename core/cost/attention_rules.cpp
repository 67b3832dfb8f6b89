// SPDX-License-Identifier: GPL-3.0-or-later
// Scaled dot-product attention. With B batch, Hq query heads, Sq query and Skv key/value lengths (past
// included), Dqk and Dv head sizes and scores = B x Hq x Sq x Skv:
//   MACs = scores x Dqk (Q K^T) + scores x Dv (P V); KV heads (GQA) change bytes, not MACs;
//   per score: softmax 4 vector + 1 exp (SFU), scaling 1, masking 1 (mask input or causal), bias 1,
//   softcap 2 vector + 1 tanh (SFU).
// Concatenating past keys and values is a copy: it lengthens Skv and moves bytes, no arithmetic.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <vector>

namespace rooftop {
namespace {

const Tensor* ofRank(const CostContext& c, size_t i, size_t rank) {
    const Tensor* t = c.input(i);
    return t && t->shapeKnown && t->dims.size() == rank ? t : nullptr;
}

const Tensor* known(const CostContext& c, size_t i) {
    const Tensor* t = c.input(i);
    return t && t->shapeKnown ? t : nullptr;
}

// whole / parts when it divides exactly and both are positive, else 0.
int64_t exactDiv(int64_t whole, int64_t parts) {
    return parts > 0 && whole % parts == 0 ? whole / parts : 0;
}

struct AttentionDims {
    int64_t batch = 0;
    int64_t heads = 0; ///< query heads
    int64_t qSeq = 0;
    int64_t kvSeq = 0; ///< past included
    int64_t qkHead = 0;
    int64_t vHead = 0;

    bool valid() const {
        return batch >= 0 && heads > 0 && qSeq >= 0 && kvSeq >= 0 && qkHead > 0 && vHead > 0;
    }
};

// Extra per-score work besides the 4 vector + 1 SFU of softmax and the 1 scaling op.
struct ScoreExtras {
    int64_t vector = 0;
    int64_t sfu = 0;
};

// Softcap (score = cap * tanh(score / cap)): 2 vector + 1 SFU per score when cap > 0.
void addSoftcap(const CostContext& c, ScoreExtras& extras) {
    if (c.node().attributeFloat("softcap", 0.0) > 0.0) {
        extras.vector += 2;
        extras.sfu += 1;
    }
}

// The two products, softmax, scaling and extras over B x Hq x Sq x Skv scores.
OpCost sdpaCost(const AttentionDims& d, ScoreExtras extras) {
    if (!d.valid()) return unsupportedCost(OpKind::Matrix);
    OpCost cost;
    cost.kind = OpKind::Matrix;
    const int64_t scores = checkedMul(checkedMul(checkedMul(d.batch, d.heads), d.qSeq), d.kvSeq);
    cost.macs = checkedMul(scores, checkedAdd(d.qkHead, d.vHead));
    cost.vectorOps = checkedMul(scores, 4 + 1 + extras.vector);
    cost.sfuOps = checkedMul(scores, 1 + extras.sfu);
    return cost;
}

// --- ai.onnx Attention (opset 23): Q, K, V, attn_mask?, past_key?, past_value?; 3-D (B, S, heads x D) with
// q_num_heads / kv_num_heads, or 4-D (B, heads, S, D).
bool bindOnnxAttention(const CostContext& c, AttentionDims& d) {
    const Tensor* q = known(c, 0);
    const Tensor* k = known(c, 1);
    const Tensor* v = known(c, 2);
    if (!q || !k || !v) return false;
    const int64_t qHeads = c.node().attributeInt("q_num_heads", 0);
    const int64_t kvHeads = c.node().attributeInt("kv_num_heads", 0);
    if (q->dims.size() == 4) {
        d = {q->dims[0], q->dims[1], q->dims[2], 0, q->dims[3], 0};
    } else if (q->dims.size() == 3) {
        d = {q->dims[0], qHeads, q->dims[1], 0, exactDiv(q->dims[2], qHeads), 0};
    } else {
        return false;
    }
    if (k->dims.size() == 4)
        d.kvSeq = k->dims[2];
    else if (k->dims.size() == 3)
        d.kvSeq = k->dims[1];
    else
        return false;
    if (v->dims.size() == 4)
        d.vHead = v->dims[3];
    else if (v->dims.size() == 3)
        d.vHead = exactDiv(v->dims[2], kvHeads);
    else
        return false;
    if (const Tensor* pastKey = ofRank(c, 4, 4)) d.kvSeq = checkedAdd(d.kvSeq, pastKey->dims[2]);
    return true;
}

// Attention-23: + 1/score mask (attn_mask or is_causal), + softcap.
OpCost onnxAttention(const CostContext& c) {
    AttentionDims d;
    if (!bindOnnxAttention(c, d)) return unsupportedCost(OpKind::Matrix);
    ScoreExtras extras;
    if (c.input(3) || c.node().attributeInt("is_causal", 0) != 0) extras.vector += 1;
    addSoftcap(c, extras);
    return sdpaCost(d, extras);
}

// --- com.microsoft Attention: input (B, S, Hin), weights (Hin, Hq + Hk + Hv), bias?, mask_index?,
// past? (2, B, N, P, D), attention_bias?; the QKV projection is part of the node.
struct ProjectedSizes {
    int64_t q = 0;
    int64_t k = 0;
    int64_t v = 0;
};

ProjectedSizes projectedSizes(const CostContext& c, int64_t total) {
    const std::vector<int64_t> sizes = c.node().attributeInts("qkv_hidden_sizes");
    if (sizes.size() == 3) return {sizes[0], sizes[1], sizes[2]};
    const int64_t third = exactDiv(total, 3);
    return {third, third, third};
}

// Projection B x S x Hin x (Hq + Hk + Hv) MACs (+ 1 bias add per projected value), then attention with
// num_heads; + 1/score for mask_index or unidirectional, + 1/score for attention_bias.
OpCost contribAttention(const CostContext& c) {
    const Tensor* x = ofRank(c, 0, 3);
    const Tensor* w = ofRank(c, 1, 2);
    const int64_t heads = c.node().attributeInt("num_heads", 0);
    if (!x || !w || heads <= 0) return unsupportedCost(OpKind::Matrix);
    const int64_t total = w->dims[1];
    const ProjectedSizes sizes = projectedSizes(c, total);
    AttentionDims d{
        x->dims[0], heads, x->dims[1], x->dims[1], exactDiv(sizes.q, heads), exactDiv(sizes.v, heads)};
    if (const Tensor* past = ofRank(c, 4, 5)) d.kvSeq = checkedAdd(d.kvSeq, past->dims[3]);
    ScoreExtras extras;
    if (c.input(3) || c.node().attributeInt("unidirectional", 0) != 0) extras.vector += 1;
    if (c.input(5)) extras.vector += 1;
    OpCost cost = sdpaCost(d, extras);
    if (!cost.supported) return cost;
    const int64_t tokens = checkedMul(x->dims[0], x->dims[1]);
    cost.macs = checkedAdd(cost.macs, checkedMul(checkedMul(tokens, x->dims[2]), total));
    if (c.input(2)) cost.vectorOps = checkedAdd(cost.vectorOps, checkedMul(tokens, total));
    return cost;
}

// --- com.microsoft MultiHeadAttention: query (B, S, D) or packed QKV (B, S, N, 3, H); key (B, L, D),
// (B, N, L, H) or packed KV (B, L, N, 2, H); value (B, L, Dv) or (B, N, L, Hv); bias?, key_padding_mask?,
// attention_bias?, past_key? (B, N, P, H), past_value?. No projections.
bool bindMultiHeadKeyValue(const CostContext& c, AttentionDims& d, int64_t& newKv) {
    const Tensor* key = known(c, 1);
    const Tensor* value = known(c, 2);
    bool keyHasHeads = false;
    if (!key) {
        if (c.input(1)) return false;
        newKv = d.qSeq; // packed QKV: d.qkHead and d.vHead already set
    } else if (key->dims.size() == 5) {
        newKv = key->dims[1];
        d.vHead = key->dims[4];
    } else if (key->dims.size() == 4) {
        newKv = key->dims[2];
        keyHasHeads = true;
    } else if (key->dims.size() == 3) {
        newKv = key->dims[1];
    } else {
        return false;
    }
    if (value && value->dims.size() == 4)
        d.vHead = value->dims[3];
    else if (value && value->dims.size() == 3)
        d.vHead = exactDiv(value->dims[2], d.heads);
    else if (c.input(2))
        return false;
    d.kvSeq = newKv;
    const Tensor* pastKey = ofRank(c, 6, 4);
    if (pastKey && !keyHasHeads) d.kvSeq = checkedAdd(d.kvSeq, pastKey->dims[2]);
    return true;
}

bool bindMultiHeadAttention(const CostContext& c, AttentionDims& d, int64_t& newKv) {
    const Tensor* q = known(c, 0);
    if (!q) return false;
    if (q->dims.size() == 5) {
        d = {q->dims[0], q->dims[2], q->dims[1], 0, q->dims[4], q->dims[4]};
        if (c.input(1)) return false; // a packed query comes without key and value
    } else if (q->dims.size() == 3) {
        const int64_t heads = c.node().attributeInt("num_heads", 0);
        d = {q->dims[0], heads, q->dims[1], 0, exactDiv(q->dims[2], heads), 0};
        if (!c.input(1)) return false;
    } else {
        return false;
    }
    return bindMultiHeadKeyValue(c, d, newKv);
}

// MHA: + 1/score for key_padding_mask, attention_bias and unidirectional each; + 1 bias add per new
// Q, K and V element when bias is given.
OpCost multiHeadAttention(const CostContext& c) {
    AttentionDims d;
    int64_t newKv = 0;
    if (!bindMultiHeadAttention(c, d, newKv)) return unsupportedCost(OpKind::Matrix);
    ScoreExtras extras;
    if (c.input(4)) extras.vector += 1;
    if (c.input(5)) extras.vector += 1;
    if (c.node().attributeInt("unidirectional", 0) != 0) extras.vector += 1;
    OpCost cost = sdpaCost(d, extras);
    if (!cost.supported || !c.input(3)) return cost;
    const int64_t perBatchHead =
        checkedAdd(checkedMul(d.qSeq, d.qkHead), checkedMul(newKv, checkedAdd(d.qkHead, d.vHead)));
    cost.vectorOps = checkedAdd(cost.vectorOps, checkedMul(checkedMul(d.batch, d.heads), perBatchHead));
    return cost;
}

// --- com.microsoft GroupQueryAttention: query (B, S, N x H) or packed QKV (B, S, (N + 2 Nkv) x H), key?,
// value?, past_key? (B, Nkv, P, H), past_value?, seqlens_k, total_sequence_length, cos_cache?, sin_cache?,
// position_ids?, attention_bias?.
// Skv = total_sequence_length when it is a constant, else P + S (an upper bound with a shared KV buffer). The
// cos and sin caches are read at the pass's positions only.
int64_t groupQueryKvLength(const CostContext& c, int64_t qSeq) {
    const Tensor* total = c.input(6);
    if (total && total->intValues && total->intValues->size() == 1 && (*total->intValues)[0] > 0)
        return (*total->intValues)[0];
    const Tensor* pastKey = ofRank(c, 3, 4);
    return pastKey ? checkedAdd(pastKey->dims[2], qSeq) : qSeq;
}

// A position table (rows = positions) is read at the rows of this pass's tokens: batch x new tokens of them.
void readPositionRows(const CostContext& c, size_t input, const AttentionDims& d, OpCost& cost) {
    const Tensor* table = known(c, input);
    if (!table || table->dims.size() < 2) return;
    const int64_t rows = table->dims[table->dims.size() - 2];
    if (rows <= 0) return;
    const int64_t rowElements = table->elementCount() / rows;
    cost.inputElementsRead.emplace_back(input, checkedMul(checkedMul(d.batch, d.qSeq), rowElements));
}

// Rotary on the new tokens' Q and K: 3 ops (2 multiplies + 1 add) per rotated element.
int64_t rotaryQkOps(const AttentionDims& d, int64_t kvHeads, int64_t rotaryDim) {
    const int64_t tokens = checkedMul(d.batch, d.qSeq);
    return checkedMul(checkedMul(checkedMul(tokens, checkedAdd(d.heads, kvHeads)), rotaryDim), 3);
}

// Rotary inside GQA (do_rotary=1); rotary dim = 2 x cos_cache[1] or H.
int64_t groupQueryRotaryOps(const CostContext& c, const AttentionDims& d, int64_t kvHeads) {
    if (c.node().attributeInt("do_rotary", 0) == 0) return 0;
    int64_t rotaryDim = d.qkHead;
    if (const Tensor* cosCache = ofRank(c, 7, 2))
        rotaryDim = std::min(rotaryDim, checkedMul(cosCache->dims[1], 2));
    return rotaryQkOps(d, kvHeads, rotaryDim);
}

// GQA: always causal (+1/score), + 1/score for attention_bias, + softcap, + rotary when do_rotary=1; Skv at
// most local_window_size.
OpCost groupQueryAttention(const CostContext& c) {
    const Tensor* q = ofRank(c, 0, 3);
    const int64_t heads = c.node().attributeInt("num_heads", 0);
    const int64_t kvHeads = c.node().attributeInt("kv_num_heads", 0);
    if (!q || heads <= 0 || kvHeads <= 0) return unsupportedCost(OpKind::Matrix);
    const int64_t packedHeads = checkedAdd(heads, checkedMul(kvHeads, 2));
    const int64_t headSize = exactDiv(q->dims[2], c.input(1) ? heads : packedHeads);
    AttentionDims d{q->dims[0], heads, q->dims[1], 0, headSize, headSize};
    d.kvSeq = groupQueryKvLength(c, d.qSeq);
    // A sliding window (local_window_size > 0): each query attends to at most that many keys.
    if (const int64_t window = c.node().attributeInt("local_window_size", -1); window > 0)
        d.kvSeq = std::min(d.kvSeq, window);
    ScoreExtras extras{1, 0};
    if (c.input(10)) extras.vector += 1;
    addSoftcap(c, extras);
    OpCost cost = sdpaCost(d, extras);
    if (!cost.supported) return cost;
    cost.vectorOps = checkedAdd(cost.vectorOps, groupQueryRotaryOps(c, d, kvHeads));
    if (c.node().attributeInt("do_rotary", 0) != 0) {
        readPositionRows(c, 7, d, cost);
        readPositionRows(c, 8, d, cost);
    }
    return cost;
}

// --- TensorRT Edge-LLM AttentionPlugin: packed QKV (B, S, (Hq + 2 Hkv) x D) or (B, S, Hq + 2 Hkv, D), or
// Q, K and V apart; then the KV cache (B, 2, Hkv, past, D) updated in place, context_lengths, the rope table
// (.., .., rotary dim), kvcache_start_index, attention mask? (tree attention). Skv = past + S. Causal
// (+1/score), + 1/score for a tree mask, rotary on Q and K (rotary dim = the rope table's last dim or D); the
// rope table is read at the pass's positions only.
OpCost attentionPlugin(const CostContext& c) {
    const Tensor* q = known(c, 0);
    size_t cacheInput = 1;
    while (cacheInput < c.inputCount() && !ofRank(c, cacheInput, 5))
        ++cacheInput;
    const Tensor* cache = cacheInput < c.inputCount() ? ofRank(c, cacheInput, 5) : nullptr;
    const int64_t heads = c.node().attributeInt("num_q_heads", 0);
    const int64_t kvHeads = c.node().attributeInt("num_kv_heads", 0);
    const int64_t headSize = c.node().attributeInt("head_size", 0);
    if (!q || !cache || q->dims.size() < 3 || heads <= 0 || kvHeads <= 0 || headSize <= 0)
        return unsupportedCost(OpKind::Matrix);
    AttentionDims d{q->dims[0], heads,   q->dims[1], checkedAdd(cache->dims[3], q->dims[1]),
                    headSize,   headSize};
    ScoreExtras extras{1, 0};
    const size_t ropeInput = cacheInput + 2;
    if (c.input(cacheInput + 4)) extras.vector += 1;
    OpCost cost = sdpaCost(d, extras);
    if (!cost.supported) return cost;
    int64_t rotaryDim = headSize;
    if (const Tensor* rope = known(c, ropeInput); rope && !rope->dims.empty() && rope->dims.back() > 0)
        rotaryDim = std::min(rotaryDim, rope->dims.back());
    cost.vectorOps = checkedAdd(cost.vectorOps, rotaryQkOps(d, kvHeads, rotaryDim));
    readPositionRows(c, ropeInput, d, cost);
    return cost;
}

// --- RotaryEmbedding: 3 ops (2 multiplies + 1 add) per rotated element; the rest of each head is copied.
// Rotated elements = X x min(rotary dim, head size) / head size; the whole input when the head size is
// unknown.
int64_t rotatedElements(const CostContext& c, int64_t headSize, int64_t rotaryDim) {
    const int64_t elements = c.inputElements(0);
    if (headSize <= 0 || rotaryDim <= 0 || rotaryDim >= headSize) return elements;
    return checkedMul(elements / headSize, rotaryDim);
}

// Head size of a rotary input: 4-D (B, N, S, H) gives H; 3-D (B, S, N x H) needs num_heads.
int64_t rotaryHeadSize(const CostContext& c) {
    const Tensor* x = c.input(0);
    if (x->dims.size() == 4) return x->dims[3];
    if (x->dims.size() == 3) return exactDiv(x->dims[2], c.node().attributeInt("num_heads", 0));
    return 0;
}

// rotary_embedding_dim when set, else 2 x the last dim of the cos cache, else 0 (whole head).
int64_t rotaryDim(const CostContext& c, size_t cosInput) {
    const int64_t attr = c.node().attributeInt("rotary_embedding_dim", 0);
    if (attr > 0) return attr;
    const Tensor* cosCache = known(c, cosInput);
    return cosCache && !cosCache->dims.empty() ? checkedMul(cosCache->dims.back(), 2) : 0;
}

OpCost rotaryCost(const CostContext& c, size_t cosInput) {
    if (!c.inputKnown(0)) return unsupportedCost(OpKind::Vector);
    OpCost cost;
    cost.kind = OpKind::Vector;
    cost.vectorOps = checkedMul(rotatedElements(c, rotaryHeadSize(c), rotaryDim(c, cosInput)), 3);
    return cost;
}

// ai.onnx RotaryEmbedding (opset 23): X, cos_cache, sin_cache, position_ids?.
OpCost onnxRotaryEmbedding(const CostContext& c) {
    return rotaryCost(c, 1);
}

// com.microsoft RotaryEmbedding: input, position_ids, cos_cache, sin_cache.
OpCost contribRotaryEmbedding(const CostContext& c) {
    return rotaryCost(c, 2);
}

} // namespace

void registerAttentionRules(CostRuleTable& table) {
    table[{"", "Attention"}] = onnxAttention;
    table[{"", "RotaryEmbedding"}] = onnxRotaryEmbedding;
    table[{"com.microsoft", "Attention"}] = contribAttention;
    table[{"com.microsoft", "MultiHeadAttention"}] = multiHeadAttention;
    table[{"com.microsoft", "GroupQueryAttention"}] = groupQueryAttention;
    table[{"com.microsoft", "RotaryEmbedding"}] = contribRotaryEmbedding;
    table[{"trt_edgellm", "AttentionPlugin"}] = attentionPlugin;
    table[{"trt", "AttentionPlugin"}] = attentionPlugin;
}

} // namespace rooftop
