// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One way to fit a linear model: the coefficients it fits, each shared by a group of design columns.
using TermGroups = std::vector<std::vector<int>>;

/// A linear model fitted with as many coefficients as the runs identify; the others keep their prior.
struct StagedFit {
    Eigen::VectorXd coefficients; ///< one per design column: fitted, or the prior
    std::vector<bool> fitted;     ///< per design column
    int fittedTerms = 0;          ///< coefficients fitted (a group counts once)
    int runs = 0;                 ///< rows of the design: the runs fitted to
    double rSquared = 0.0;        ///< of the target over all runs
    Eigen::VectorXd residuals;    ///< target - fitted, per run
    bool exact = false;           ///< every run reproduced (relative residuals below 1e-9)
    std::optional<double> leaveOneOutMedian, leaveOneOutWorst; ///< |relative error| of each run predicted
                                                               ///< by a fit of the others (a spare run)
    int leaveOneOutRuns = 0; ///< runs the leave-one-out could predict (the rest still identified)
    /// RMS of log(predicted / target) over those runs (a held-out prediction at or below 0 counts as a
    /// factor of 10 off); none without them.
    std::optional<double> leaveOneOutRmsLog;
    /// Spare runs beyond the fitted coefficients: runs - fittedTerms.
    int degreesOfFreedom() const { return runs - fittedTerms; }
};

/// Fits target = design x coefficients by weighted non-negative least squares with the first candidate whose
/// terms the runs identify (full scaled rank, at least as many runs as terms); columns outside the candidate
/// keep `prior` and are subtracted from the target first. Returns nothing when no candidate is identifiable.
std::optional<StagedFit> fitFirstIdentifiable(const Eigen::MatrixXd& design, const Eigen::VectorXd& target,
                                              const Eigen::VectorXd& weight, const Eigen::VectorXd& prior,
                                              const std::vector<TermGroups>& candidates);

/// One honest sentence on a fit's quality: an exact fit (no spare run) says nothing; otherwise R^2 and the
/// leave-one-out errors. `what` names the fitted quantity ("latency").
std::string fitQualityText(const StagedFit& fit, const std::string& what);

} // namespace rooftop
