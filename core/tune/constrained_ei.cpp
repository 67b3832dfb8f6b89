// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/constrained_ei.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

double normalCdf(double z) {
    return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

double normalPdf(double z) {
    return std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
}

double expectedImprovement(double mean, double sd, double best, double xi) {
    const double gain = best - xi - mean;
    if (!(sd > 0)) return std::max(0.0, gain);
    const double z = gain / sd;
    return std::max(0.0, gain * normalCdf(z) + sd * normalPdf(z));
}

double probabilityBelow(double mean, double sd, double limit) {
    if (!(sd > 0)) return mean <= limit ? 1.0 : 0.0;
    return normalCdf((limit - mean) / sd);
}

} // namespace rooftop
