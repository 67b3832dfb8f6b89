// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/staged_fit.h"

#include "core/common/text_format.h"
#include "core/roofline/least_squares.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

namespace {

struct GroupFit {
    Eigen::VectorXd coefficients;
    std::vector<bool> fitted;
};

// The design of a candidate: one column per group (the sum of its columns).
Eigen::MatrixXd groupedDesign(const Eigen::MatrixXd& design, const TermGroups& groups) {
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(design.rows(), static_cast<Eigen::Index>(groups.size()));
    for (size_t g = 0; g < groups.size(); ++g)
        for (int column : groups[g])
            out.col(static_cast<Eigen::Index>(g)) += design.col(column);
    return out;
}

GroupFit solve(const Eigen::MatrixXd& design, const Eigen::VectorXd& target, const Eigen::VectorXd& weight,
               const Eigen::VectorXd& prior, const TermGroups& groups) {
    GroupFit out{prior, std::vector<bool>(static_cast<size_t>(design.cols()), false)};
    for (const auto& group : groups)
        for (int column : group)
            out.fitted[static_cast<size_t>(column)] = true;
    Eigen::VectorXd rest = target;
    for (Eigen::Index c = 0; c < design.cols(); ++c)
        if (!out.fitted[static_cast<size_t>(c)]) rest -= design.col(c) * prior(c);
    const Eigen::MatrixXd grouped = groupedDesign(design, groups);
    const Eigen::VectorXd x =
        nonNegativeLeastSquares(weight.asDiagonal() * grouped, weight.asDiagonal() * rest);
    for (size_t g = 0; g < groups.size(); ++g)
        for (int column : groups[g])
            out.coefficients(column) = x(static_cast<Eigen::Index>(g));
    return out;
}

bool identifiable(const Eigen::MatrixXd& design, const TermGroups& groups) {
    const Eigen::Index terms = static_cast<Eigen::Index>(groups.size());
    return design.rows() >= terms && scaledRank(groupedDesign(design, groups)) == terms;
}

Eigen::MatrixXd withoutRow(const Eigen::MatrixXd& m, Eigen::Index row) {
    Eigen::MatrixXd out(m.rows() - 1, m.cols());
    for (Eigen::Index r = 0, o = 0; r < m.rows(); ++r)
        if (r != row) out.row(o++) = m.row(r);
    return out;
}

Eigen::VectorXd withoutEntry(const Eigen::VectorXd& v, Eigen::Index row) {
    Eigen::VectorXd out(v.size() - 1);
    for (Eigen::Index r = 0, o = 0; r < v.size(); ++r)
        if (r != row) out(o++) = v(r);
    return out;
}

} // namespace

std::optional<StagedFit> fitFirstIdentifiable(const Eigen::MatrixXd& design, const Eigen::VectorXd& target,
                                              const Eigen::VectorXd& weight, const Eigen::VectorXd& prior,
                                              const std::vector<TermGroups>& candidates) {
    for (const TermGroups& groups : candidates) {
        if (!identifiable(design, groups)) continue;
        const GroupFit all = solve(design, target, weight, prior, groups);
        StagedFit fit;
        fit.coefficients = all.coefficients;
        fit.fitted = all.fitted;
        fit.fittedTerms = static_cast<int>(groups.size());
        fit.runs = static_cast<int>(design.rows());
        const Eigen::VectorXd predicted = design * fit.coefficients;
        fit.residuals = target - predicted;
        fit.rSquared = rSquared(target, predicted);
        fit.exact = true;
        for (Eigen::Index i = 0; i < target.size(); ++i)
            if (std::abs(fit.residuals(i)) > 1e-9 * std::abs(target(i))) fit.exact = false;

        // Leave one out: each run predicted by the same terms fitted to the others, where they stay
        // identified.
        if (fit.degreesOfFreedom() >= 1) {
            std::vector<double> errors;
            double logSquares = 0.0;
            for (Eigen::Index i = 0; i < design.rows(); ++i) {
                const Eigen::MatrixXd others = withoutRow(design, i);
                if (!identifiable(others, groups) || !(std::abs(target(i)) > 0)) continue;
                const GroupFit rest =
                    solve(others, withoutEntry(target, i), withoutEntry(weight, i), prior, groups);
                const double predicted = design.row(i).dot(rest.coefficients);
                errors.push_back(std::abs(predicted - target(i)) / std::abs(target(i)));
                const double ratio = predicted / target(i);
                logSquares += ratio > 0 ? std::pow(std::log(ratio), 2) : std::pow(std::log(10.0), 2);
            }
            fit.leaveOneOutRuns = static_cast<int>(errors.size());
            if (!errors.empty()) {
                fit.leaveOneOutRmsLog = std::sqrt(logSquares / double(errors.size()));
                std::sort(errors.begin(), errors.end());
                const size_t n = errors.size();
                fit.leaveOneOutMedian = n % 2 ? errors[n / 2] : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
                fit.leaveOneOutWorst = errors.back();
            }
        }
        return fit;
    }
    return std::nullopt;
}

std::string fitQualityText(const StagedFit& fit, const std::string& what) {
    const std::string terms =
        std::to_string(fit.fittedTerms) + " coefficient" + (fit.fittedTerms == 1 ? "" : "s");
    const std::string runs = std::to_string(fit.runs) + " run" + (fit.runs == 1 ? "" : "s");
    if (fit.degreesOfFreedom() <= 0 && fit.exact)
        return what + ": " + terms + " from " + runs +
               ", an exact fit (R^2 = 1 by construction) that says nothing "
               "about how well the model predicts; measure more runs (other batch sizes or modes) to test it";
    std::string text = what + ": " + terms + " from " + runs + ", R^2 " + general(fit.rSquared, 4);
    if (fit.degreesOfFreedom() <= 0)
        return text +
               " (a coefficient stopped at its bound of 0, so the fit is not exact; no spare run tests it)";
    if (fit.leaveOneOutMedian)
        text += ", leave-one-out error over " + std::to_string(fit.leaveOneOutRuns) + " of " +
                std::to_string(fit.runs) + " runs: median " + fixed(100.0 * *fit.leaveOneOutMedian, 1) +
                " %, worst " + fixed(100.0 * *fit.leaveOneOutWorst, 1) + " %";
    else
        text +=
            " (no run can be left out and the rest still fit: nothing tests the fit on runs it did not see)";
    return text;
}

} // namespace rooftop
