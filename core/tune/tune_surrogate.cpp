// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_surrogate.h"

#include "core/learn/physics_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rooftop {

namespace {

// How far Rooftop's roofline alone is from a board, in log units, before any run (the learner's tests: 37 %
// time, 45 % power MAPE on the simulated board): the spread of the prior.
constexpr double priorSd = 0.35;
// The relative ridge pull of the physics fit toward Rooftop's prediction alone (the learner's free pull).
constexpr double ridgePull = 1e-3;

/// The spread left after n points: the calibrated prior is still uncertain between and beyond them.
double signalFloor(Eigen::Index n) {
    return std::max(0.04, 0.2 / std::sqrt(double(n)));
}

double squaredDistance(const double* a, const double* b, int n) {
    double d = 0.0;
    for (int i = 0; i < n; ++i)
        d += (a[i] - b[i]) * (a[i] - b[i]);
    return d;
}

Eigen::MatrixXd kernelMatrix(const Eigen::MatrixXd& x, double length, double signal) {
    const Eigen::Index n = x.rows();
    Eigen::MatrixXd k(n, n);
    const double scale = -0.5 / (length * length);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j <= i; ++j) {
            const double v = signal * std::exp(scale * (x.row(i) - x.row(j)).squaredNorm());
            k(i, j) = v;
            k(j, i) = v;
        }
    return k;
}

} // namespace

void LogSurrogate::fit(const Eigen::MatrixXd& physics, const Eigen::MatrixXd& positions,
                       const Eigen::VectorXd& measured) {
    const Eigen::Index n = measured.size();
    physicsColumns_ = int(physics.cols());
    positionColumns_ = int(positions.cols());
    Eigen::VectorXd prior = Eigen::VectorXd::Zero(physics.cols());
    prior[0] = 1.0; // Rooftop's own prediction
    inputs_ = positions;
    if (n == 0) {
        coefficients_ = prior;
        mean_ = 0.0;
        signal_ = priorSd * priorSd;
        noise_ = 0.02 * 0.02;
        alpha_.resize(0);
        return;
    }
    coefficients_ = fitRelativeRidge(physics, measured, prior, ridgePull);
    Eigen::VectorXd residual(n);
    for (Eigen::Index i = 0; i < n; ++i)
        residual[i] = std::log(measured[i] / std::max(1e-30, physics.row(i).dot(coefficients_)));
    mean_ = residual.mean();
    const Eigen::VectorXd centred = residual.array() - mean_;
    signal_ = std::max(centred.squaredNorm() / double(n), signalFloor(n) * signalFloor(n));

    length_ = 0.4;
    noise_ = 0.02 * 0.02;
    if (n >= 4) { // enough points to choose the length scale and noise by the marginal likelihood
        double best = -std::numeric_limits<double>::infinity();
        for (double length : {0.1, 0.2, 0.4, 0.8, 1.6})
            for (double noise : {0.01, 0.02, 0.04}) {
                Eigen::MatrixXd k = kernelMatrix(positions, length, signal_);
                k.diagonal().array() += noise * noise;
                const Eigen::LLT<Eigen::MatrixXd> llt(k);
                if (llt.info() != Eigen::Success) continue;
                const Eigen::VectorXd a = llt.solve(centred);
                const double likelihood =
                    -0.5 * centred.dot(a) - llt.matrixLLT().diagonal().array().log().sum();
                if (likelihood > best) {
                    best = likelihood;
                    length_ = length;
                    noise_ = noise * noise;
                }
            }
    }
    Eigen::MatrixXd k = kernelMatrix(positions, length_, signal_);
    k.diagonal().array() += noise_;
    llt_.compute(k);
    alpha_ = llt_.solve(centred);
}

LogBelief LogSurrogate::at(const double* physics, const double* position) const {
    double prediction = 0.0;
    for (Eigen::Index i = 0; i < coefficients_.size(); ++i)
        prediction += physics[i] * coefficients_[i];
    LogBelief belief;
    belief.mean = std::log(std::max(1e-30, prediction)) + mean_;
    belief.variance = signal_;
    const Eigen::Index n = alpha_.size();
    if (n == 0) return belief;
    Eigen::VectorXd k(n);
    const double scale = -0.5 / (length_ * length_);
    for (Eigen::Index i = 0; i < n; ++i)
        k[i] = signal_ * std::exp(scale * squaredDistance(inputs_.row(i).data(), position, positionColumns_));
    belief.mean += k.dot(alpha_);
    const Eigen::VectorXd v = llt_.matrixL().solve(k);
    belief.variance = std::max(1e-8, signal_ - v.squaredNorm());
    return belief;
}

} // namespace rooftop
