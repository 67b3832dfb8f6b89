// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/calibration.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"

#include <algorithm>

namespace rooftop {

namespace {

enum LatencyColumn { Roofline = 0, Dispatch = 1, Inference = 2 };

std::string us(double seconds) {
    return general(seconds * 1e6, 4) + " us";
}

bool sameLayerCountEverywhere(const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs) {
    auto count = [](const ModelPrediction& p) {
        return std::count_if(p.layers.begin(), p.layers.end(),
                             [](const LayerPrediction& l) { return l.dispatches; });
    };
    return std::all_of(runs.begin(), runs.end(),
                       [&](const auto& r) { return count(r.second) == count(runs.front().second); });
}

} // namespace

RuntimeCalibration calibrateRuntime(const DeviceSpec& device, const RuntimeProfile& runtime,
                                    const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs) {
    if (runs.empty()) throw InputError("calibration needs at least 1 measured run");
    const double maxCpuKhz =
        device.cpuLadderKhz.empty() ? 0.0 : static_cast<double>(device.cpuLadderKhz.back());
    RuntimeProfile unit = runtime;
    unit.dispatchSecondsAtMaxCpu = 1.0;

    const Eigen::Index n = static_cast<Eigen::Index>(runs.size());
    Eigen::MatrixXd design(n, 3);
    Eigen::VectorXd latency(n), weight(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& [run, prediction] = runs[static_cast<size_t>(i)];
        if (!(run.latencySeconds > 0))
            throw InputError("calibration run " + std::to_string(i + 1) + " (" + run.mode +
                             ") has no positive latency");
        double roofline = 0.0, dispatching = 0.0;
        for (const LayerPrediction& layer : prediction.layers) {
            roofline += layer.seconds - layer.dispatchSeconds;
            if (layer.dispatches) dispatching += 1.0;
        }
        const double cpuKhz = static_cast<double>(prediction.profile.mode.cpuKhz);
        const double cpuRatio = dispatchSeconds(unit, cpuKhz, maxCpuKhz > 0 ? maxCpuKhz : cpuKhz);
        design(i, Roofline) = roofline;
        design(i, Dispatch) = dispatching * cpuRatio;
        design(i, Inference) = cpuRatio;
        latency(i) = run.latencySeconds;
        weight(i) = 1.0 / run.latencySeconds;
    }
    Eigen::VectorXd prior(3);
    prior << 1.0, runtime.dispatchSecondsAtMaxCpu, runtime.inferenceSecondsAtMaxCpu;
    const std::vector<TermGroups> candidates = {{{Roofline}, {Dispatch}, {Inference}},
                                                {{Roofline}, {Inference}},
                                                {{Roofline}, {Dispatch}},
                                                {{Roofline}}};
    const std::optional<StagedFit> staged = fitFirstIdentifiable(design, latency, weight, prior, candidates);
    if (!staged)
        throw NumericalError(
            "calibration: the runs have no roofline time to scale (a model without FLOPs or bytes?)");
    const Eigen::VectorXd& x = staged->coefficients;
    if (!(x(Roofline) > 0))
        throw NumericalError(
            "calibration: the fit puts all of the latency in fixed costs (roofline scale 0); the "
            "runs do not scale with the model's work (measure other batch sizes)");
    if (runtime.computeEfficiency / x(Roofline) > 1e3 || runtime.bandwidthEfficiency / x(Roofline) > 1e3 ||
        runtime.computeEfficiency / x(Roofline) < 1e-6 || runtime.bandwidthEfficiency / x(Roofline) < 1e-6 ||
        x(Inference) > 10.0 || x(Dispatch) > 1.0)
        throw NumericalError(
            "calibration: the fitted coefficients are outside what a runtime can hold (roofline "
            "scale " +
            general(x(Roofline), 4) + ", fixed cost " + us(x(Inference)) +
            "); the runs are inconsistent with the model");

    RuntimeCalibration result;
    result.rooflineScale = x(Roofline);
    result.dispatchSecondsAtMaxCpu = x(Dispatch);
    result.inferenceSecondsAtMaxCpu = x(Inference);
    result.dispatchFitted = staged->fitted[Dispatch];
    result.inferenceFitted = staged->fitted[Inference];
    result.rSquared = staged->rSquared;
    for (Eigen::Index i = 0; i < n; ++i)
        result.residualSeconds.push_back(staged->residuals(i));
    result.quality = fitQualityText(*staged, "latency");
    auto keptValue = [&](bool wasFitted, double seconds) {
        return runtime.name + "'s " + us(seconds) +
               (runtime.calibrated && wasFitted ? " (its earlier fit)" : " (its estimate)");
    };
    if (!result.dispatchFitted)
        result.keptEstimates.push_back(
            "b, dispatch per layer, kept at " +
            keptValue(runtime.dispatchFitted, runtime.dispatchSecondsAtMaxCpu) + ": " +
            (sameLayerCountEverywhere(runs) ? "every run has the same number of dispatching layers (one "
                                              "model), so a per-layer cost cannot be "
                                              "told apart from a per-inference one"
                                            : "the runs do not separate it from the other terms"));
    if (!result.inferenceFitted)
        result.keptEstimates.push_back(
            "c, fixed cost per inference, kept at " +
            keptValue(runtime.inferenceFitted, runtime.inferenceSecondsAtMaxCpu) +
            ": the runs do not separate it from the roofline time (measure another "
            "batch size or CPU clock)");

    RuntimeProfile& tuned = result.runtime;
    tuned = runtime;
    if (!tuned.calibrated) tuned.name = runtime.name + "-calibrated";
    tuned.calibrated = true;
    tuned.dispatchSecondsAtMaxCpu = x(Dispatch);
    tuned.inferenceSecondsAtMaxCpu = x(Inference);
    tuned.inferenceFitted = result.inferenceFitted || (runtime.calibrated && runtime.inferenceFitted);
    tuned.dispatchFitted = result.dispatchFitted || (runtime.calibrated && runtime.dispatchFitted);
    if (x(Roofline) > 0) {
        tuned.computeEfficiency = runtime.computeEfficiency / x(Roofline);
        tuned.bandwidthEfficiency = runtime.bandwidthEfficiency / x(Roofline);
        tuned.efficiencyFitted = true;
    }
    tuned.basis = "fitted to " + std::to_string(runs.size()) +
                  " measured runs: latency = " + general(x(Roofline), 4) + " x roofline time + (" +
                  us(x(Dispatch)) + (result.dispatchFitted ? "" : " kept") + " x dispatching layers + " +
                  us(x(Inference)) + (result.inferenceFitted ? "" : " kept") + ") x CPU clock ratio; " +
                  result.quality + " (from " + runtime.name + ")";
    if (x(Roofline) > 0 && x(Roofline) < 1)
        tuned.basis +=
            "; efficiencies above 1 mean the runtime moves fewer bytes than the traffic view counts "
            "(try --traffic fused)";
    return result;
}

PowerCalibration calibratePower(const std::vector<PowerRun>& runs, const std::string& runtimeName) {
    PowerCalibration result;
    result.runs = static_cast<int>(runs.size());
    if (runs.empty()) {
        result.quality = "power: no run measured power, so the estimated power model is kept";
        return result;
    }
    enum { Constant = 0, Flop = 1, Byte = 2 };
    const Eigen::Index n = static_cast<Eigen::Index>(runs.size());
    Eigen::MatrixXd design(n, 3);
    Eigen::VectorXd energy(n), weight(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const PowerRun& r = runs[static_cast<size_t>(i)];
        design(i, Constant) = r.constantJoules;
        design(i, Flop) = r.flopJoules;
        design(i, Byte) = r.byteJoules;
        energy(i) = r.measuredJoules;
        weight(i) = r.measuredJoules > 0 ? 1.0 / r.measuredJoules : 0.0;
    }
    const std::vector<TermGroups> candidates = {
        {{Constant}, {Flop}, {Byte}}, {{Constant}, {Flop, Byte}}, {{Constant, Flop, Byte}}};
    const std::optional<StagedFit> staged =
        fitFirstIdentifiable(design, energy, weight, Eigen::VectorXd::Ones(3), candidates);
    if (!staged) {
        result.quality = "power: the runs identify no multiplier, so the estimated power model is kept";
        return result;
    }
    const Eigen::VectorXd& x = staged->coefficients;
    RuntimePowerFit fit;
    fit.constantScale = x(Constant);
    fit.flopScale = x(Flop);
    fit.byteScale = x(Byte);
    fit.constantFitted = fit.flopFitted = fit.byteFitted = true; // every candidate covers all three columns
    if (staged->degreesOfFreedom() > 0 || !staged->exact) fit.rSquared = staged->rSquared;
    if (x.maxCoeff() > 1e3) {
        result.quality =
            "power: the fitted multipliers (up to " + general(x.maxCoeff(), 4) +
            ") are beyond what a runtime can hold; the runs are inconsistent with the model, so the "
            "estimated power model is kept";
        return result;
    }
    result.quality = fitQualityText(*staged, "power");
    const std::string perRun = " multiplier" + std::string(staged->fittedTerms == 1 ? "" : "s") +
                               " fitted to " + std::to_string(runs.size()) + " measured energies";
    switch (staged->fittedTerms) {
    case 3:
        fit.basis = "pi0 x " + general(x(Constant), 4) + ", eps_flop x " + general(x(Flop), 4) +
                    ", eps_byte x " + general(x(Byte), 4) + ";" + perRun;
        break;
    case 2:
        fit.basis = "pi0 x " + general(x(Constant), 4) + ", eps_flop and eps_byte x " + general(x(Flop), 4) +
                    ";" + perRun;
        result.keptEstimates.push_back(
            "eps_flop and eps_byte share one dynamic multiplier: the runs do not tell "
            "FLOP energy from byte energy (measure other batch sizes, precisions or "
            "modes)");
        break;
    default:
        fit.basis = "every coefficient x " + general(x(Constant), 4) + ";" + perRun;
        result.keptEstimates.push_back(
            "pi0, eps_flop and eps_byte share one multiplier: the runs do not tell "
            "constant from dynamic power (measure another batch size or mode)");
        break;
    }
    fit.basis += " (" + result.quality + ", " + runtimeName + ")";
    result.fit = fit;
    return result;
}

} // namespace rooftop
