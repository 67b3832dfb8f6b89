// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/sparse_gaussian_process.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <vector>

namespace rooftop {

namespace {

// Rows of the cross-kernel held at once: memory stays O(chunk x inducing) whatever the number of runs.
constexpr Eigen::Index chunkRows = 2048;
// Added to K_mm's diagonal (relative to the signal variance): inducing points close at a long length scale
// make it nearly singular.
constexpr double relativeJitter = 1e-6;

/// The distinct positions of the data with, per position, how many rows, and the sum of their values.
struct Merged {
    Eigen::MatrixXd x;
    Eigen::VectorXd count, sum;
};

Merged merge(const Eigen::MatrixXd& x, const Eigen::VectorXd& centred) {
    struct RowLess {
        Eigen::Index cols;
        bool operator()(const double* a, const double* b) const {
            return std::lexicographical_compare(a, a + cols, b, b + cols);
        }
    };
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = x;
    std::map<const double*, Eigen::Index, RowLess> index(RowLess{x.cols()});
    std::vector<Eigen::Index> first;
    std::vector<double> count, sum;
    for (Eigen::Index i = 0; i < rows.rows(); ++i) {
        const auto [it, added] = index.emplace(rows.row(i).data(), Eigen::Index(first.size()));
        if (added) {
            first.push_back(i);
            count.push_back(0.0);
            sum.push_back(0.0);
        }
        count[size_t(it->second)] += 1.0;
        sum[size_t(it->second)] += centred[i];
    }
    Merged m{Eigen::MatrixXd(Eigen::Index(first.size()), x.cols()),
             Eigen::VectorXd(Eigen::Index(first.size())), Eigen::VectorXd(Eigen::Index(first.size()))};
    for (size_t j = 0; j < first.size(); ++j) {
        m.x.row(Eigen::Index(j)) = x.row(first[j]);
        m.count[Eigen::Index(j)] = count[j];
        m.sum[Eigen::Index(j)] = sum[j];
    }
    return m;
}

/// A farthest-point sample of m rows of x: the row nearest the centroid, then each time the row farthest from
/// those chosen. Deterministic, and spread over the data as a length scale needs.
Eigen::MatrixXd farthestPoints(const Eigen::MatrixXd& x, Eigen::Index m) {
    const Eigen::Index n = x.rows();
    if (m >= n) return x;
    const Eigen::RowVectorXd centroid = x.colwise().mean();
    Eigen::Index next = 0;
    (x.rowwise() - centroid).rowwise().squaredNorm().minCoeff(&next);
    Eigen::VectorXd nearest = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
    Eigen::MatrixXd z(m, x.cols());
    for (Eigen::Index k = 0; k < m; ++k) {
        z.row(k) = x.row(next);
        nearest = nearest.cwiseMin((x.rowwise() - x.row(next)).rowwise().squaredNorm());
        nearest.maxCoeff(&next);
    }
    return z;
}

/// k(a_i, z_j) for every row of a block and of z.
Eigen::MatrixXd crossKernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& z, double lengthScale,
                            double signal) {
    const Eigen::VectorXd an = a.rowwise().squaredNorm(), zn = z.rowwise().squaredNorm();
    Eigen::MatrixXd d = -2.0 * a * z.transpose();
    d.colwise() += an;
    d.rowwise() += zn.transpose();
    const double scale = -0.5 / (lengthScale * lengthScale);
    return signal * (scale * d.array().max(0.0)).exp().matrix();
}

/// What one length scale gives, whatever the noise: the inducing points' factor and the data projected on it.
struct Projection {
    Eigen::MatrixXd lm; ///< Cholesky factor of K_mm (+ jitter)
    Eigen::MatrixXd c;  ///< Lm^-1 K_mn K_nm Lm^-T
    Eigen::VectorXd v;  ///< Lm^-1 K_mn y
};

bool project(const Merged& data, const Eigen::MatrixXd& z, double lengthScale, double signal,
             Projection& out) {
    Eigen::MatrixXd kmm = crossKernel(z, z, lengthScale, signal);
    kmm.diagonal().array() += relativeJitter * signal;
    const Eigen::LLT<Eigen::MatrixXd> llt(kmm);
    if (llt.info() != Eigen::Success) return false;
    const Eigen::Index m = z.rows();
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(m, m);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(m);
    for (Eigen::Index from = 0; from < data.x.rows(); from += chunkRows) {
        const Eigen::Index rows = std::min(chunkRows, data.x.rows() - from);
        const Eigen::MatrixXd k = crossKernel(data.x.middleRows(from, rows), z, lengthScale, signal);
        const Eigen::MatrixXd weighted = data.count.segment(from, rows).cwiseSqrt().asDiagonal() * k;
        a.selfadjointView<Eigen::Lower>().rankUpdate(weighted.transpose());
        b.noalias() += k.transpose() * data.sum.segment(from, rows);
    }
    out.lm = llt.matrixL();
    const auto l = out.lm.triangularView<Eigen::Lower>();
    const Eigen::MatrixXd left = l.solve(Eigen::MatrixXd(a.selfadjointView<Eigen::Lower>()));
    out.c = l.solve(left.transpose());
    out.v = l.solve(b);
    return true;
}

} // namespace

