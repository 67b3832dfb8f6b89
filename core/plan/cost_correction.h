// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/plan_space.h"

#include <array>
#include <vector>

namespace rooftop {

/// The prediction of every mode corrected by the modes profiled so far: for each quantity (inference time and
/// power per batch size, training time and power), log(measured / predicted) as a ridge-regularised linear
/// trend in the modes' core and clock shares (from 3 profiles on) plus the inverse-distance weighted
/// residuals of the profiled modes. A profiled mode gives back what it measured.
class CostCorrection {
public:
    explicit CostCorrection(const PlanSpace& space);
    /// Adds a profiled mode and refits.
    void add(size_t mode, const PlanModeCosts& measured);
    /// Mode `mode`'s costs: measured when profiled, else the corrected prediction.
    PlanModeCosts corrected(size_t mode) const;
    /// The profiled modes, in the order added.
    const std::vector<size_t>& profiled() const { return modes_; }
    /// The mode's core count and clocks as shares of the space's largest.
    const std::array<double, 4>& coordinates(size_t mode) const { return coordinates_[mode]; }

private:
    static constexpr size_t terms = 5; // intercept and the four shares
    const PlanSpace& space_;
    std::vector<std::array<double, 4>> coordinates_;
    std::vector<size_t> modes_;
    std::vector<PlanModeCosts> measured_;
    std::vector<std::vector<double>> logRatio_;    // per profiled mode, per quantity
    std::vector<std::array<double, terms>> trend_; // per quantity
    std::vector<std::vector<double>> residual_;    // per profiled mode, per quantity
    size_t quantities() const { return 2 * space_.inferenceBatches.size() + 2; }
    void refit();
};

} // namespace rooftop
