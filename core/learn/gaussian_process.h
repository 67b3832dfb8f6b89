// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

namespace rooftop {

/// The posterior of a Gaussian process at one point: the mean and the variance of the latent function.
struct GpPosterior {
    double mean = 0.0;     ///< the latent function's posterior mean
    double variance = 0.0; ///< its posterior variance (noise excluded)
};

/// A Gaussian process with a constant mean and an isotropic RBF kernel
/// k(x, x') = s^2 exp(-|x - x'|^2 / (2 l^2)) + noise^2 [x = x'], fitted to residuals. The one GP of Rooftop:
/// the learner's residual model (rooftop learn) and the tune surrogates' (rooftop tune).
struct GaussianProcess {
    double mean = 0.0;           ///< the constant prior mean
    double lengthScale = 1.0;    ///< l of the kernel, in the inputs' units
    double signalVariance = 0.0; ///< s^2; 0: the process is its mean alone
    double noiseVariance = 0.0;  ///< noise^2 of the kernel: the observations' noise
    Eigen::MatrixXd inputs;      ///< one training point per row
    Eigen::VectorXd alpha;       ///< K^-1 (y - mean)
    /// Lower triangle: the Cholesky factor L of K (noise included), kept by the fit for the posterior
    /// variance; a process read from a predictor file has none.
    Eigen::MatrixXd cholesky;
    /// A sparse process only (sparse_gaussian_process.h): `cholesky` is K_mm's factor and this the factor of
    /// B = I + Lm^-1 K_mn K_nm Lm^-T / noise, which gives the DTC variance s^2 - |v|^2 + |LB^-1 v|^2.
    Eigen::MatrixXd inducedCholesky;

    /// The posterior mean at a point x (inputs.cols() values).
    double predict(const double* x) const;
    /// The posterior mean and variance at a point x (inputs.cols() values); without training points, the
    /// mean and the signal variance. Throws std::logic_error for a process with points but no Cholesky
    /// factor.
    GpPosterior posterior(const double* x) const;
    /// True without training points: the process is its mean alone.
    bool empty() const { return inputs.rows() == 0; }
    /// Computes the Cholesky factor from the inputs and hyperparameters (a process read from a file), so
    /// that posterior() works; false when the kernel matrix is not positive definite.
    bool refactor();

private:
    Eigen::VectorXd kernelTo(const double* x) const;
};

/// Residual variance below which a fit gives a constant-mean process: noise of ~1-4 % in log space, so
/// residuals varying less leave nothing for the process to learn. The exact and the sparse process share it.
inline constexpr double kGpNoiseFloor = 1e-4;
/// The length scales the marginal likelihood chooses from (exact and sparse process).
inline constexpr double kGpLengthScales[] = {0.1, 0.2, 0.4, 0.8, 1.6};
/// The noise levels (standard deviations, log space) the marginal likelihood chooses from.
inline constexpr double kGpNoises[] = {0.01, 0.02, 0.04};

/// How fitGaussianProcess sets the process up beyond the data.
struct GpFitOptions {
    double minSignalVariance = 0.0; ///< the signal variance is the data's variance, at least this
    Eigen::Index minPoints = 3;     ///< fewer points give a constant-mean process
    /// From this many points the length scale and noise are chosen by the marginal likelihood; with fewer
    /// they are the grids' middle values (0.4, 2 %).
    Eigen::Index minPointsToChoose = 3;
};

/// Fits a GP to y at the rows of x: the constant mean is y's mean, the signal variance y's variance (at least
/// options.minSignalVariance), and the length scale (0.1-1.6) and noise (1-4 %) come from a small grid by the
/// log marginal likelihood. Fewer than options.minPoints points, or residuals smaller than the noise floor,
/// give a constant-mean process.
GaussianProcess fitGaussianProcess(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                   const GpFitOptions& options = {});

} // namespace rooftop
