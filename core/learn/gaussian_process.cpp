// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/gaussian_process.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>

namespace rooftop {

namespace {

Eigen::MatrixXd kernelMatrix(const Eigen::MatrixXd& x, double lengthScale, double signal) {
    const Eigen::Index n = x.rows();
    Eigen::MatrixXd k(n, n);
    const double scale = -0.5 / (lengthScale * lengthScale);
    for (Eigen::Index i = 0; i < n; ++i) {
        k(i, i) = signal;
        for (Eigen::Index j = 0; j < i; ++j) {
            const double v = signal * std::exp(scale * (x.row(i) - x.row(j)).squaredNorm());
            k(i, j) = v;
            k(j, i) = v;
        }
    }
    return k;
}

} // namespace

double GaussianProcess::predict(const Eigen::RowVectorXd& x) const {
    if (empty() || !(signalVariance > 0)) return mean;
    const double scale = -0.5 / (lengthScale * lengthScale);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < inputs.rows(); ++i)
        sum += alpha[i] * std::exp(scale * (inputs.row(i) - x).squaredNorm());
    return mean + signalVariance * sum;
}

GaussianProcess fitGaussianProcess(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
    GaussianProcess gp;
    const Eigen::Index n = y.size();
    if (n == 0) return gp;
    gp.mean = y.mean();
    const Eigen::VectorXd centred = y.array() - gp.mean;
    const double variance = centred.squaredNorm() / double(n);
    // Noise of ~1-4 % in log space: below it there is nothing for the process to learn.
    constexpr double noiseFloor = 1e-4;
    if (n < 3 || variance < noiseFloor) return gp;

    double best = -std::numeric_limits<double>::infinity();
    for (double lengthScale : {0.1, 0.2, 0.4, 0.8, 1.6})
        for (double noise : {0.01, 0.02, 0.04}) {
            const double noiseVariance = noise * noise;
            Eigen::MatrixXd k = kernelMatrix(x, lengthScale, variance);
            k.diagonal().array() += noiseVariance;
            const Eigen::LLT<Eigen::MatrixXd> llt(k);
            if (llt.info() != Eigen::Success) continue;
            const Eigen::VectorXd a = llt.solve(centred);
            const double logDet = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
            const double likelihood = -0.5 * centred.dot(a) - 0.5 * logDet;
            if (likelihood > best) {
                best = likelihood;
                gp.lengthScale = lengthScale;
                gp.noiseVariance = noiseVariance;
                gp.alpha = a;
            }
        }
    if (!std::isfinite(best)) return gp;
    gp.signalVariance = variance;
    gp.inputs = x;
    return gp;
}

} // namespace rooftop
