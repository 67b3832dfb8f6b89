// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm_fixtures.h"

#include <fstream>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace rooftop::test {

LlmShape llama2_7b() {
    return {32, 4096, 32, 32, 128, 11008, 32000, 4096};
}
LlmShape llama31_8b() {
    return {32, 4096, 32, 8, 128, 14336, 128256, 131072};
}
LlmShape qwen25_05b() {
    return {24, 896, 14, 2, 64, 4864, 151936, 32768};
}

namespace {

using Dims = std::vector<int64_t>;
constexpr int fp16 = onnx::TensorProto::FLOAT16;
constexpr int i64 = onnx::TensorProto::INT64;

// A graph under construction: nodes, initializers (external and absent, or small int64 constants) and values.
class Builder {
public:
    explicit Builder(onnx::GraphProto* graph, std::string prefix = "")
        : graph_(graph), prefix_(std::move(prefix)) {}

    std::string node(const std::string& op, const std::vector<std::string>& inputs, int outputs = 1,
                     const std::string& domain = "", std::vector<std::string> names = {}) {
        onnx::NodeProto* n = graph_->add_node();
        n->set_op_type(op);
        n->set_name(prefix_ + op + "_" + std::to_string(count_++));
        if (!domain.empty()) n->set_domain(domain);
        for (const std::string& input : inputs)
            n->add_input(input);
        for (int i = 0; i < outputs; ++i) {
            const std::string name =
                i < int(names.size()) ? names[size_t(i)] : n->name() + "_out" + std::to_string(i);
            n->add_output(name);
        }
        last_ = n;
        return n->output(0);
    }
    std::string output(int i) const { return last_->output(i); }
    void attr(const std::string& key, int64_t value) {
        auto* a = last_->add_attribute();
        a->set_name(key);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
    }
    void attrs(const std::string& key, const Dims& values) {
        auto* a = last_->add_attribute();
        a->set_name(key);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values)
            a->add_ints(v);
    }
    onnx::AttributeProto* graphAttr(const std::string& key) {
        auto* a = last_->add_attribute();
        a->set_name(key);
        a->set_type(onnx::AttributeProto::GRAPH);
        return a;
    }
    // A weight whose payload lives in an absent external file.
    std::string weight(const std::string& name, const Dims& dims, int type = fp16) {
        for (const auto& existing : root()->initializer())
            if (existing.name() == name) return name; // shared by the merged decoder's two branches
        onnx::TensorProto* t = root()->add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        for (int64_t d : dims)
            t->add_dims(d);
        t->set_data_location(onnx::TensorProto::EXTERNAL);
        auto* location = t->add_external_data();
        location->set_key("location");
        location->set_value("weights.bin");
        return name;
    }
    std::string ints(const std::string& name, const Dims& values, bool scalar = false) {
        for (const auto& existing : root()->initializer())
            if (existing.name() == name) return name;
        onnx::TensorProto* t = root()->add_initializer();
        t->set_name(name);
        t->set_data_type(i64);
        if (!scalar) t->add_dims(int64_t(values.size()));
        for (int64_t v : values)
            t->add_int64_data(v);
        return name;
    }
    void setRoot(onnx::GraphProto* root) { root_ = root; }

private:
    onnx::GraphProto* root() { return root_ ? root_ : graph_; }
    onnx::GraphProto* graph_;
    onnx::GraphProto* root_ = nullptr;
    std::string prefix_;
    int count_ = 0;
    onnx::NodeProto* last_ = nullptr;
};

void addValue(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
              int type, const std::vector<std::string>& symbols, const Dims& values) {
    onnx::ValueInfoProto* info = list->Add();
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(type);
    auto* shape = tensor->mutable_shape();
    for (size_t i = 0; i < symbols.size(); ++i) {
        auto* dim = shape->add_dim();
        if (!symbols[i].empty())
            dim->set_dim_param(symbols[i]);
        else
            dim->set_dim_value(values[i]);
    }
}

