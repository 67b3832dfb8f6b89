// SPDX-License-Identifier: GPL-3.0-or-later
// Mode profiles from a measured profile: how each requested mode gets its ceilings and power model.
// Resolving the profile of a requested mode (resolveModeProfiles):
// - measured: a mode of the profile at the same operating point. Its measured ceilings (provenance measured;
//   times the runtime's efficiencies, which makes them estimates, or fitted for a calibrated runtime, when
//   those are not 1) and its fitted power model (or a fit of its samples). The dispatch overhead is the
//   larger of the measured empty-kernel launch and the runtime's estimate: a framework never launches faster
//   than the hardware, and the launch test does not see the framework's own cost. In other modes the launch
//   is predicted from the measured ones with the runtime's CPU-clock law (1 / CPU clock).
// - predicted: any other mode when the profile has measured modes. Each ceiling is the derived one times the
//   mean measured / derived ratio of that quantity over the measured modes. The power model's coefficients
//   are regressed on the estimate's clock features (pi0 on online cores x CPU clock ratio, eps_flop on the
//   GPU's and eps_byte on the EMC's DVFS scale, each with an intercept, non-negative) when 3 or more
//   measured modes have a power model and those features vary; otherwise each is the estimate times the mean
//   measured / estimate ratio.
// - derived: no profile, or a quantity no measured mode has: datasheet ceilings and the estimated power
// model.
#include "core/roofline/mode_profiles.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/roofline/energy_fit.h"
#include "core/roofline/least_squares.h"
#include "core/roofline/prediction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace rooftop {

namespace {

// ---- resolving
// ----------------------------------------------------------------------------------------------

// Mean measured / derived ratio of one quantity over the measured modes that have it.
struct Ratio {
    double sum = 0.0;
    int count = 0;
    void add(double measured, double derived) {
        if (measured > 0 && derived > 0) {
            sum += measured / derived;
            ++count;
        }
    }
    bool known() const { return count > 0; }
    double mean() const { return count > 0 ? sum / count : 1.0; }
};

constexpr int dispatchQuantity = computeClassCount + 1;
constexpr int bandwidthQuantity = computeClassCount;
constexpr int quantityCount = computeClassCount + 2;

struct MeasuredPower {
    PowerFeatures features;
    PowerModel estimate;
    PowerModel fitted;
};

// A measured mode's power model: the stored fit, else a fit of its samples; nullopt when neither.
std::optional<PowerModel> fittedPower(const MeasuredMode& m, const DeviceSpec& device) {
    if (m.power) return m.power;
    const std::optional<EnergyFit> fit = tryFitEnergyModel(m.samples);
    if (!fit) return std::nullopt;
    return powerModelFromFit(*fit, device.energy.tensorFlopEnergyRatio,
                             "fitted to " + std::to_string(m.samples.size()) + " measured kernels, R^2 " +
                                 general(fit->rSquared, 4));
}

// One power coefficient for a new mode from the measured ones: least squares on [1, feature] (non-negative)
// with 3+ modes whose feature varies, else the estimate times the mean measured / estimate ratio.
SourcedValue predictCoefficient(const std::vector<double>& measured, const std::vector<double>& features,
                                const std::vector<double>& estimates, double feature, double estimate,
                                const char* featureName) {
    SourcedValue v;
    v.provenance = Provenance::Predicted;
    const size_t n = measured.size();
    if (n >= 3) {
        Eigen::MatrixXd design(static_cast<Eigen::Index>(n), 2);
        Eigen::VectorXd target(static_cast<Eigen::Index>(n));
        for (size_t i = 0; i < n; ++i) {
            design(static_cast<Eigen::Index>(i), 0) = 1.0;
            design(static_cast<Eigen::Index>(i), 1) = features[i];
            target(static_cast<Eigen::Index>(i)) = measured[i];
        }
        if (scaledRank(design) == 2) {
            const Eigen::VectorXd x = nonNegativeLeastSquares(design, target);
            v.value = x(0) + x(1) * feature;
            v.basis = "predicted from " + std::to_string(n) + " measured modes: " + general(x(0), 4) + " + " +
                      general(x(1), 4) + " x " + featureName + " (" + general(feature, 4) +
                      "), least squares";
            return v;
        }
    }
    Ratio ratio;
    double plainMean = 0.0;
    for (size_t i = 0; i < n; ++i) {
        ratio.add(measured[i], estimates[i]);
        plainMean += measured[i] / static_cast<double>(n);
    }
    if (ratio.known() && estimate > 0) {
        v.value = estimate * ratio.mean();
        v.basis = "predicted: estimate " + general(estimate, 4) + " x " + general(ratio.mean(), 4) +
                  " (mean measured / estimate of " + std::to_string(ratio.count) + " measured mode" +
                  (ratio.count == 1 ? ")" : "s)");
    } else {
        v.value = plainMean;
        v.basis = "predicted: mean of " + std::to_string(n) + " measured mode" + (n == 1 ? "" : "s");
    }
    return v;
}

PowerModel predictPower(const std::vector<MeasuredPower>& measured, const DeviceSpec& device,
                        const PowerMode& mode) {
    const PowerFeatures f = powerFeatures(device, mode);
    const PowerModel estimate = estimatePowerModel(device, mode);
    std::vector<double> pi0, epsFlop, epsByte, cpu, gpu, emc, pi0Est, flopEst, byteEst;
    double tensorRatio = 0.0;
    for (const MeasuredPower& m : measured) {
        pi0.push_back(m.fitted.constantPower.value);
        epsFlop.push_back(m.fitted.energyPerFlop.value);
        epsByte.push_back(m.fitted.energyPerByte.value);
        cpu.push_back(m.features.cpuLoad);
        gpu.push_back(m.features.gpuScale);
        emc.push_back(m.features.emcScale);
        pi0Est.push_back(m.estimate.constantPower.value);
        flopEst.push_back(m.estimate.energyPerFlop.value);
        byteEst.push_back(m.estimate.energyPerByte.value);
        tensorRatio += m.fitted.tensorFlopEnergyRatio / static_cast<double>(measured.size());
    }
    PowerModel p;
    p.constantPower = predictCoefficient(pi0, cpu, pi0Est, f.cpuLoad, estimate.constantPower.value,
                                         "online cores x CPU clock ratio");
    p.energyPerFlop =
        predictCoefficient(epsFlop, gpu, flopEst, f.gpuScale, estimate.energyPerFlop.value, "GPU DVFS scale");
    p.energyPerByte =
        predictCoefficient(epsByte, emc, byteEst, f.emcScale, estimate.energyPerByte.value, "EMC DVFS scale");
    // A regression line can cross zero outside the measured range; fall back to the ratio there.
    if (p.constantPower.value < 0 || p.energyPerFlop.value < 0 || p.energyPerByte.value < 0) {
        auto ratioOnly = [&](const std::vector<double>& values, const std::vector<double>& estimates,
                             double est) {
            return predictCoefficient(values, std::vector<double>(values.size(), 0.0), estimates, 0.0, est,
                                      "");
        };
        if (p.constantPower.value < 0) p.constantPower = ratioOnly(pi0, pi0Est, estimate.constantPower.value);
        if (p.energyPerFlop.value < 0)
            p.energyPerFlop = ratioOnly(epsFlop, flopEst, estimate.energyPerFlop.value);
        if (p.energyPerByte.value < 0)
            p.energyPerByte = ratioOnly(epsByte, byteEst, estimate.energyPerByte.value);
    }
    p.tensorFlopEnergyRatio = tensorRatio > 0 ? tensorRatio : device.energy.tensorFlopEnergyRatio;
    p.rSquared = -1.0;
    return p;
}

Provenance efficiencyProvenance(double efficiency, const RuntimeProfile& runtime, Provenance base) {
    if (efficiency == 1.0) return base;
    return weakerProvenance(base, runtime.calibrated && runtime.efficiencyFitted ? Provenance::Fitted
                                                                                 : Provenance::Estimate);
}

} // namespace

