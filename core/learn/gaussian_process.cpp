// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/gaussian_process.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

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

Eigen::LLT<Eigen::MatrixXd> factorise(const Eigen::MatrixXd& x, double lengthScale, double signal,
                                      double noiseVariance) {
    Eigen::MatrixXd k = kernelMatrix(x, lengthScale, signal);
    k.diagonal().array() += noiseVariance;
    return Eigen::LLT<Eigen::MatrixXd>(k);
}

} // namespace

Eigen::VectorXd GaussianProcess::kernelTo(const double* x) const {
    const Eigen::Index n = inputs.rows();
    Eigen::VectorXd k(n);
    const double scale = -0.5 / (lengthScale * lengthScale);
    for (Eigen::Index i = 0; i < n; ++i) {
        double d = 0.0;
        for (Eigen::Index c = 0; c < inputs.cols(); ++c)
            d += (inputs(i, c) - x[c]) * (inputs(i, c) - x[c]);
        k[i] = signalVariance * std::exp(scale * d);
    }
    return k;
}

double GaussianProcess::predict(const double* x) const {
    if (empty() || !(signalVariance > 0)) return mean;
    return mean + kernelTo(x).dot(alpha);
}

GpPosterior GaussianProcess::posterior(const double* x) const {
    if (empty()) return {mean, signalVariance};
    if (cholesky.rows() != inputs.rows())
        throw std::logic_error("GaussianProcess::posterior: no Cholesky factor (a process read from a file)");
    const Eigen::VectorXd k = kernelTo(x);
    const Eigen::VectorXd v = cholesky.triangularView<Eigen::Lower>().solve(k);
    double variance = signalVariance - v.squaredNorm();
    if (inducedCholesky.rows() == v.size()) // sparse: what the inducing points explain, less what the data do
        variance += inducedCholesky.triangularView<Eigen::Lower>().solve(v).squaredNorm();
    return {mean + k.dot(alpha), std::max(0.0, variance)};
}

bool GaussianProcess::refactor() {
    if (empty()) return true;
    const Eigen::LLT<Eigen::MatrixXd> llt = factorise(inputs, lengthScale, signalVariance, noiseVariance);
    if (llt.info() != Eigen::Success) return false;
    cholesky = llt.matrixLLT();
    return true;
}

GaussianProcess fitGaussianProcess(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                   const GpFitOptions& options) {
    GaussianProcess gp;
    const Eigen::Index n = y.size();
    if (n == 0) return gp;
    gp.mean = y.mean();
    const Eigen::VectorXd centred = y.array() - gp.mean;
    const double variance = std::max(centred.squaredNorm() / double(n), options.minSignalVariance);
    // without a fit the posterior is the prior: the data's mean, and their variance as the uncertainty (a
    // process that claimed none would make a search certain where it knows least)
    gp.signalVariance = variance;
    if (n < options.minPoints || variance < kGpNoiseFloor) return gp;

    double lengthScale = 0.4, noise = 0.02;
    if (n >= options.minPointsToChoose) {
        double best = -std::numeric_limits<double>::infinity();
        for (double l : kGpLengthScales)
            for (double s : kGpNoises) {
                const Eigen::LLT<Eigen::MatrixXd> llt = factorise(x, l, variance, s * s);
                if (llt.info() != Eigen::Success) continue;
                const Eigen::VectorXd a = llt.solve(centred);
                const double likelihood =
                    -0.5 * centred.dot(a) - llt.matrixLLT().diagonal().array().log().sum();
                if (likelihood > best) {
                    best = likelihood;
                    lengthScale = l;
                    noise = s;
                }
            }
        if (!std::isfinite(best)) return gp;
    }
    const Eigen::LLT<Eigen::MatrixXd> llt = factorise(x, lengthScale, variance, noise * noise);
    if (llt.info() != Eigen::Success) return gp;
    gp.lengthScale = lengthScale;
    gp.noiseVariance = noise * noise;
    gp.inputs = x;
    gp.alpha = llt.solve(centred);
    gp.cholesky = llt.matrixLLT();
    return gp;
}

} // namespace rooftop
