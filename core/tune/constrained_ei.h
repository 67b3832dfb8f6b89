// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace rooftop {

/// The standard normal distribution function.
double normalCdf(double z);

/// The standard normal density.
double normalPdf(double z);

/// Expected improvement of a minimised quantity with belief N(mean, sd^2) over the best value so far, with
/// exploration margin xi (the same units): E[max(0, best - xi - value)]. 0 when sd is 0 and no improvement.
double expectedImprovement(double mean, double sd, double best, double xi);

/// P(value <= limit) for a belief N(mean, sd^2).
double probabilityBelow(double mean, double sd, double limit);

} // namespace rooftop