std::string pastName(int layer, bool key) {
    return "past_key_values." + std::to_string(layer) + (key ? ".key" : ".value");
}
std::string presentName(int layer, bool key) {
    return "present." + std::to_string(layer) + (key ? ".key" : ".value");
}

// axesInput: ReduceMean's axes as an input, as opset 18 and later write it.
std::string rmsNorm(Builder& b, const std::string& x, const std::string& weight, bool axesInput = false) {
    const std::string squared = b.node("Mul", {x, x});
    const std::string mean = axesInput ? b.node("ReduceMean", {squared, b.ints("axes_last", {-1})})
                                       : b.node("ReduceMean", {squared});
    if (!axesInput) b.attrs("axes", {-1});
    const std::string eps = b.node("Add", {mean, "eps"});
    const std::string root = b.node("Sqrt", {eps});
    const std::string normed = b.node("Div", {x, root});
    return b.node("Mul", {normed, weight});
}

// One torch-style body: prefill (withPast false: present = this pass's K and V) or decode.
void optimumBody(Builder& b, const LlmShape& s, bool withPast, const std::string& outputPrefix) {
    const int64_t h = s.hidden, q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    std::string x = b.node("Gather", {"embed_tokens", "input_ids"});
    const std::string cos = b.node("Unsqueeze", {b.node("Gather", {"cos_table", "position_ids"}), "axes_1"});
    const std::string sin = b.node("Unsqueeze", {b.node("Gather", {"sin_table", "position_ids"}), "axes_1"});
    const std::string maskF = b.node("Cast", {"attention_mask"});
    b.attr("to", fp16);
    const std::string mask =
        b.node("Mul", {b.node("Sub", {"one", b.node("Unsqueeze", {maskF, "axes_1_2"})}), "neg_big"});
    for (int l = 0; l < s.layers; ++l) {
        const std::string L = "layers." + std::to_string(l) + ".";
        const std::string n = rmsNorm(b, x, b.weight(L + "input_layernorm.weight", {h}));
        const auto heads = [&](const std::string& t, int64_t count) {
            const std::string r = b.node("Reshape", {t, b.ints(t + "_shape", {0, 0, count, s.headDim})});
            const std::string out = b.node("Transpose", {r});
            b.attrs("perm", {0, 2, 1, 3});
            return out;
        };
        const auto rotate = [&](const std::string& t) {
            return b.node("Add", {b.node("Mul", {t, cos}), b.node("Mul", {t, sin})});
        };
        const std::string qh = rotate(heads(b.node("MatMul", {n, b.weight(L + "q_proj", {h, q})}), s.heads));
        const std::string kh =
            rotate(heads(b.node("MatMul", {n, b.weight(L + "k_proj", {h, kv})}), s.kvHeads));
        const std::string vh = heads(b.node("MatMul", {n, b.weight(L + "v_proj", {h, kv})}), s.kvHeads);
        std::string key = kh, value = vh;
        if (withPast) {
            key = b.node("Concat", {pastName(l, true), kh}, 1, "", {outputPrefix + presentName(l, true)});
            b.attr("axis", 2);
            value = b.node("Concat", {pastName(l, false), vh}, 1, "", {outputPrefix + presentName(l, false)});
            b.attr("axis", 2);
        } else {
            key = b.node("Identity", {kh}, 1, "", {outputPrefix + presentName(l, true)});
            value = b.node("Identity", {vh}, 1, "", {outputPrefix + presentName(l, false)});
        }
        const auto repeat = [&](const std::string& t) {
            if (s.heads == s.kvHeads) return t;
            const std::string u = b.node("Unsqueeze", {t, "axes_2"});
            const std::string e =
                b.node("Expand", {u, b.ints(t + "_rep", {1, 1, s.heads / s.kvHeads, 1, 1})});
            return b.node("Reshape", {e, b.ints(t + "_merge", {0, s.heads, -1, s.headDim})});
        };
        const std::string kt = b.node("Transpose", {repeat(key)});
        b.attrs("perm", {0, 1, 3, 2});
        const std::string scores =
            b.node("Add", {b.node("Div", {b.node("MatMul", {qh, kt}), "sqrt_d"}), mask});
        const std::string probs = b.node("Softmax", {scores});
        b.attr("axis", -1);
        const std::string ctx = b.node("Transpose", {b.node("MatMul", {probs, repeat(value)})});
        b.attrs("perm", {0, 2, 1, 3});
        const std::string merged = b.node("Reshape", {ctx, b.ints(L + "merge", {0, 0, q})});
        x = b.node("Add", {x, b.node("MatMul", {merged, b.weight(L + "o_proj", {q, h})})});
        const std::string n2 = rmsNorm(b, x, b.weight(L + "post_attention_layernorm.weight", {h}));
        const std::string gate = b.node("MatMul", {n2, b.weight(L + "gate_proj", {h, s.intermediate})});
        const std::string up = b.node("MatMul", {n2, b.weight(L + "up_proj", {h, s.intermediate})});
        const std::string silu = b.node("Mul", {gate, b.node("Sigmoid", {gate})});
        x = b.node("Add", {x, b.node("MatMul", {b.node("Mul", {silu, up}),
                                                b.weight(L + "down_proj", {s.intermediate, h})})});
    }
    const std::string nf = rmsNorm(b, x, b.weight("norm.weight", {h}));
    b.node("MatMul", {nf, b.weight("lm_head", {h, s.vocab})}, 1, "", {outputPrefix + "logits"});
}