std::vector<ModeProfile> resolveModeProfiles(const DeviceSpec& device, const std::vector<PowerMode>& modes,
                                             const RuntimeProfile& runtime, const MeasuredProfile* profile) {
    std::vector<ModeProfile> result;
    result.reserve(modes.size());
    if (!profile || profile->modes.empty()) {
        for (const PowerMode& mode : modes)
            result.push_back(deriveModeProfile(device, mode, runtime));
        return result;
    }
    if (!profile->deviceId.empty() && !device.id.empty() && profile->deviceId != device.id)
        throw InputError("the measured profile is for device '" + profile->deviceId + "', not '" + device.id +
                         "'");

    // Hardware ratios: measured / derived with the runtime's efficiencies left out (they multiply
    // afterwards); the launch time against 1 / CPU clock.
    RuntimeProfile hardware = runtime;
    hardware.computeEfficiency = 1.0;
    hardware.bandwidthEfficiency = 1.0;
    // The launch follows the runtime's CPU-clock law (1 / CPU clock) whatever the runtime's own cost.
    RuntimeProfile unitDispatch = runtime;
    unitDispatch.dispatchSecondsAtMaxCpu = 1.0;
    const double maxCpuKhz =
        device.cpuLadderKhz.empty() ? 0.0 : static_cast<double>(device.cpuLadderKhz.back());
    auto launchScale = [&](const PowerMode& m) {
        return dispatchSeconds(unitDispatch, static_cast<double>(m.cpuKhz), maxCpuKhz);
    };
    Ratio ratios[quantityCount];
    std::vector<MeasuredPower> powers;
    for (const MeasuredMode& m : profile->modes) {
        const Ceilings derived = deriveCeilings(device, m.mode, hardware);
        for (int c = 0; c < computeClassCount; ++c)
            ratios[c].add(m.peakFlops[static_cast<size_t>(c)],
                          derived.peakFlops[static_cast<size_t>(c)].value);
        ratios[bandwidthQuantity].add(m.bandwidth, derived.bandwidth.value);
        ratios[dispatchQuantity].add(m.dispatchSeconds, launchScale(m.mode));
        if (auto fitted = fittedPower(m, device))
            powers.push_back({powerFeatures(device, m.mode), estimatePowerModel(device, m.mode), *fitted});
    }
    const std::string measuredCount =
        std::to_string(profile->modes.size()) + " measured mode" + (profile->modes.size() == 1 ? "" : "s");

    for (const PowerMode& mode : modes) {
        ModeProfile out;
        out.mode = mode;
        const Ceilings derived = deriveCeilings(device, mode, hardware);
        const MeasuredMode* match = findMeasuredMode(*profile, mode);
        out.fromBench = match                    ? BenchSource::Measured
                        : profile->modes.empty() ? BenchSource::None
                                                 : BenchSource::Predicted;

        // One ceiling: measured, else predicted from the ratio, else derived; then the runtime's efficiency.
        auto resolve = [&](double measured, const SourcedValue& fromDatasheet, const Ratio& ratio,
                           double efficiency, const char* what) {
            SourcedValue v;
            if (measured > 0) {
                v = {measured, Provenance::Measured, std::string("measured by rooftop bench")};
            } else if (ratio.known()) {
                v.value = fromDatasheet.value * ratio.mean();
                v.provenance = Provenance::Predicted;
                v.basis = "predicted: " + general(fromDatasheet.value, 4) + " derived x " +
                          general(ratio.mean(), 4) + " (mean measured / derived over " +
                          std::to_string(ratio.count) + " of " + measuredCount + ")";
            } else {
                v = fromDatasheet;
            }
            if (efficiency != 1.0) {
                v.value *= efficiency;
                v.provenance = efficiencyProvenance(efficiency, runtime, v.provenance);
                v.basis += "; x " + general(efficiency, 4) + " " + what + " efficiency of " + runtime.name;
            }
            return v;
        };
        for (int c = 0; c < computeClassCount; ++c)
            out.ceilings.peakFlops[static_cast<size_t>(c)] = resolve(
                match ? match->peakFlops[static_cast<size_t>(c)] : 0.0,
                derived.peakFlops[static_cast<size_t>(c)], ratios[c], runtime.computeEfficiency, "compute");
        out.ceilings.bandwidth = resolve(match ? match->bandwidth : 0.0, derived.bandwidth,
                                         ratios[bandwidthQuantity], runtime.bandwidthEfficiency, "bandwidth");
        out.ceilings.classEfficiency = classEfficiencies(runtime);

        // Dispatch: the larger of the (measured or predicted) launch floor and the runtime's estimate.
        const SourcedValue& estimate = derived.dispatchOverhead;
        SourcedValue launch;
        if (match && match->dispatchSeconds > 0) {
            launch = {match->dispatchSeconds, Provenance::Measured, "measured empty-kernel launch"};
        } else if (ratios[dispatchQuantity].known()) {
            launch = {launchScale(mode) * ratios[dispatchQuantity].mean(), Provenance::Predicted,
                      "predicted empty-kernel launch: " + general(ratios[dispatchQuantity].mean() * 1e6, 4) +
                          " µs at the top CPU clock (mean over " + measuredCount + ") x 1 / CPU clock ratio"};
        }
        if (launch.value > estimate.value) {
            out.ceilings.dispatchOverhead = launch;
            out.ceilings.dispatchOverhead.basis +=
                " (above the " + runtime.name + " estimate " + general(estimate.value * 1e6, 4) + " µs)";
        } else {
            out.ceilings.dispatchOverhead = estimate;
            if (launch.value > 0)
                out.ceilings.dispatchOverhead.basis +=
                    " (above the " + launch.basis + ", " + general(launch.value * 1e6, 4) + " µs)";
        }

        out.ceilings.inferenceOverhead = derived.inferenceOverhead;
        out.ceilings.kernelSms = derived.kernelSms;
        out.ceilings.kernelTailScale = derived.kernelTailScale;
        out.ceilings.minimumKernel = derived.minimumKernel;

        std::optional<PowerModel> power = match ? fittedPower(*match, device) : std::nullopt;
        if (power) {
            out.power = *power;
        } else if (!powers.empty()) {
            out.power = predictPower(powers, device, mode);
        } else {
            out.power = estimatePowerModel(device, mode);
            applyRuntimePower(out.power, runtime);
        }
        result.push_back(std::move(out));
    }
    return result;
}

} // namespace rooftop
