// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/data_type.h"
#include "core/onnx/dim_binding.h"

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// How a decoder was exported.
enum class LlmExportStyle {
    Optimum,       ///< Hugging Face optimum / torch.onnx: past_key_values.N.key in, present.N.key out
    OptimumMerged, ///< optimum's decoder_model_merged: an If on use_cache_branch holds prefill and decode
    GenAi,         ///< onnxruntime-genai: com.microsoft GroupQueryAttention (and MatMulNBits)
    EdgeLlm, ///< TensorRT Edge-LLM: AttentionPlugin over past_key_values_N [batch, 2, kv heads, capacity,
             ///< head]
};

/// "optimum", "optimum-merged", "onnxruntime-genai" or "tensorrt-edge-llm".
const char* llmExportStyleName(LlmExportStyle style);

/// One transformer layer's KV cache: the past inputs and the present outputs they become (one tensor holding
/// both K and V where the export combines them: pastKey == pastValue).
struct KvCacheTensors {
    int layer = 0;
    std::string pastKey;
    std::string pastValue;
    std::string presentKey;
    std::string presentValue;
};

/// The symbolic dims a decoder's phases bind, with where each was read.
struct LlmDimRoles {
    std::string batch;    ///< dim 0 of the token input
    std::string sequence; ///< dim 1 of the token input: the tokens of this pass
    std::string past;     ///< dim 2 of a past key (3 combined): the tokens cached (Edge-LLM: the capacity)
    std::string total; ///< dim 1 of attention_mask when it is neither of the two (past + sequence); may be ""
    std::vector<std::string> readFrom; ///< "sequence = sequence_length (input_ids dim 1)", one per role found
};

/// A decoder with a KV cache, as recognised in an ONNX export.
struct LlmSignature {
    LlmExportStyle style = LlmExportStyle::Optimum;
    std::string tokenInput;             ///< input_ids or inputs_embeds
    std::string useCacheInput;          ///< the merged decoder's boolean input; "" otherwise
    std::vector<KvCacheTensors> caches; ///< one per layer, by layer number
    LlmDimRoles roles;
    bool combinedKv = false; ///< K and V in one tensor [batch, 2, kv heads, past, head size] (Edge-LLM)
    int64_t kvHeads = 0;     ///< dim 1 of a past key (dim 2 when combined)
    int64_t headDim = 0;     ///< dim 3 of a past key (dim 4 when combined)
    DataType kvType = DataType::Undefined;
    std::optional<int64_t>
        maxPositions;            ///< rows of the position table (rotary cos cache, position embedding)
    std::string positionsSource; ///< the initializer or input maxPositions was read from
};

/// Recognises a decoder with a KV cache; throws InputError naming what does not fit (no past inputs, a past
/// input without its present output, a KV dim that is not symbolic, a --dim that binds a phase's dim).
LlmSignature recognizeDecoder(const onnx::ModelProto& model, const DimBindings& userDims,
                              const std::string& sourceName);

/// Throws InputError "WHO: a context of N tokens is beyond the model's M positions (SOURCE): HINT" when the
/// signature's position table is known and shorter than `context`.
void checkContextFits(const LlmSignature& signature, int64_t context, const std::string& who,
                      const std::string& hint);

} // namespace rooftop