void commonConstants(Builder& b, const LlmShape& s) {
    b.weight("embed_tokens", {s.vocab, s.hidden});
    b.weight("cos_table", {s.maxPositions, s.headDim});
    b.weight("sin_table", {s.maxPositions, s.headDim});
    b.ints("axes_1", {1});
    b.ints("axes_2", {2});
    b.ints("axes_1_2", {1, 2});
    b.weight("one", {}, fp16);
    b.weight("neg_big", {}, fp16);
    b.weight("eps", {}, fp16);
    b.weight("sqrt_d", {}, fp16);
}

void decoderValues(onnx::GraphProto* g, const LlmShape& s, bool ids, bool positions,
                   const std::string& prefix, bool inputs, bool outputs) {
    const std::vector<std::string> kvSymbols = {"batch_size", "", "past_sequence_length", ""};
    const Dims kvDims = {0, s.kvHeads, 0, s.headDim};
    if (inputs) {
        if (ids) addValue(g->mutable_input(), "input_ids", i64, {"batch_size", "sequence_length"}, {0, 0});
        addValue(g->mutable_input(), "attention_mask", i64, {"batch_size", "total_sequence_length"}, {0, 0});
        if (positions)
            addValue(g->mutable_input(), "position_ids", i64, {"batch_size", "sequence_length"}, {0, 0});
        for (int l = 0; l < s.layers; ++l)
            for (bool key : {true, false})
                addValue(g->mutable_input(), pastName(l, key), fp16, kvSymbols, kvDims);
    }
    if (outputs) {
        addValue(g->mutable_output(), prefix + "logits", fp16, {"batch_size", "sequence_length", ""},
                 {0, 0, s.vocab});
        for (int l = 0; l < s.layers; ++l)
            for (bool key : {true, false})
                addValue(g->mutable_output(), prefix + presentName(l, key), fp16,
                         {"batch_size", "", "total_sequence_length", ""}, {0, s.kvHeads, 0, s.headDim});
    }
}

