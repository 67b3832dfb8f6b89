// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/gaussian_process.h"

#include <Eigen/Core>

namespace rooftop {

/// Up to this many runs the learner's residual process is exact (cubic in the runs); above it, sparse.
constexpr Eigen::Index exactGpPointLimit = 500;
/// The sparse process's inducing points (at most; fewer when the data have fewer distinct positions).
constexpr Eigen::Index sparseGpInducingPoints = 128;

/// Fits the same process as fitGaussianProcess (constant mean, RBF kernel, length scale and noise by the
/// marginal likelihood on the same grids) as a deterministic-training-conditional sparse GP on at most
/// `inducing` inducing points: repeated positions are merged first (exactly: count, sum, sum of squares),
/// the inducing points are the farthest-point sample of the distinct positions. Time O(n m^2), memory
/// O(m^2 + distinct positions); exact when the distinct positions are at most `inducing`. The result predicts
/// like an exact process over its inducing points (inputs, alpha) and keeps the DTC posterior variance. With
/// `like` (a fitted process), its length scale and noise are taken rather than chosen: a cross-validation
/// fold of thousands of runs chooses what the whole fit chose, at a fifth of the cost.
GaussianProcess fitSparseGaussianProcess(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                         const GpFitOptions& options = {},
                                         Eigen::Index inducing = sparseGpInducingPoints,
                                         const GaussianProcess* like = nullptr);

} // namespace rooftop
