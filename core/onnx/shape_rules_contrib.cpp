// SPDX-License-Identifier: GPL-3.0-or-later
// Shape rules of transformer operators (ai.onnx Attention, com.microsoft attention and fused layers) and of
// quantized operators (QLinear*, MatMulNBits, QuantizeLinear/DequantizeLinear).
#include "core/graph/checked_math.h"
#include "core/onnx/shape_rules_common.h"

#include <algorithm>

namespace rooftop::shapes {
namespace {

// Element type of optional input i when present, else fallback.
DataType typeOr(const Graph& graph, const Node& node, size_t i, DataType fallback) {
    const Tensor* t = input(graph, node, i);
    return t && t->type != DataType::Undefined ? t->type : fallback;
}

// Scalar value of input i, when folded.
std::optional<int64_t> scalarInput(const Graph& graph, const Node& node, size_t i) {
    auto values = inputValues(graph, node, i);
    if (!values || values->size() != 1) return std::nullopt;
    return values->front();
}

bool divides(int64_t whole, int64_t part) {
    return part > 0 && whole % part == 0;
}

} // namespace

// ai.onnx Attention (opset 23): Q is (B, Sq, q_num_heads * D) or (B, q_num_heads, Sq, D); K and V likewise
// with kv_num_heads. Y takes Q's layout with V's head size; present_* append K/V to past_*.
bool attentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* q = knownInput(graph, node, 0);
    const Tensor* k = knownInput(graph, node, 1);
    const Tensor* v = knownInput(graph, node, 2);
    if (!q || !k || !v || q->dims.size() != k->dims.size() || q->dims.size() != v->dims.size()) return false;
    const bool packed = q->dims.size() == 3;
    if (!packed && q->dims.size() != 4) return false;
    int64_t qHeads = node.attributeInt("q_num_heads", 0);
    int64_t kvHeads = node.attributeInt("kv_num_heads", 0);
    const int64_t batch = q->dims[0];
    int64_t qSeq = 0, kvSeq = 0, headSize = 0, vHeadSize = 0;
    if (packed) {
        if (!divides(k->dims[2], kvHeads) || !divides(v->dims[2], kvHeads) || qHeads <= 0) return false;
        qSeq = q->dims[1];
        kvSeq = k->dims[1];
        headSize = k->dims[2] / kvHeads;
        vHeadSize = v->dims[2] / kvHeads;
    } else {
        qHeads = q->dims[1];
        kvHeads = k->dims[1];
        qSeq = q->dims[2];
        kvSeq = k->dims[2];
        headSize = k->dims[3];
        vHeadSize = v->dims[3];
    }
    const Dims y =
        packed ? Dims{batch, qSeq, checkedMul(qHeads, vHeadSize)} : Dims{batch, qHeads, qSeq, vHeadSize};
    if (!setOutput(outputs, 0, q->type, y)) return false;
    int64_t total = kvSeq;
    if (hasInput(node, 4)) {
        const Tensor* past = knownInput(graph, node, 4);
        if (!past || past->dims.size() != 4) return true; // Y is known; present_* stay unknown
        total = checkedAdd(total, past->dims[2]);
    }
    return setOutput(outputs, 1, k->type, {batch, kvHeads, total, headSize}) &&
           setOutput(outputs, 2, v->type, {batch, kvHeads, total, vHeadSize}) &&
           setOutput(outputs, 3, q->type, {batch, qHeads, qSeq, total});
}

// com.microsoft Attention: input (B, S, hidden_in), weights (hidden_in, 3 * hidden) or qkv_hidden_sizes;
// output (B, S, v_hidden); present (2, B, num_heads, past + S, head_size).
bool msAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    const Tensor* w = knownInput(graph, node, 1);
    if (!x || x->dims.size() != 3) return false;
    Dims hidden = node.attributeInts("qkv_hidden_sizes");
    if (hidden.empty()) {
        if (!w || w->dims.size() != 2 || w->dims[1] % 3 != 0) return false;
        hidden.assign(3, w->dims[1] / 3);
    }
    if (hidden.size() != 3) return false;
    const int64_t batch = x->dims[0];
    const int64_t seq = x->dims[1];
    if (!setOutput(outputs, 0, x->type, {batch, seq, hidden[2]})) return false;
    const int64_t heads = node.attributeInt("num_heads", 0);
    if (outputs.size() < 2 || !divides(hidden[1], heads)) return true;
    int64_t total = seq;
    if (hasInput(node, 4)) {
        const Tensor* past = knownInput(graph, node, 4);
        if (!past || past->dims.size() != 5) return true;
        total = checkedAdd(total, past->dims[3]);
    }
    return setOutput(outputs, 1, x->type, {2, batch, heads, total, hidden[1] / heads});
}

