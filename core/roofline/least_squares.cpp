// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/least_squares.h"

#include <Eigen/QR>

#include <vector>

namespace rooftop {

namespace {

constexpr double rankThreshold = 1e-9;

// Column norms (1 for zero columns, so that they stay zero).
Eigen::VectorXd columnScales(const Eigen::MatrixXd& a) {
    Eigen::VectorXd s(a.cols());
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
        const double n = a.col(j).norm();
        s(j) = n > 0 ? n : 1.0;
    }
    return s;
}

} // namespace

Eigen::Index scaledRank(const Eigen::MatrixXd& design) {
    if (design.cols() == 0 || design.rows() == 0) return 0;
    const Eigen::MatrixXd scaled = design * columnScales(design).cwiseInverse().asDiagonal();
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(scaled);
    qr.setThreshold(rankThreshold);
    return qr.rank();
}

Eigen::VectorXd leastSquares(const Eigen::MatrixXd& design, const Eigen::VectorXd& target) {
    const Eigen::VectorXd scales = columnScales(design);
    const Eigen::MatrixXd scaled = design * scales.cwiseInverse().asDiagonal();
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(scaled);
    qr.setThreshold(rankThreshold);
    return (qr.solve(target).array() / scales.array()).matrix();
}

Eigen::VectorXd nonNegativeLeastSquares(const Eigen::MatrixXd& design, const Eigen::VectorXd& target) {
    const Eigen::Index n = design.cols();
    Eigen::VectorXd best = Eigen::VectorXd::Zero(n);
    double bestResidual = target.squaredNorm();
    for (unsigned mask = 1; mask < (1u << n); ++mask) {
        std::vector<Eigen::Index> columns;
        for (Eigen::Index j = 0; j < n; ++j)
            if (mask & (1u << j)) columns.push_back(j);
        Eigen::MatrixXd sub(design.rows(), static_cast<Eigen::Index>(columns.size()));
        for (size_t k = 0; k < columns.size(); ++k) sub.col(static_cast<Eigen::Index>(k)) = design.col(columns[k]);
        if (scaledRank(sub) < sub.cols()) continue;
        const Eigen::VectorXd x = leastSquares(sub, target);
        if ((x.array() < 0).any()) continue;
        const double residual = (sub * x - target).squaredNorm();
        if (residual < bestResidual) {
            bestResidual = residual;
            best.setZero();
            for (size_t k = 0; k < columns.size(); ++k) best(columns[k]) = x(static_cast<Eigen::Index>(k));
        }
    }
    return best;
}

double rSquared(const Eigen::VectorXd& target, const Eigen::VectorXd& fitted) {
    if (target.size() == 0) return 0.0;
    const double mean = target.mean();
    const double total = (target.array() - mean).square().sum();
    const double residual = (target - fitted).squaredNorm();
    if (total <= 0) return residual <= 0 ? 1.0 : 0.0;
    return 1.0 - residual / total;
}

} // namespace rooftop
