// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the ONNX Runtime profiler JSON reader: InputError is the only allowed way out, and every layer read
// has a name and a finite, non-negative time.
#include "core/common/errors.h"
#include "core/compare/ort_profile.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        for (const rooftop::MeasuredLayer& layer : rooftop::parseOrtProfile(text, "fuzz").layers)
            if (layer.name.empty() || !std::isfinite(layer.ms) || layer.ms < 0) std::abort();
    } catch (const rooftop::InputError&) {
    }
    return 0;
}
