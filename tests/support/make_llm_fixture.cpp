// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop_llm_fixture SHAPE STYLE BITS OUT.onnx: writes a decoder of a real model's shape, weights external
// and absent (the README's comparison with published decode rates uses it). SHAPE: llama2-7b | llama3.1-8b |
// qwen2.5-0.5b | tiny; STYLE: optimum | merged | genai | edge-llm; BITS: genai's MatMulNBits bits (4 or 8,
// block 32); edge-llm's weights: 4 (int4 AWQ, group 128), fp4 (NVFP4) or 16 (fp16).
#include "llm_fixtures.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

int main(int argc, char** argv) {
    using namespace rooftop::test;
    if (argc != 5) {
        std::cerr << "usage: rooftop_llm_fixture llama2-7b|llama3.1-8b|qwen2.5-0.5b|tiny "
                     "optimum|merged|genai|edge-llm BITS OUT.onnx\n";
        return 1;
    }
    const std::map<std::string, LlmShape> shapes = {{"llama2-7b", llama2_7b()},
                                                    {"llama3.1-8b", llama31_8b()},
                                                    {"qwen2.5-0.5b", qwen25_05b()},
                                                    {"tiny", LlmShape{}}};
    const std::map<std::string, LlmExport> styles = {{"optimum", LlmExport::Optimum},
                                                     {"merged", LlmExport::OptimumMerged},
                                                     {"genai", LlmExport::GenAi},
                                                     {"edge-llm", LlmExport::EdgeLlm}};
    if (!shapes.count(argv[1]) || !styles.count(argv[2])) {
        std::cerr << "rooftop_llm_fixture: unknown shape or style\n";
        return 1;
    }
    const std::string bits = argv[3];
    NBits nbits;
    EdgeOptions edge;
    if (styles.at(argv[2]) == LlmExport::EdgeLlm) {
        const std::map<std::string, EdgeWeights> weights = {
            {"4", EdgeWeights::Int4Awq}, {"fp4", EdgeWeights::Nvfp4}, {"16", EdgeWeights::Fp16}};
        if (!weights.count(bits)) {
            std::cerr << "rooftop_llm_fixture: edge-llm's BITS is 4, fp4 or 16\n";
            return 1;
        }
        edge.weights = weights.at(bits);
    } else {
        nbits.bits = std::atoi(bits.c_str());
        if (nbits.bits != 4 && nbits.bits != 8) {
            std::cerr << "rooftop_llm_fixture: BITS is 4 or 8\n";
            return 1;
        }
    }
    try {
        writeModel(makeLlmDecoder(shapes.at(argv[1]), styles.at(argv[2]), nbits, edge), argv[4]);
    } catch (const std::exception& error) {
        std::cerr << "rooftop_llm_fixture: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
