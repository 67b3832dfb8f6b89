// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/slo_suggestion.h"

#include <cmath>

namespace rooftop {

double suggestedLatencySloMs(double fastestMs) {
    if (!(fastestMs > 0) || !std::isfinite(fastestMs)) return 0.0;
    const double wanted = 1.5 * fastestMs;
    const double step = std::pow(10.0, std::floor(std::log10(wanted)) - 1);
    return std::ceil(wanted / step - 1e-9) * step; // 1.5 x 0.4 is 0.6000000000000001: not a step up
}

} // namespace rooftop