void genaiBody(Builder& b, const LlmShape& s, const NBits& nb) {
    const int64_t h = s.hidden, q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    const auto nbits = [&](const std::string& input, const std::string& name, int64_t k, int64_t n) {
        const int64_t blocks = (k + nb.blockSize - 1) / nb.blockSize;
        std::vector<std::string> inputs = {
            input,
            b.weight(name + ".qweight", {n, blocks, nb.blockSize * nb.bits / 8}, onnx::TensorProto::UINT8),
            b.weight(name + ".scales", {n * blocks})};
        if (nb.zeroPoints)
            inputs.push_back(
                b.weight(name + ".qzeros", {n * ((blocks * nb.bits + 7) / 8)}, onnx::TensorProto::UINT8));
        const std::string out = b.node("MatMulNBits", inputs, 1, "com.microsoft");
        b.attr("K", k);
        b.attr("N", n);
        b.attr("bits", nb.bits);
        b.attr("block_size", nb.blockSize);
        return out;
    };
    b.weight("embed_tokens", {s.vocab, h});
    b.weight("cos_cache", {s.maxPositions, s.headDim / 2});
    b.weight("sin_cache", {s.maxPositions, s.headDim / 2});
    b.ints("one_i64", {1}, true);
    b.ints("axis_1", {1});
    b.ints("index_1", {1}, true);
    const std::string summed = b.node("ReduceSum", {"attention_mask", "axis_1"});
    b.attr("keepdims", 0);
    const std::string seqlens = b.node("Cast", {b.node("Sub", {summed, "one_i64"})});
    b.attr("to", onnx::TensorProto::INT32);
    const std::string total =
        b.node("Cast", {b.node("Gather", {b.node("Shape", {"attention_mask"}), "index_1"})});
    b.attr("to", onnx::TensorProto::INT32);
    std::string residual = b.node("Gather", {"embed_tokens", "input_ids"});
    std::string pending; // the last block's output, added to the residual by the next skip norm
    const auto norm = [&](const std::string& weight) {
        if (pending.empty()) {
            const std::string out = b.node("SimplifiedLayerNormalization", {residual, weight});
            b.attr("axis", -1);
            return out;
        }
        const std::string out =
            b.node("SkipSimplifiedLayerNormalization", {pending, residual, weight}, 4, "com.microsoft");
        residual = b.output(3);
        return out;
    };
    for (int l = 0; l < s.layers; ++l) {
        const std::string L = "model.layers." + std::to_string(l) + ".";
        const std::string n = norm(b.weight(L + "input_layernorm.weight", {h}));
        const std::string qkv = nbits(n, L + "attn.qkv_proj", h, q + 2 * kv);
        const std::string attn = b.node(
            "GroupQueryAttention",
            {qkv, "", "", pastName(l, true), pastName(l, false), seqlens, total, "cos_cache", "sin_cache"}, 3,
            "com.microsoft", {L + "attn_out", presentName(l, true), presentName(l, false)});
        b.attr("num_heads", s.heads);
        b.attr("kv_num_heads", s.kvHeads);
        b.attr("do_rotary", 1);
        if (s.slidingWindow > 0) b.attr("local_window_size", s.slidingWindow);
        pending = nbits(attn, L + "attn.o_proj", q, h);
        const std::string n2 = norm(b.weight(L + "post_attention_layernorm.weight", {h}));
        const std::string gate = nbits(n2, L + "mlp.gate_proj", h, s.intermediate);
        const std::string up = nbits(n2, L + "mlp.up_proj", h, s.intermediate);
        const std::string silu = b.node("Mul", {gate, b.node("Sigmoid", {gate})});
        pending = nbits(b.node("Mul", {silu, up}), L + "mlp.down_proj", s.intermediate, h);
    }
    const std::string nf = norm(b.weight("model.norm.weight", {h}));
    b.node("MatMul", {nf, b.weight("lm_head.weight", {h, s.vocab})}, 1, "", {"logits"});
}

