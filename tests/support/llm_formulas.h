// SPDX-License-Identifier: GPL-3.0-or-later
// The hand formulas the LLM counts are checked against, and a decoder written to a temporary file.
#pragma once

#include "llm_fixtures.h"

#include <QTemporaryDir>
#include <cstdint>
#include <string>

namespace rooftop::test {

/// MACs of the projections and the MLP for one token (without the head).
inline int64_t layerMacsPerToken(const LlmShape& s) {
    const int64_t q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    return s.layers * (s.hidden * q + 2 * s.hidden * kv + q * s.hidden + 3 * s.hidden * s.intermediate);
}

/// MACs of the projections, the MLP and the language-model head for one token.
inline int64_t linearMacsPerToken(const LlmShape& s) {
    return layerMacsPerToken(s) + s.hidden * s.vocab;
}

/// Q K^T and P V over every layer: batch x heads x new tokens x context x 2 head dims.
inline int64_t attentionMacs(const LlmShape& s, int64_t batch, int64_t tokens, int64_t context) {
    return s.layers * batch * s.heads * tokens * context * 2 * s.headDim;
}

/// KV bytes of `tokens` tokens of one sequence at `elementBytes` a value (fp16: 2).
inline int64_t kvBytes(const LlmShape& s, int64_t tokens, int64_t elementBytes = 2) {
    return 2 * s.layers * s.kvHeads * s.headDim * tokens * elementBytes;
}

/// A decoder written to a temporary directory for the life of the object.
class DecoderFile {
public:
    DecoderFile(const LlmShape& shape, LlmExport style, const NBits& nb = {}, const EdgeOptions& edge = {}) {
        path_ = dir_.filePath("decoder.onnx").toStdString();
        writeModel(makeLlmDecoder(shape, style, nb, edge), path_);
    }
    const std::string& path() const { return path_; }

private:
    QTemporaryDir dir_;
    std::string path_;
};

} // namespace rooftop::test
