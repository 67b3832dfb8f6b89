// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <string>

namespace rooftop::test {

/// The sizes of a Llama-like decoder (RMSNorm, rotary, grouped-query attention, SiLU MLP).
struct LlmShape {
    int layers = 2;
    int64_t hidden = 64;
    int64_t heads = 4;
    int64_t kvHeads = 2;
    int64_t headDim = 16;
    int64_t intermediate = 128;
    int64_t vocab = 100;
    int64_t maxPositions = 256;
    int64_t slidingWindow = 0; ///< the genai export's local_window_size when > 0
};

/// Llama-2-7B (32 layers, 4096 wide, 32 heads, no GQA, 11008 MLP, 32000 tokens, 4096 positions).
LlmShape llama2_7b();
/// Llama-3.1-8B (32 layers, 4096 wide, 32 heads, 8 KV heads, 14336 MLP, 128256 tokens, 131072 positions).
LlmShape llama31_8b();
/// Qwen2.5-0.5B (24 layers, 896 wide, 14 heads, 2 KV heads, 4864 MLP, 151936 tokens, 32768 positions).
LlmShape qwen25_05b();

/// How the decoder is exported.
enum class LlmExport {
    Optimum,       ///< torch.onnx / optimum: Concat of past and new, Expand for the GQA repeat, fp16 MatMuls
    OptimumMerged, ///< optimum's merged decoder: an If on use_cache_branch around prefill and decode
    GenAi,   ///< onnxruntime-genai: MatMulNBits, GroupQueryAttention, (Skip)SimplifiedLayerNormalization
    EdgeLlm, ///< TensorRT Edge-LLM: inputs_embeds, trt_edgellm AttentionPlugin over past_key_values_N
};

/// Weights of the genai export: MatMulNBits bits (4 or 8) and block size, zero points or not.
struct NBits {
    int bits = 4;
    int64_t blockSize = 32;
    bool zeroPoints = false;
};

/// Weights of the Edge-LLM export: fp16 MatMuls, int4 AWQ (Int4GroupwiseGemmPlugin, group 128) or NVFP4
/// (FLOAT4E2M1 values, FP8 E4M3 scales per 16 and an fp16 global scale, two DequantizeLinear before MatMul).
enum class EdgeWeights { Fp16, Int4Awq, Nvfp4 };

/// The Edge-LLM export's weights and KV cache type (fp16, or FP8 E4M3 with enable_fp8_kv_cache).
struct EdgeOptions {
    EdgeWeights weights = EdgeWeights::Int4Awq;
    bool fp8Cache = false;
    bool splitQkv =
        false; ///< Q, K and V projected apart and passed to AttentionPlugin apart (the trt domain's form)
};

/// A decoder built with the ONNX protobuf API; its weights are external and absent (graph only), so real
/// sizes stay small files.
onnx::ModelProto makeLlmDecoder(const LlmShape& shape, LlmExport style, const NBits& nbits = {},
                                const EdgeOptions& edge = {});

/// Writes a model to `path`; throws std::runtime_error.
void writeModel(const onnx::ModelProto& model, const std::string& path);

} // namespace rooftop::test
