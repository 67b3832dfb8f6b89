// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the Nsight Compute CSV reader (long and --page raw forms): InputError is the only allowed way out,
// and every kernel read has a name, a finite non-negative time, and FLOPs and bytes that are unknown (-1) or
// finite and non-negative.
#include "core/common/errors.h"
#include "core/compare/ncu_csv.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

bool countOk(double x) {
    return x == -1.0 || (std::isfinite(x) && x >= 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        for (const rooftop::MeasuredLayer& layer : rooftop::parseNcuCsv(text, "fuzz").layers)
            if (layer.name.empty() || !std::isfinite(layer.ms) || layer.ms < 0 || !countOk(layer.flops) ||
                !countOk(layer.dramBytes))
                std::abort();
    } catch (const rooftop::InputError&) {
    }
    (void)rooftop::ncuUnitScale(text);
    return 0;
}
