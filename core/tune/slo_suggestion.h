// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace rooftop {

/// A latency SLO to offer for a tune when none was given: 1.5x the fastest stock mode's predicted latency,
/// rounded up to 2 significant digits (5.745 ms -> 5.8 ms); 0 when `fastestMs` is not positive.
double suggestedLatencySloMs(double fastestMs);

} // namespace rooftop
