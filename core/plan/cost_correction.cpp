// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/cost_correction.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

namespace {

constexpr double ridge = 0.02;          // on the trend's slopes, in units of the shares (0-1)
constexpr double largestLogRatio = 1.5; // a correction of at most e^1.5 = 4.5x either way

double logRatio(double measured, double predicted) {
    return measured > 0 && predicted > 0 && std::isfinite(measured) && std::isfinite(predicted)
               ? std::log(measured / predicted)
               : 0.0;
}

// The quantities of one mode, in the correction's order: inference time and power per batch, training time,
// power.
std::vector<double*> quantitiesOf(PlanModeCosts& c) {
    std::vector<double*> q;
    for (double& v : c.inferenceSeconds)
        q.push_back(&v);
    for (double& v : c.inferenceWatts)
        q.push_back(&v);
    q.push_back(&c.trainingSeconds);
    q.push_back(&c.trainingWatts);
    return q;
}

// Solves a x = b (n x n, partial pivoting); a singular system leaves x at zero.
template <size_t n>
std::array<double, n> solve(std::array<std::array<double, n>, n> a, std::array<double, n> b) {
    for (size_t col = 0; col < n; ++col) {
        size_t pivot = col;
        for (size_t r = col + 1; r < n; ++r)
            if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
        if (std::abs(a[pivot][col]) < 1e-12) return {};
        std::swap(a[col], a[pivot]);
        std::swap(b[col], b[pivot]);
        for (size_t r = col + 1; r < n; ++r) {
            const double f = a[r][col] / a[col][col];
            for (size_t c = col; c < n; ++c)
                a[r][c] -= f * a[col][c];
            b[r] -= f * b[col];
        }
    }
    std::array<double, n> x{};
    for (size_t i = n; i-- > 0;) {
        double sum = b[i];
        for (size_t c = i + 1; c < n; ++c)
            sum -= a[i][c] * x[c];
        x[i] = sum / a[i][i];
    }
    return x;
}

} // namespace

CostCorrection::CostCorrection(const PlanSpace& space) : space_(space) {
    std::array<double, 4> top{1, 1, 1, 1};
    for (const PlanModeCosts& c : space.modes) {
        top[0] = std::max(top[0], static_cast<double>(c.mode.onlineCores));
        top[1] = std::max(top[1], static_cast<double>(c.mode.cpuKhz));
        top[2] = std::max(top[2], static_cast<double>(c.mode.gpuHz));
        top[3] = std::max(top[3], static_cast<double>(c.mode.emcHz));
    }
    coordinates_.reserve(space.modes.size());
    for (const PlanModeCosts& c : space.modes)
        coordinates_.push_back({c.mode.onlineCores / top[0], c.mode.cpuKhz / top[1], c.mode.gpuHz / top[2],
                                c.mode.emcHz / top[3]});
}

void CostCorrection::add(size_t mode, const PlanModeCosts& measured) {
    modes_.push_back(mode);
    measured_.push_back(measured);
    PlanModeCosts m = measured, p = space_.modes[mode];
    const std::vector<double*> mq = quantitiesOf(m), pq = quantitiesOf(p);
    std::vector<double> ratios;
    for (size_t q = 0; q < mq.size(); ++q)
        ratios.push_back(logRatio(*mq[q], *pq[q]));
    logRatio_.push_back(ratios);
    refit();
}

void CostCorrection::refit() {
    const size_t n = modes_.size(), count = quantities();
    trend_.assign(count, {});
    residual_.assign(n, std::vector<double>(count, 0.0));
    for (size_t q = 0; q < count; ++q) {
        std::array<double, terms> beta{};
        if (n < 3) {
            for (size_t i = 0; i < n; ++i)
                beta[0] += logRatio_[i][q] / static_cast<double>(n);
        } else {
            std::array<std::array<double, terms>, terms> a{};
            std::array<double, terms> b{};
            for (size_t i = 0; i < n; ++i) {
                const std::array<double, 4>& c = coordinates_[modes_[i]];
                const std::array<double, terms> x{1.0, c[0], c[1], c[2], c[3]};
                for (size_t r = 0; r < terms; ++r) {
                    b[r] += x[r] * logRatio_[i][q];
                    for (size_t k = 0; k < terms; ++k)
                        a[r][k] += x[r] * x[k];
                }
            }
            for (size_t r = 1; r < terms; ++r)
                a[r][r] += ridge * static_cast<double>(n);
            beta = solve<terms>(a, b);
        }
        trend_[q] = beta;
        for (size_t i = 0; i < n; ++i) {
            const std::array<double, 4>& c = coordinates_[modes_[i]];
            const double fitted = beta[0] + beta[1] * c[0] + beta[2] * c[1] + beta[3] * c[2] + beta[4] * c[3];
            residual_[i][q] = logRatio_[i][q] - fitted;
        }
    }
}

PlanModeCosts CostCorrection::corrected(size_t mode) const {
    for (size_t i = 0; i < modes_.size(); ++i)
        if (modes_[i] == mode) return measured_[i];
    PlanModeCosts out = space_.modes[mode];
    if (modes_.empty()) return out;
    const std::array<double, 4>& c = coordinates_[mode];
    std::vector<double> weight(modes_.size());
    double total = 0.0;
    for (size_t i = 0; i < modes_.size(); ++i) {
        const std::array<double, 4>& p = coordinates_[modes_[i]];
        double d = 0.0;
        for (size_t k = 0; k < 4; ++k)
            d += (c[k] - p[k]) * (c[k] - p[k]);
        weight[i] = 1.0 / (d + 1e-3);
        total += weight[i];
    }
    const std::vector<double*> q = quantitiesOf(out);
    for (size_t k = 0; k < q.size(); ++k) {
        const std::array<double, terms>& beta = trend_[k];
        double log = beta[0] + beta[1] * c[0] + beta[2] * c[1] + beta[3] * c[2] + beta[4] * c[3];
        double residual = 0.0;
        for (size_t i = 0; i < modes_.size(); ++i)
            residual += weight[i] * residual_[i][k];
        log += residual / total;
        *q[k] *= std::exp(std::clamp(log, -largestLogRatio, largestLogRatio));
    }
    out.provenance = "predicted";
    out.trainingProvenance.clear(); // corrected by runs of both workloads
    return out;
}

} // namespace rooftop
