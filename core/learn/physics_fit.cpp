// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/physics_fit.h"

#include "core/roofline/least_squares.h"

#include <cmath>

namespace rooftop {

Eigen::VectorXd fitRelativeRidge(const Eigen::MatrixXd& features, const Eigen::VectorXd& measured,
                                 const Eigen::VectorXd& prior, double lambda) {
    const Eigen::Index n = features.rows(), k = features.cols();
    Eigen::MatrixXd relative = features;
    for (Eigen::Index i = 0; i < n; ++i)
        relative.row(i) /= measured[i];
    Eigen::VectorXd scale(k);
    for (Eigen::Index j = 0; j < k; ++j) {
        const double rms = n > 0 ? relative.col(j).norm() / std::sqrt(double(n)) : 0.0;
        scale[j] = rms > 0 ? rms : 1.0;
    }
    Eigen::MatrixXd design(n + k, k);
    Eigen::VectorXd target(n + k);
    const double pull = std::sqrt(lambda);
    for (Eigen::Index j = 0; j < k; ++j)
        design.block(0, j, n, 1) = relative.col(j) / scale[j];
    design.bottomRows(k) = pull * Eigen::MatrixXd::Identity(k, k);
    target.head(n).setOnes();
    target.tail(k) = pull * prior.cwiseProduct(scale);
    const Eigen::VectorXd scaled = nonNegativeLeastSquares(design, target);
    return scaled.cwiseQuotient(scale);
}

} // namespace rooftop
