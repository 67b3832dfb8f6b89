// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/config_features.h"

#include <array>
#include <cstddef>
#include <vector>

namespace rooftop {

/// A configuration's position: the residual model's inputs (positionNames()).
using Position = std::array<double, positionCount>;

/// Where a predictor's runs lie, and how far cross-validation's held-out runs lay from the runs that
/// predicted them. A predictor's error grows with the distance to its nearest run (on the other-physics board
/// about linearly, from about half its cross-validated error at a run); the cross-validated error was
/// measured at the held-out distance, so a configuration farther from every run gets a proportionally wider
/// spread.
struct RunCoverage {
    std::vector<Position> positions; ///< the runs' distinct positions; empty: coverage unknown (factor 1)
    double heldOutDistance = 0.0;    ///< RMS distance of a held-out run to the nearest run of the other folds

    /// The distance from `position` to the nearest run.
    double nearest(const double* position) const;
    /// The cross-validated spread's factor at `position`: sqrt(1/4 + 3/4 (d / heldOutDistance)^2), 1 at the
    /// held-out distance, 1/2 at a run, growing linearly beyond; 1 when the coverage is unknown.
    double spreadFactor(const double* position) const;
};

/// The most distinct positions a coverage keeps; more runs than this cover the space densely, and the
/// coverage is left unknown (the spread stays the cross-validated one everywhere).
constexpr std::size_t coveragePositionLimit = 2000;

/// The smallest held-out distance assumed (about one step of a clock ladder on the position scale), so that
/// repeated runs, whose held-out twins lie at distance 0, do not make every other configuration look far.
constexpr double minimumHeldOutDistance = 0.05;

/// The coverage of runs at `positions`, cross-validated in the folds `fold` (one per position, as the
/// learner's k-fold split assigned them); unknown (empty) beyond coveragePositionLimit distinct positions.
RunCoverage runCoverage(const std::vector<Position>& positions, const std::vector<int>& fold);

} // namespace rooftop