// com.microsoft MultiHeadAttention: query (B, S, D) or packed (B, S, N, 3, H); key (B, L, D), (B, N, L, H)
// or packed (B, L, N, 2, H); value (B, L, Dv) or (B, N, L, Hv). Output (B, S, v_hidden).
bool multiHeadAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* q = knownInput(graph, node, 0);
    if (!q || (q->dims.size() != 3 && q->dims.size() != 5)) return false;
    const Tensor* k = knownInput(graph, node, 1);
    const Tensor* v = knownInput(graph, node, 2);
    if ((hasInput(node, 1) && !k) || (hasInput(node, 2) && !v)) return false;
    const int64_t heads = node.attributeInt("num_heads", 0);
    const int64_t batch = q->dims[0];
    const int64_t seq = q->dims[1];
    const bool packedQkv = q->dims.size() == 5;
    const bool packedKv = k && k->dims.size() == 5;
    int64_t vHidden = q->dims.size() == 3 ? q->dims[2] : checkedMul(q->dims[2], q->dims[4]);
    if (v && v->dims.size() == 3) {
        vHidden = v->dims[2];
    } else if (v && v->dims.size() == 4) {
        vHidden = checkedMul(v->dims[1], v->dims[3]);
    } else if (packedKv) {
        vHidden = checkedMul(k->dims[2], k->dims[4]);
    }
    if (!setOutput(outputs, 0, q->type, {batch, seq, vHidden})) return false;
    if (outputs.size() < 2 || heads <= 0) return true;

    int64_t kvSeq = seq, headSize = 0;
    if (packedQkv) {
        headSize = q->dims[4];
    } else if (k && (k->dims.size() == 3 || packedKv)) {
        kvSeq = k->dims[1];
        headSize = packedKv ? k->dims[4] : k->dims[2] / heads;
    } else if (k && k->dims.size() == 4) {
        kvSeq = k->dims[2];
        headSize = k->dims[3];
    } else {
        return true;
    }
    const int64_t vHeadSize = divides(vHidden, heads) ? vHidden / heads : headSize;
    int64_t total = kvSeq;
    if (hasInput(node, 6) && !(k && k->dims.size() == 4)) {
        const Tensor* past = knownInput(graph, node, 6);
        if (!past || past->dims.size() != 4) return true;
        total = checkedAdd(total, past->dims[2]);
    }
    return setOutput(outputs, 1, q->type, {batch, heads, total, headSize}) &&
           setOutput(outputs, 2, q->type, {batch, heads, total, vHeadSize});
}

// com.microsoft GroupQueryAttention: query (B, S, num_heads * H), or packed with K and V
// ((num_heads + 2 * kv_num_heads) * H) when key is absent. present_* keep past's buffer length, grown to
// total_sequence_length when that is known.
bool groupQueryAttentionRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* q = knownInput(graph, node, 0);
    const int64_t heads = node.attributeInt("num_heads", 0);
    const int64_t kvHeads = node.attributeInt("kv_num_heads", 0);
    if (!q || q->dims.size() != 3 || heads <= 0 || kvHeads <= 0) return false;
    const int64_t packedHeads = hasInput(node, 1) ? heads : checkedAdd(heads, checkedMul(2, kvHeads));
    if (!divides(q->dims[2], packedHeads)) return false;
    const int64_t headSize = q->dims[2] / packedHeads;
    const int64_t batch = q->dims[0];
    const int64_t seq = q->dims[1];
    if (!setOutput(outputs, 0, q->type, {batch, seq, checkedMul(heads, headSize)})) return false;
    if (outputs.size() < 2) return true;
    const std::optional<int64_t> totalLength = scalarInput(graph, node, 6);
    int64_t presentSeq = totalLength.value_or(seq);
    if (hasInput(node, 3)) {
        const Tensor* past = knownInput(graph, node, 3);
        if (!past || past->dims.size() != 4) return true;
        presentSeq = std::max(past->dims[2], totalLength.value_or(0));
    }
    const Dims present = {batch, kvHeads, presentSeq, headSize};
    return setOutput(outputs, 1, q->type, present) && setOutput(outputs, 2, q->type, present);
}

// Skip(Simplified)LayerNormalization: output and input_skip_bias_sum like input 0; mean and inv_std_var
// keep the leading dims with a last dim of 1.
bool skipLayerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x || x->dims.empty()) return false;
    Dims stats = x->dims;
    stats.back() = 1;
    return setOutput(outputs, 0, x->type, x->dims) && setOutput(outputs, 1, DataType::Float32, stats) &&
           setOutput(outputs, 2, DataType::Float32, stats) && setOutput(outputs, 3, x->type, x->dims);
}

// EmbedLayerNormalization: input_ids (B, S) and word_embedding (V, H) give (B, S, H); mask_index is (B).
bool embedLayerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* ids = knownInput(graph, node, 0);
    const Tensor* words = knownInput(graph, node, 2);
    if (!ids || !words || ids->dims.size() != 2 || words->dims.size() != 2) return false;
    const Dims out = {ids->dims[0], ids->dims[1], words->dims[1]};
    return setOutput(outputs, 0, words->type, out) &&
           setOutput(outputs, 1, DataType::Int32, {ids->dims[0]}) && setOutput(outputs, 2, words->type, out);
}

bool fusedConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    return convRule(graph, node, outputs);
}

