// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_surrogate.h"

#include "core/learn/physics_fit.h"

#include <algorithm>
#include <cmath>

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

} // namespace

void LogSurrogate::fit(const Eigen::MatrixXd& physics, const Eigen::MatrixXd& positions,
                       const Eigen::VectorXd& measured) {
    const Eigen::Index n = measured.size();
    Eigen::VectorXd prior = Eigen::VectorXd::Zero(physics.cols());
    prior[0] = 1.0; // Rooftop's own prediction
    if (n == 0) {
        coefficients_ = prior;
        residual_ = GaussianProcess{};
        residual_.signalVariance = priorSd * priorSd;
        return;
    }
    coefficients_ = fitRelativeRidge(physics, measured, prior, ridgePull);
    Eigen::VectorXd residual(n);
    for (Eigen::Index i = 0; i < n; ++i)
        residual[i] = std::log(measured[i] / std::max(1e-30, physics.row(i).dot(coefficients_)));
    GpFitOptions options;
    options.minSignalVariance = signalFloor(n) * signalFloor(n);
    options.minPoints = 1;         // even one run is a belief about its neighbourhood
    options.minPointsToChoose = 4; // enough points to choose the length scale and noise by the likelihood
    residual_ = fitGaussianProcess(positions, residual, options);
}

LogBelief LogSurrogate::at(const double* physics, const double* position) const {
    double prediction = 0.0;
    for (Eigen::Index i = 0; i < coefficients_.size(); ++i)
        prediction += physics[i] * coefficients_[i];
    const GpPosterior residual = residual_.posterior(position);
    return {std::log(std::max(1e-30, prediction)) + residual.mean, std::max(1e-8, residual.variance)};
}

} // namespace rooftop
