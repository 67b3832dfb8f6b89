// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

namespace rooftop {

/// A Gaussian process with a constant mean and an isotropic RBF kernel
/// k(x, x') = s^2 exp(-|x - x'|^2 / (2 l^2)) + noise^2 [x = x'], fitted to residuals.
struct GaussianProcess {
    double mean = 0.0;
    double lengthScale = 1.0;
    double signalVariance = 0.0; ///< s^2; 0: the process is its mean alone
    double noiseVariance = 0.0;
    Eigen::MatrixXd inputs; ///< one training point per row
    Eigen::VectorXd alpha;  ///< K^-1 (y - mean)

    /// The posterior mean at a point (a row vector of the inputs' width).
    double predict(const Eigen::RowVectorXd& x) const;
    bool empty() const { return inputs.rows() == 0; }
};

/// Fits a GP to y at the rows of x: the constant mean is y's mean, the signal variance y's variance, and the
/// length scale and noise come from a small grid by the log marginal likelihood. Fewer than 3 points, or
/// residuals smaller than the noise floor, give a constant-mean process.
GaussianProcess fitGaussianProcess(const Eigen::MatrixXd& x, const Eigen::VectorXd& y);

} // namespace rooftop
