// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

namespace rooftop {

/// Numerical rank of a design matrix after scaling every column to unit norm (relative threshold 1e-9), so
/// that columns in different units (FLOPs, bytes, seconds) compare fairly.
Eigen::Index scaledRank(const Eigen::MatrixXd& design);

/// Non-negative least squares min |A x - b| subject to x >= 0, exact for the few columns Rooftop fits (at most
/// ~6): every support set is solved by column-pivoting QR on unit-norm columns and the feasible solution with
/// the smallest residual wins (the NNLS optimum is the unconstrained optimum on its own support).
Eigen::VectorXd nonNegativeLeastSquares(const Eigen::MatrixXd& design, const Eigen::VectorXd& target);

/// Ordinary least squares on unit-norm columns (column-pivoting QR).
Eigen::VectorXd leastSquares(const Eigen::MatrixXd& design, const Eigen::VectorXd& target);

/// Coefficient of determination 1 - SS_res / SS_tot (1 when both are 0, 0 when only SS_tot is).
double rSquared(const Eigen::VectorXd& target, const Eigen::VectorXd& fitted);

} // namespace rooftop
