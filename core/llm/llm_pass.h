// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/llm/kv_traffic.h"
#include "core/llm/llm_signature.h"

#include <cstdint>
#include <map>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace rooftop {

/// One pass of a decoder: `batch` sequences of `sequence` new tokens after `past` cached ones. Prefill of P
/// tokens is {B, P, 0}; a decode step at context c is {B, 1, c - 1}.
struct LlmPass {
    int64_t batch = 1;
    int64_t sequence = 1;
    int64_t past = 0;
    /// The tokens attended to: past + sequence.
    int64_t context() const { return past + sequence; }
};

/// The decode step whose counts are the mean of `generate` steps after `prompt` cached tokens (a step's
/// counts are affine in its context): `batch` sequences of one new token after prompt + (generate - 1) / 2.
LlmPass meanDecodeStep(int64_t batch, int64_t prompt, int64_t generate);

/// How the runtimes run a decoder: at `precision`, the KV cache appended in place (fused traffic), with the
/// user's other dims bound.
AnalysisSettings runtimeLlmSettings(Precision precision, const std::map<std::string, int64_t>& dims);

/// A pass counted in the LLM traffic view, with the KV cache's bytes as their own columns.
struct LlmPassCount {
    LlmPass pass;
    Workload workload; ///< layers and totals; input and output bytes include the KV cache's
    KvTraffic kv;
};

/// True when the model file is a decoder with a KV cache that LlmCounter recognises (it is loaded to see).
bool isLlmDecoder(const std::string& path);

/// A decoder loaded once and counted per pass.
class LlmCounter {
public:
    /// Loads and recognises the decoder; throws InputError. settings.dims holds the user's other --dim
    /// values.
    LlmCounter(const std::string& path, const AnalysisSettings& settings);

    /// The decoder as recognised.
    const LlmSignature& signature() const { return signature_; }
    /// The settings every pass is counted with.
    const AnalysisSettings& settings() const { return settings_; }
    /// Binds the phase's dims, infers shapes and counts; throws InputError.
    LlmPassCount count(const LlmPass& pass) const;

    /// Bytes of every weight the decoder holds (each initializer once, at the settings' precision).
    int64_t weightBytes() const { return weightBytes_; }
    /// KV-cache bytes one token of one sequence adds over all layers (keys and values).
    int64_t kvBytesPerToken() const { return kvBytesPerToken_; }

private:
    std::string path_;
    AnalysisSettings settings_;
    onnx::ModelProto model_;
    LlmSignature signature_;
    int64_t weightBytes_ = 0;
    int64_t kvBytesPerToken_ = 0;
};

} // namespace rooftop
