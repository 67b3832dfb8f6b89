// SPDX-License-Identifier: GPL-3.0-or-later
// Time roofline, energy arch line and power line of a mode (shared/reference/papers.md section 0; Choi et al.
// 2013). Per FLOP a workload of intensity I takes max(1/peak, 1/(I BW)) seconds and eps_flop + eps_byte/I +
// pi0 x that time joules; every line below is a ratio of these two.
#include "core/roofline/roofline_curves.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

namespace {

// Seconds per FLOP at intensity I > 0: max(1/peak, 1/(I BW)).
double secondsPerFlop(double peak, double bandwidth, double intensity) {
    return std::max(1.0 / peak, 1.0 / (intensity * bandwidth));
}

} // namespace

double attainableFlops(double intensity, double peak, double bandwidth) {
    if (!(intensity > 0)) return 0.0;
    return std::min(peak, intensity * bandwidth);
}

double attainableFlops(const Ceilings& ceilings, ComputeClass computeClass, double intensity) {
    return attainableFlops(intensity, ceilings.peak(computeClass).value, ceilings.bandwidth.value);
}

double timeBalance(const Ceilings& ceilings, ComputeClass computeClass) {
    return ceilings.balance(computeClass);
}

double classEnergyPerFlop(const PowerModel& power, ComputeClass computeClass) {
    if (!isTensorClass(computeClass)) return power.energyPerFlop.value;
    return power.energyPerFlop.value * power.tensorFlopEnergyRatio * tensorOpEnergyScale(computeClass);
}

double energyBalance(const PowerModel& power, ComputeClass computeClass) {
    const double epsFlop = classEnergyPerFlop(power, computeClass);
    return epsFlop > 0 ? power.energyPerByte.value / epsFlop : 0.0;
}

double energyEfficiency(const ModeProfile& profile, ComputeClass computeClass, double intensity) {
    if (!(intensity > 0)) return 0.0;
    const double peak = profile.ceilings.peak(computeClass).value;
    const double bandwidth = profile.ceilings.bandwidth.value;
    const PowerModel& p = profile.power;
    const double joulesPerFlop = classEnergyPerFlop(p, computeClass) + p.energyPerByte.value / intensity +
                                 p.constantPower.value * secondsPerFlop(peak, bandwidth, intensity);
    return joulesPerFlop > 0 ? 1.0 / joulesPerFlop : 0.0;
}

double averagePower(const ModeProfile& profile, ComputeClass computeClass, double intensity) {
    const double peak = profile.ceilings.peak(computeClass).value;
    const double bandwidth = profile.ceilings.bandwidth.value;
    const PowerModel& p = profile.power;
    if (!(intensity > 0)) return p.constantPower.value + p.energyPerByte.value * bandwidth;
    return p.constantPower.value + (classEnergyPerFlop(p, computeClass) + p.energyPerByte.value / intensity) /
                                       secondsPerFlop(peak, bandwidth, intensity);
}

std::vector<double> logSpacedIntensities(double low, double high, int count) {
    std::vector<double> result;
    if (!(low > 0) || !(high >= low) || count < 1) return result;
    if (count == 1) return {low};
    const double a = std::log(low), b = std::log(high);
    result.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i)
        result.push_back(i == count - 1 ? high : std::exp(a + (b - a) * i / (count - 1)));
    result.front() = low;
    return result;
}

std::vector<CurvePoint> sampleCurve(const ModeProfile& profile, ComputeClass computeClass,
                                    RooflineCurve curve, double low, double high, int count) {
    std::vector<double> xs = logSpacedIntensities(low, high, count);
    if (curve == RooflineCurve::Attainable) {
        const double knee = timeBalance(profile.ceilings, computeClass);
        const bool sampled =
            std::any_of(xs.begin(), xs.end(), [&](double x) { return std::fabs(x - knee) <= 1e-9 * knee; });
        if (knee > low && knee < high && !sampled)
            xs.insert(std::upper_bound(xs.begin(), xs.end(), knee), knee);
    }
    std::vector<CurvePoint> points;
    points.reserve(xs.size());
    for (double x : xs) {
        double value = 0.0;
        switch (curve) {
        case RooflineCurve::Attainable:
            value = attainableFlops(profile.ceilings, computeClass, x);
            break;
        case RooflineCurve::EnergyEfficiency:
            value = energyEfficiency(profile, computeClass, x);
            break;
        case RooflineCurve::AveragePower:
            value = averagePower(profile, computeClass, x);
            break;
        }
        points.push_back({x, value});
    }
    return points;
}

LayerPoint layerPoint(const LayerCount& layer, const LayerPrediction& prediction) {
    LayerPoint point;
    const double w = static_cast<double>(layer.flops);
    point.intensity = layer.intensity();
    point.flopsPerSecond = prediction.seconds > 0 ? w / prediction.seconds : 0.0;
    point.flopsPerJoule = prediction.joules > 0 ? w / prediction.joules : 0.0;
    point.watts = prediction.seconds > 0 ? prediction.joules / prediction.seconds : 0.0;
    return point;
}

} // namespace rooftop
