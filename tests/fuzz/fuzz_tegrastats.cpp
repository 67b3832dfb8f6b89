// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the tegrastats line parser (never throws) line by line.
#include "core/platform/tegrastats.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::string line;
    while (std::getline(in, line)) {
        const rooftop::TegrastatsLine parsed = rooftop::parseTegrastatsLine(line);
        for (const auto& rail : parsed.rails)
            if (rail.label.empty() || rail.milliwatts < 0) __builtin_trap();
        if (parsed.gpuLoadPercent && (*parsed.gpuLoadPercent < 0 || *parsed.gpuLoadPercent > 100))
            __builtin_trap();
    }
    return 0;
}