// NhwcConv: channels last in input and output; weights stay (M, C / group, k...).
bool nhwcConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    const Tensor* w = knownInput(graph, node, 1);
    if (!x || !w || x->dims.size() < 3 || w->dims.size() != x->dims.size()) return false;
    Dims nchw = {x->dims[0], x->dims.back()};
    nchw.insert(nchw.end(), x->dims.begin() + 1, x->dims.end() - 1);
    Dims kernel = node.attributeInts("kernel_shape");
    if (kernel.empty()) kernel.assign(w->dims.begin() + 2, w->dims.end());
    Dims out;
    if (!windowedDims(node, nchw, kernel, w->dims[0], false, out)) return false;
    Dims nhwc = {out[0]};
    nhwc.insert(nhwc.end(), out.begin() + 2, out.end());
    nhwc.push_back(out[1]);
    return setOutput(outputs, 0, x->type, nhwc);
}

// QLinearConv: x at 0, w at 3; the output type follows y_zero_point.
bool qLinearConvRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    const Tensor* w = knownInput(graph, node, 3);
    if (!x || !w || x->dims.size() < 3 || w->dims.size() != x->dims.size()) return false;
    Dims kernel = node.attributeInts("kernel_shape");
    if (kernel.empty()) kernel.assign(w->dims.begin() + 2, w->dims.end());
    Dims out;
    if (!windowedDims(node, x->dims, kernel, w->dims[0], false, out)) return false;
    return setOutput(outputs, 0, typeOr(graph, node, 7, x->type), out);
}

bool qLinearMatMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* a = knownInput(graph, node, 0);
    const Tensor* b = knownInput(graph, node, 3);
    Dims out;
    if (!a || !b || !matMulDims(a->dims, b->dims, out)) return false;
    return setOutput(outputs, 0, typeOr(graph, node, 7, a->type), out);
}

bool productWidthRule(const Graph& graph, const Node& node, const char* widthAttribute,
                      std::vector<InferredOutput>& outputs) {
    const Tensor* a = knownInput(graph, node, 0);
    const int64_t n = node.attributeInt(widthAttribute, 0);
    if (!a || a->dims.empty() || n <= 0) return false;
    Dims out = a->dims;
    out.back() = n;
    return setOutput(outputs, 0, a->type, out);
}

// MatMulNBits: A (..., K) times packed B gives (..., N) with N an attribute.
bool matMulNBitsRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    return productWidthRule(graph, node, "N", outputs);
}

// FusedMatMul: MatMul with optional transposes of the last two dims of A and B.
bool fusedMatMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* a = knownInput(graph, node, 0);
    const Tensor* b = knownInput(graph, node, 1);
    if (!a || !b || node.attributeInt("transBatchA", 0) != 0 || node.attributeInt("transBatchB", 0) != 0)
        return false;
    Dims ad = a->dims;
    Dims bd = b->dims;
    if (node.attributeInt("transA", 0) != 0 && ad.size() >= 2)
        std::swap(ad[ad.size() - 1], ad[ad.size() - 2]);
    if (node.attributeInt("transB", 0) != 0 && bd.size() >= 2)
        std::swap(bd[bd.size() - 1], bd[bd.size() - 2]);
    Dims out;
    return matMulDims(ad, bd, out) && setOutput(outputs, 0, a->type, out);
}

bool matMulIntegerToFloatRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* a = knownInput(graph, node, 0);
    const Tensor* b = knownInput(graph, node, 1);
    Dims out;
    if (!a || !b || !matMulDims(a->dims, b->dims, out)) return false;
    return setOutput(outputs, 0, typeOr(graph, node, 2, DataType::Float32), out);
}

// QLinearAdd / QLinearMul: A at 0 and B at 3 broadcast; the type follows C_zero_point.
bool qLinearBinaryRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* a = knownInput(graph, node, 0);
    const Tensor* b = knownInput(graph, node, 3);
    Dims out;
    if (!a || !b || !broadcast(a->dims, b->dims, out)) return false;
    return setOutput(outputs, 0, typeOr(graph, node, 7, a->type), out);
}

// QuantizeLinear: type from the zero point, else output_dtype (opset 21), else uint8.
bool quantizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x) return false;
    DataType type = dataTypeFromOnnx(static_cast<int>(node.attributeInt("output_dtype", 0)));
    if (type == DataType::Undefined) type = DataType::UInt8;
    return setOutput(outputs, 0, typeOr(graph, node, 2, type), x->dims);
}

// DequantizeLinear: the scale's type (float unless fp16/bf16 scales).
bool dequantizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    return x && setOutput(outputs, 0, typeOr(graph, node, 1, DataType::Float32), x->dims);
}

bool qLinearGlobalAveragePoolRule(const Graph& graph, const Node& node,
                                  std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x || x->dims.size() < 3) return false;
    Dims out(x->dims.size(), 1);
    out[0] = x->dims[0];
    if (node.attributeInt("channels_last", 0) != 0) {
        out.back() = x->dims.back();
    } else {
        out[1] = x->dims[1];
    }
    return setOutput(outputs, 0, typeOr(graph, node, 4, x->type), out);
}

} // namespace rooftop::shapes
