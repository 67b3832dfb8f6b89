// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/gaussian_process.h"

#include <Eigen/Core>
#include <cmath>

namespace rooftop {

/// The surrogate's belief about log(quantity) at a configuration: a mean and a variance.
struct LogBelief {
    double mean = 0.0;     ///< of log(quantity)
    double variance = 0.0; ///< of log(quantity)
};

/// A surrogate of one positive quantity (latency or power) over configurations: Rooftop's roofline
/// prediction recalibrated by the learner's physics fit (non-negative coefficients of the prediction's
/// parts, core/learn/physics_fit.h) as the prior mean, times exp(the learner's Gaussian process on the log
/// residuals, core/learn/gaussian_process.h) whose posterior variance says how sure it is. Without points it
/// is Rooftop's prediction with the prior's own uncertainty.
class LogSurrogate {
public:
    /// `physics`: one row of prediction parts per point (column 0 Rooftop's prediction itself);
    /// `positions`: the learner's positions; `measured`: the positive measured values.
    void fit(const Eigen::MatrixXd& physics, const Eigen::MatrixXd& positions,
             const Eigen::VectorXd& measured);
    /// The belief at a configuration (its physics row and position row).
    LogBelief at(const double* physics, const double* position) const;
    /// Standard deviation of the residual process before any point (its signal), in log units.
    double signalSd() const { return std::sqrt(residual_.signalVariance); }

private:
    Eigen::VectorXd coefficients_;
    GaussianProcess residual_;
};

} // namespace rooftop
