// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

namespace rooftop {

/// Non-negative coefficients a of y ~ X a that minimise the relative error sum ((X a)_i / y_i - 1)^2 plus a
/// ridge pull lambda |c (a - prior)|^2 toward the prior, with c the columns' root-mean-square relative size
/// (so the pull weighs every column alike whatever its unit). Few runs keep the prior's shape; many runs
/// move away from it as far as they show.
Eigen::VectorXd fitRelativeRidge(const Eigen::MatrixXd& features, const Eigen::VectorXd& measured,
                                 const Eigen::VectorXd& prior, double lambda);

} // namespace rooftop