// TensorRT Edge-LLM: one graph for prefill and decode over inputs_embeds; per layer a packed QKV projection,
// AttentionPlugin over past_key_values_N [batch, 2, kv heads, capacity, head] (present_key_values_N aliases
// it), then the MLP; the last token of each sequence (GatherND on last_token_ids) goes through the head.
void edgeLlmBody(Builder& b, const LlmShape& s, const EdgeOptions& edge) {
    const int64_t h = s.hidden, q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    constexpr int64_t group = 128;
    const auto linear = [&](const std::string& x, const std::string& name, int64_t k, int64_t n) {
        if (edge.weights == EdgeWeights::Int4Awq) {
            const std::string out =
                b.node("Int4GroupwiseGemmPlugin",
                       {x, b.weight(name + ".qweight", {n, k / 2}, onnx::TensorProto::INT8),
                        b.weight(name + ".scales", {k / group, n})},
                       1, "trt_edgellm");
            b.attr("gemm_n", n);
            b.attr("gemm_k", k);
            b.attr("group_size", group);
            return out;
        }
        if (edge.weights == EdgeWeights::Nvfp4) {
            const std::string scale = b.node(
                "DequantizeLinear", {b.weight(name + ".weight_scale", {n, k / 16}, 17 /* FLOAT8E4M3FN */),
                                     b.weight(name + ".weight_scale_2", {})});
            const std::string w =
                b.node("DequantizeLinear", {b.weight(name + ".weight", {n, k}, 23 /* FLOAT4E2M1 */), scale});
            b.attr("axis", 1);
            b.attr("block_size", 16);
            const std::string wt = b.node("Transpose", {w});
            b.attrs("perm", {1, 0});
            return b.node("MatMul", {x, wt});
        }
        return b.node("MatMul", {x, b.weight(name + ".weight", {k, n})});
    };
    std::string x = "inputs_embeds";
    for (int l = 0; l < s.layers; ++l) {
        const std::string L = "model.layers." + std::to_string(l) + ".";
        const std::string n = rmsNorm(b, x, b.weight(L + "input_layernorm.weight", {h}), true);
        std::vector<std::string> inputs;
        if (edge.splitQkv)
            inputs = {linear(n, L + "self_attn.q_proj", h, q), linear(n, L + "self_attn.k_proj", h, kv),
                      linear(n, L + "self_attn.v_proj", h, kv)};
        else
            inputs = {linear(n, L + "self_attn.qkv_proj", h, q + 2 * kv)};
        for (const std::string& input :
             {"past_key_values_" + std::to_string(l), std::string("context_lengths"),
              std::string("rope_rotary_cos_sin"), std::string("kvcache_start_index")})
            inputs.push_back(input);
        const std::string attn = b.node("AttentionPlugin", inputs, 2, edge.splitQkv ? "trt" : "trt_edgellm",
                                        {L + "attn_out", "present_key_values_" + std::to_string(l)});
        b.attr("num_q_heads", s.heads);
        b.attr("num_kv_heads", s.kvHeads);
        b.attr("head_size", s.headDim);
        b.attr("enable_tree_attention", 0);
        b.attr("enable_fp8_kv_cache", edge.fp8Cache ? 1 : 0);
        x = b.node("Add", {x, linear(attn, L + "self_attn.o_proj", q, h)});
        const std::string n2 = rmsNorm(b, x, b.weight(L + "post_attention_layernorm.weight", {h}), true);
        const std::string gate = linear(n2, L + "mlp.gate_proj", h, s.intermediate);
        const std::string up = linear(n2, L + "mlp.up_proj", h, s.intermediate);
        const std::string silu = b.node("Mul", {gate, b.node("Sigmoid", {gate})});
        x = b.node("Add", {x, linear(b.node("Mul", {silu, up}), L + "mlp.down_proj", s.intermediate, h)});
    }
    const std::string nf = rmsNorm(b, x, b.weight("model.norm.weight", {h}), true);
    const std::string last = b.node("GatherND", {nf, "last_token_ids"});
    b.attr("batch_dims", 1);
    b.node("MatMul", {last, b.weight("lm_head.weight", {h, s.vocab})}, 1, "", {"logits"});
}

