// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/calibration.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/roofline/least_squares.h"

#include <algorithm>
#include <cstdio>

namespace rooftop {

namespace {

} // namespace

RuntimeCalibration calibrateRuntime(const DeviceSpec& device, const RuntimeProfile& runtime,
                                    const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs) {
    if (runs.size() < 2)
        throw InputError("calibration needs at least 2 measured runs (different batch sizes or modes), got " +
                         std::to_string(runs.size()));
    const double maxCpuKhz = device.cpuLadderKhz.empty() ? 0.0 : static_cast<double>(device.cpuLadderKhz.back());
    RuntimeProfile unit = runtime;
    unit.dispatchSecondsAtMaxCpu = 1.0;

    const Eigen::Index n = static_cast<Eigen::Index>(runs.size());
    Eigen::MatrixXd design(n, 2);
    Eigen::VectorXd latency(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& [run, prediction] = runs[static_cast<size_t>(i)];
        if (!(run.latencySeconds > 0))
            throw InputError("calibration run " + std::to_string(i + 1) + " (" + run.mode + ") has no positive latency");
        double roofline = 0.0, dispatching = 0.0;
        for (const LayerPrediction& layer : prediction.layers) {
            roofline += layer.seconds - layer.dispatchSeconds;
            if (layer.dispatches) dispatching += 1.0;
        }
        const double cpuKhz = static_cast<double>(prediction.profile.mode.cpuKhz);
        const double perLayer = dispatchSeconds(unit, cpuKhz, maxCpuKhz > 0 ? maxCpuKhz : cpuKhz);
        design(i, 0) = roofline;
        design(i, 1) = dispatching * perLayer;
        latency(i) = run.latencySeconds;
    }
    if (scaledRank(design) < 2)
        throw NumericalError("calibration: the runs do not separate roofline time from dispatch overhead; measure at "
                         "several batch sizes or CPU clocks");

    const Eigen::VectorXd x = nonNegativeLeastSquares(design, latency);
    const Eigen::VectorXd fitted = design * x;
    RuntimeCalibration result;
    result.rooflineScale = x(0);
    result.dispatchSecondsAtMaxCpu = x(1);
    result.rSquared = rSquared(latency, fitted);
    for (Eigen::Index i = 0; i < n; ++i) result.residualSeconds.push_back(latency(i) - fitted(i));

    RuntimeProfile& tuned = result.runtime;
    tuned = runtime;
    if (!tuned.calibrated) tuned.name = runtime.name + "-calibrated";
    tuned.calibrated = true;
    tuned.dispatchSecondsAtMaxCpu = x(1);
    if (x(0) > 0) {
        tuned.computeEfficiency = runtime.computeEfficiency / x(0);
        tuned.bandwidthEfficiency = runtime.bandwidthEfficiency / x(0);
    }
    tuned.basis = "fitted to " + std::to_string(runs.size()) + " measured runs: latency = " + general(x(0), 4) +
                  " x roofline time + " + general(x(1) * 1e6, 4) + " us x dispatching layers x CPU clock ratio, R^2 " +
                  general(result.rSquared, 4) + " (from " + runtime.name + ")";
    if (x(0) > 0 && x(0) < 1)
        tuned.basis += "; efficiencies above 1 mean the runtime moves fewer bytes than the traffic view counts "
                       "(try --traffic fused)";
    return result;
}

PowerComparison comparePowerModel(const std::vector<CalibratedRun>& rows) {
    PowerComparison result;
    std::vector<const CalibratedRun*> measured;
    double ratioSum = 0;
    for (const CalibratedRun& r : rows) {
        if (!(r.run.averageWatts > 0) || !(r.calibrated.averageWatts > 0)) continue;
        measured.push_back(&r);
        ratioSum += r.run.averageWatts / r.calibrated.averageWatts;
    }
    result.runs = static_cast<int>(measured.size());
    if (measured.empty()) return result;
    result.meanRatio = ratioSum / static_cast<double>(measured.size());
    if (measured.size() < 2) return result;

    // Relative residuals (each row over its measured energy), as fitEnergyModel weights its samples.
    const Eigen::Index n = static_cast<Eigen::Index>(measured.size());
    Eigen::MatrixXd design(n, 2);
    Eigen::VectorXd energy(n), weight(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const CalibratedRun& r = *measured[static_cast<size_t>(i)];
        const double constant = r.calibrated.profile.power.constantPower.value * r.calibrated.latencySeconds;
        design(i, 0) = std::max(0.0, r.calibrated.energyJoules - constant);
        design(i, 1) = constant;
        energy(i) = r.run.averageWatts * r.run.latencySeconds;
        weight(i) = 1.0 / energy(i);
    }
    if (scaledRank(design) < 2) return result;
    const Eigen::VectorXd x =
        nonNegativeLeastSquares(weight.asDiagonal() * design, weight.asDiagonal() * energy);
    result.fitted = true;
    result.dynamicScale = x(0);
    result.constantScale = x(1);
    result.rSquared = rSquared(energy, design * x);
    return result;
}

} // namespace rooftop