GaussianProcess fitSparseGaussianProcess(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                         const GpFitOptions& options, Eigen::Index inducing,
                                         const GaussianProcess* like) {
    GaussianProcess gp;
    const Eigen::Index n = y.size();
    if (n == 0) return gp;
    gp.mean = y.mean();
    const Eigen::VectorXd centred = y.array() - gp.mean;
    const double sumOfSquares = centred.squaredNorm();
    const double variance = std::max(sumOfSquares / double(n), options.minSignalVariance);
    if (n < options.minPoints || variance < kGpNoiseFloor) return gp;

    const Merged data = merge(x, centred);
    const Eigen::MatrixXd z = farthestPoints(data.x, std::max<Eigen::Index>(1, inducing));
    // The DTC marginal likelihood of all n rows, y ~ N(0, Q_nn + s^2 I) with Q_nn = K_nm K_mm^-1 K_mn:
    // log|Q + s^2 I| = log|B| + n log s^2 and y'(Q + s^2 I)^-1 y = (y'y - |LB^-1 v|^2 / s^2) / s^2, where
    // B = I + C / s^2 (eigenvalues >= 1, well conditioned) — O(m^3) per noise once C and v are known.
    double best = -std::numeric_limits<double>::infinity();
    Projection chosen;
    Eigen::MatrixXd chosenB;
    double lengthScale = 0.0, noise = 0.0;
    const bool given = like && !like->empty() && like->lengthScale > 0 && like->noiseVariance > 0;
    const std::vector<double> scales =
        given ? std::vector<double>{like->lengthScale}
              : std::vector<double>(std::begin(kGpLengthScales), std::end(kGpLengthScales));
    const std::vector<double> sds = given ? std::vector<double>{std::sqrt(like->noiseVariance)}
                                          : std::vector<double>(std::begin(kGpNoises), std::end(kGpNoises));
    for (double l : scales) {
        Projection p;
        if (!project(data, z, l, variance, p)) continue;
        for (double s : sds) {
            const double s2 = s * s;
            Eigen::MatrixXd b = p.c / s2;
            b.diagonal().array() += 1.0;
            const Eigen::LLT<Eigen::MatrixXd> lb(b);
            if (lb.info() != Eigen::Success) continue;
            const Eigen::VectorXd e = lb.matrixL().solve(p.v);
            const double quadratic = (sumOfSquares - e.squaredNorm() / s2) / s2;
            const double logDet =
                2.0 * lb.matrixLLT().diagonal().array().log().sum() + double(n) * std::log(s2);
            const double likelihood = -0.5 * quadratic - 0.5 * logDet;
            if (likelihood > best) {
                best = likelihood;
                lengthScale = l;
                noise = s;
                chosen = p;
                chosenB = lb.matrixL();
            }
        }
    }
    if (!std::isfinite(best)) return gp;
    const double s2 = noise * noise;
    const auto lb = chosenB.triangularView<Eigen::Lower>();
    const Eigen::VectorXd inner =
        chosenB.transpose().triangularView<Eigen::Upper>().solve(lb.solve(chosen.v));
    gp.lengthScale = lengthScale;
    gp.noiseVariance = s2;
    gp.signalVariance = variance;
    gp.inputs = z;
    gp.alpha = chosen.lm.transpose().triangularView<Eigen::Upper>().solve(inner) / s2;
    gp.cholesky = chosen.lm;
    gp.inducedCholesky = chosenB;
    return gp;
}

} // namespace rooftop