void edgeLlmValues(onnx::GraphProto* g, const LlmShape& s, const EdgeOptions& edge) {
    constexpr int i32 = onnx::TensorProto::INT32;
    const int kvType = edge.fp8Cache ? 17 /* FLOAT8E4M3FN */ : fp16;
    addValue(g->mutable_input(), "inputs_embeds", fp16, {"batch_size", "seq_len", ""}, {0, 0, s.hidden});
    addValue(g->mutable_input(), "context_lengths", i32, {"batch_size"}, {0});
    addValue(g->mutable_input(), "rope_rotary_cos_sin", onnx::TensorProto::FLOAT, {"", "", ""},
             {1, s.maxPositions, s.headDim});
    addValue(g->mutable_input(), "kvcache_start_index", i32, {"batch_size"}, {0});
    addValue(g->mutable_input(), "last_token_ids", i64, {"batch_size", ""}, {0, 1});
    const std::vector<std::string> kvSymbols = {"batch_size", "", "", "kv_cache_capacity", ""};
    const Dims kvDims = {0, 2, s.kvHeads, 0, s.headDim};
    for (int l = 0; l < s.layers; ++l)
        addValue(g->mutable_input(), "past_key_values_" + std::to_string(l), kvType, kvSymbols, kvDims);
    addValue(g->mutable_output(), "logits", fp16, {"batch_size", ""}, {0, s.vocab});
    for (int l = 0; l < s.layers; ++l)
        addValue(g->mutable_output(), "present_key_values_" + std::to_string(l), kvType, kvSymbols, kvDims);
}

} // namespace

onnx::ModelProto makeLlmDecoder(const LlmShape& shape, LlmExport style, const NBits& nbits,
                                const EdgeOptions& edge) {
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.set_producer_name(style == LlmExport::GenAi     ? "onnxruntime-genai (test fixture)"
                            : style == LlmExport::EdgeLlm ? "tensorrt-edgellm (test fixture)"
                                                          : "optimum (test fixture)");
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(17);
    auto* ms = model.add_opset_import();
    ms->set_domain("com.microsoft");
    ms->set_version(1);
    onnx::GraphProto* g = model.mutable_graph();
    g->set_name("decoder");
    Builder b(g);
    if (style == LlmExport::EdgeLlm) {
        opset->set_version(23); // DequantizeLinear of FLOAT4E2M1 with block_size
        auto* plugins = model.add_opset_import();
        plugins->set_domain("trt_edgellm");
        plugins->set_version(1);
        if (edge.splitQkv) {
            auto* trt = model.add_opset_import();
            trt->set_domain("trt");
            trt->set_version(1);
        }
        b.weight("eps", {}, fp16);
        edgeLlmValues(g, shape, edge);
        edgeLlmBody(b, shape, edge);
    } else if (style == LlmExport::GenAi) {
        decoderValues(g, shape, true, false, "", true, true);
        genaiBody(b, shape, nbits);
    } else if (style == LlmExport::Optimum) {
        decoderValues(g, shape, true, true, "", true, true);
        commonConstants(b, shape);
        optimumBody(b, shape, true, "");
    } else {
        decoderValues(g, shape, true, true, "", true, true);
        addValue(g->mutable_input(), "use_cache_branch", onnx::TensorProto::BOOL, {""}, {1});
        commonConstants(b, shape);
        std::vector<std::string> outputs = {"logits"};
        for (int l = 0; l < shape.layers; ++l)
            for (bool key : {true, false})
                outputs.push_back(presentName(l, key));
        b.node("If", {"use_cache_branch"}, int(outputs.size()), "", outputs);
        onnx::GraphProto* decode = b.graphAttr("then_branch")->mutable_g();
        onnx::GraphProto* prefill = b.graphAttr("else_branch")->mutable_g();
        decode->set_name("decode");
        prefill->set_name("prefill");
        for (auto [body, withPast, prefix] : {std::make_tuple(decode, true, std::string("decode_")),
                                              std::make_tuple(prefill, false, std::string("prefill_"))}) {
            Builder branch(body, prefix);
            branch.setRoot(g);
            optimumBody(branch, shape, withPast, prefix);
            decoderValues(body, shape, false, false, prefix, false, true);
        }
    }
    return model;
}

void writeModel(const onnx::ModelProto& model, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out || !model.SerializeToOstream(&out)) throw std::runtime_error("cannot write " + path);
}

} // namespace rooftop::test
