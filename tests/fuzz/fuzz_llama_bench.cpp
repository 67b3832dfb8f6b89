// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the llama-bench reader (JSON array, one object, JSON lines): InputError or records that hold.
#include "core/common/errors.h"
#include "core/llm/llama_bench.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const rooftop::LlamaBenchFile file =
            rooftop::parseLlamaBench(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
        if (file.records.empty()) __builtin_trap();
        for (const rooftop::LlamaBenchRecord& record : file.records) {
            if (record.averageSeconds <= 0 || record.stddevSeconds < 0 || record.depth < 0) __builtin_trap();
            if ((record.prompt > 0) == (record.generate > 0)) __builtin_trap(); // exactly one phase
        }
    } catch (const rooftop::InputError&) {
    }
    return 0;
}
