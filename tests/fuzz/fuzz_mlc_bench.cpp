// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the MLC benchmark reader (the --save CSV, the printed log): InputError or records that hold.
#include "core/common/errors.h"
#include "core/llm/mlc_bench.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const rooftop::LlamaBenchFile file =
            rooftop::parseMlcBench(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
        if (file.records.empty()) __builtin_trap();
        for (const rooftop::LlamaBenchRecord& record : file.records) {
            if (!(record.averageSeconds > 0) || record.depth < 0) __builtin_trap();
            if ((record.prompt > 0) == (record.generate > 0)) __builtin_trap(); // exactly one phase
            if (record.generate > 0 && record.depth < 1) __builtin_trap();      // decode follows a prompt
        }
    } catch (const rooftop::InputError&) {
    }
    return 0;
}
