// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the small readers of outside text: sysfs integers and cpu lists, the L4T release line, and the mode
// helper's argument validation (the input split at NUL bytes into arguments). Only InputError may escape
// the helper's parser, and an accepted request must carry values from the given ladders.
#include "core/common/errors.h"
#include "core/platform/board_detection.h"
#include "core/platform/helper_request.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)rooftop::parseStrictInteger(text);
    (void)rooftop::countCpuList(text);
    (void)rooftop::parseL4tRelease(text);
    (void)rooftop::isJetPack7(text);
    (void)rooftop::jetpackForL4t(rooftop::parseL4tRelease(text));
    std::vector<std::string> args;
    size_t start = 0;
    for (size_t i = 0; i <= text.size() && args.size() < 32; ++i)
        if (i == text.size() || text[i] == '\0') {
            args.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    rooftop::HelperLimits limits;
    limits.stockIds = {0, 1, 2, 3};
    limits.cpuKhz = {729600, 1728000, 2201600};
    limits.gpuHz = {306000000, 612000000, 1300500000};
    limits.emcHz = {204000000, 3199000000};
    limits.cpuCount = 12;
    try {
        const rooftop::HelperRequest request = rooftop::parseHelperRequest(args, limits);
        auto in = [](auto value, const auto& ladder) {
            return std::find(ladder.begin(), ladder.end(), value) != ladder.end();
        };
        using Action = rooftop::HelperRequest::Action;
        if (request.action == Action::SetStockMode && !in(request.stockId, limits.stockIds)) __builtin_trap();
        if (request.action == Action::SetClocks &&
            (!in(request.gpuHz, limits.gpuHz) || !in(request.cpuKhz, limits.cpuKhz) ||
             (request.emcHz != 0 && !in(request.emcHz, limits.emcHz)) || request.cores < 1 ||
             request.cores > 12))
            __builtin_trap();
    } catch (const rooftop::InputError&) {
    }
    return 0;
}
