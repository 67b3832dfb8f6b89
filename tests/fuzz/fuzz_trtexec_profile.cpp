// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the trtexec --exportProfile and --exportTimes readers; InputError (or a failed result) is the only
// allowed way out, and every layer read must hold finite, non-negative times.
#include "core/common/errors.h"
#include "core/measure/trtexec_layer_profile.h"
#include "core/measure/trtexec_runner.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        for (const rooftop::LayerTime& layer : rooftop::parseTrtexecLayerProfile(text, "fuzz"))
            if (!std::isfinite(layer.averageMs) || layer.averageMs < 0 || !std::isfinite(layer.medianMs) ||
                layer.medianMs < 0 || layer.name.empty())
                std::abort();
    } catch (const rooftop::InputError&) {
    }
    (void)rooftop::parseTrtexecTimes(text);
    (void)rooftop::parseTensorRtVersion(text);
    return 0;
}
