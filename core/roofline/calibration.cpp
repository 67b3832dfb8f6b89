// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/calibration.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

namespace {
constexpr double maxPowerMultiplier = 20.0;
} // namespace

namespace {

// Design columns: the roofline time of each operator class, then the dispatch and the fixed cost.
constexpr int Dispatch = operatorClassCount, Inference = operatorClassCount + 1, columnCount = Inference + 1;

std::string us(double seconds) {
    return general(seconds * 1e6, 4) + " µs";
}

bool sameLayerCountEverywhere(const std::vector<std::pair<CalibrationRun, ModelPrediction>>& runs) {
    auto count = [](const ModelPrediction& p) {
        return std::count_if(p.layers.begin(), p.layers.end(),
                             [](const LayerPrediction& l) { return l.dispatches; });
    };
    return std::all_of(runs.begin(), runs.end(),
                       [&](const auto& r) { return count(r.second) == count(runs.front().second); });
}

std::string classList(const std::vector<int>& classes) {
    std::string text;
    for (int k : classes)
        text += (text.empty() ? "" : ", ") + std::string(operatorClassName(static_cast<OperatorClass>(k)));
    return text;
}

// The candidates, most terms first: the exercised classes apart, then sharing one scale; each with the
// dispatch and fixed cost, the fixed cost alone, the dispatch alone, neither.
// The classes with a sliver of the time ride with the dominant class's scale (their estimate relative to it).
std::vector<TermGroups> latencyCandidates(const std::vector<int>& exercised, int dominant,
                                          const std::vector<int>& slivers, bool apart) {
    TermGroups classes;
    if (apart) {
        for (int k : exercised)
            classes.push_back({k});
    } else {
        classes.push_back(exercised);
    }
    for (std::vector<int>& group : classes)
        if (std::find(group.begin(), group.end(), dominant) != group.end())
            group.insert(group.end(), slivers.begin(), slivers.end());
    auto with = [&](const std::vector<int>& extra) {
        TermGroups groups = classes;
        for (int column : extra)
            groups.push_back({column});
        return groups;
    };
    return {with({Dispatch, Inference}), with({Inference}), with({Dispatch}), with({})};
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
    Eigen::MatrixXd design = Eigen::MatrixXd::Zero(n, columnCount);
    Eigen::VectorXd latency(n), weight(n);
    std::array<double, operatorClassCount> largestShare{}, classSeconds{};
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& [run, prediction] = runs[static_cast<size_t>(i)];
        if (!(run.latencySeconds > 0))
            throw InputError("calibration run " + std::to_string(i + 1) + " (" + run.mode +
                             ") has no positive latency");
        double roofline = 0.0, dispatching = 0.0;
        for (const LayerPrediction& layer : prediction.layers) {
            design(i, static_cast<int>(layer.operatorClass)) += layer.seconds - layer.dispatchSeconds;
            roofline += layer.seconds - layer.dispatchSeconds;
            if (layer.dispatches) dispatching += 1.0;
        }
        for (int k = 0; k < operatorClassCount; ++k) {
            classSeconds[static_cast<size_t>(k)] += design(i, k);
            if (roofline > 0)
                largestShare[static_cast<size_t>(k)] =
                    std::max(largestShare[static_cast<size_t>(k)], design(i, k) / roofline);
        }
        const double cpuKhz = static_cast<double>(prediction.profile.mode.cpuKhz);
        const double cpuRatio = dispatchSeconds(unit, cpuKhz, maxCpuKhz > 0 ? maxCpuKhz : cpuKhz);
        design(i, Dispatch) = dispatching * cpuRatio;
        design(i, Inference) = cpuRatio;
        latency(i) = run.latencySeconds;
        weight(i) = 1.0 / run.latencySeconds;
    }
    // The classes the runs exercise (5 % of some run's roofline time) are fitted; the others keep the prior.
    std::vector<int> exercised, slivers, absent, earlier;
    for (int k = 0; k < operatorClassCount; ++k) {
        const size_t K = static_cast<size_t>(k);
        if (largestShare[K] >= LayerPredictor::materialShare)
            exercised.push_back(k);
        else if (classSeconds[K] > 0)
            slivers.push_back(k);
        else
            absent.push_back(k);
        if (largestShare[K] < LayerPredictor::materialShare && runtime.classFitted[K]) earlier.push_back(k);
    }
    if (exercised.empty())
        throw NumericalError(
            "calibration: the runs have no roofline time to scale (a model without FLOPs or bytes?)");
    const int dominant = *std::max_element(exercised.begin(), exercised.end(), [&](int a, int b) {
        return classSeconds[static_cast<size_t>(a)] < classSeconds[static_cast<size_t>(b)];
    });
    Eigen::VectorXd prior = Eigen::VectorXd::Ones(columnCount);
    prior(Dispatch) = runtime.dispatchSecondsAtMaxCpu;
    prior(Inference) = runtime.inferenceSecondsAtMaxCpu;
    std::optional<StagedFit> staged = fitFirstIdentifiable(
        design, latency, weight, prior, latencyCandidates(exercised, dominant, slivers, false));
    // Classes apart only from runs of several models (one model's runs, however many modes, move its classes
    // together), each with a positive scale, and fitting as many of b and c as the shared scale does.
    if (exercised.size() > 1 && !sameLayerCountEverywhere(runs)) {
        std::optional<StagedFit> apart = fitFirstIdentifiable(
            design, latency, weight, prior, latencyCandidates(exercised, dominant, slivers, true));
        auto fixedTerms = [](const StagedFit& f) {
            return int(f.fitted[Dispatch]) + int(f.fitted[Inference]);
        };
        if (apart &&
            std::all_of(exercised.begin(), exercised.end(),
                        [&](int k) { return apart->coefficients(k) > 0; }) &&
            (!staged || fixedTerms(*apart) >= fixedTerms(*staged)))
            staged = std::move(apart);
    }
    if (!staged)
        throw NumericalError(
            "calibration: the runs have no roofline time to scale (a model without FLOPs or bytes?)");
    // Runs whose time the fixed costs alone explain as well (a small decoder's decode steps in the stock
    // modes): fit fewer of them, keeping the others' estimates, before giving the roofline no time at all.
    bool fixedCostsTraded = false;
    if (!(staged->coefficients(dominant) > 0)) {
        const std::vector<TermGroups> fewer = latencyCandidates(exercised, dominant, slivers, false);
        for (size_t c = 1; c < fewer.size(); ++c)
            if (std::optional<StagedFit> f = fitFirstIdentifiable(design, latency, weight, prior, {fewer[c]});
                f && f->coefficients(dominant) > 0) {
                staged = std::move(f);
                fixedCostsTraded = true;
                break;
            }
    }
    const Eigen::VectorXd& x = staged->coefficients;
    const double scale = x(dominant);
    if (!(scale > 0))
        throw NumericalError(
            "calibration: the fit puts all of the latency in fixed costs (roofline scale 0); the "
            "runs do not scale with the model's work (measure other batch sizes)");
    if (runtime.computeEfficiency / scale > 1e3 || runtime.bandwidthEfficiency / scale > 1e3 ||
        runtime.computeEfficiency / scale < 1e-6 || runtime.bandwidthEfficiency / scale < 1e-6 ||
        x(Inference) > 10.0 || x(Dispatch) > 1.0)
        throw NumericalError(
            "calibration: the fitted coefficients are outside what a runtime can hold (roofline "
            "scale " +
            general(scale, 4) + ", fixed cost " + us(x(Inference)) +
            "); the runs are inconsistent with the model");

    RuntimeCalibration result;
    result.rooflineScale = scale;
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
    if (fixedCostsTraded)
        result.keptEstimates.push_back("a first fit with both fixed costs gave them all of the runs' time "
                                       "(a roofline scale of 0): the runs do not tell the model's work from "
                                       "its fixed costs, so the fit keeps the estimates named above and "
                                       "fits the roofline scale alone (runs at other batch sizes or prompts "
                                       "separate them)");
    const bool apart = exercised.size() > 1 && staged->fitted[static_cast<size_t>(exercised.front())] &&
                       std::any_of(exercised.begin(), exercised.end(), [&](int k) { return x(k) != scale; });
    if (!slivers.empty() || !absent.empty())
        result.classesAtEstimate =
            ("operator classes at their estimate relative to " +
             std::string(operatorClassName(static_cast<OperatorClass>(dominant))) + ": " +
             (slivers.empty() ? std::string() : classList(slivers) + " (under 5 % of the runs' time)") +
             (!slivers.empty() && !absent.empty() ? "; " : "") +
             (absent.empty() ? std::string() : classList(absent) + " (not in the runs)") +
             "; runs of models that exercise them fit them" +
             (earlier.empty() ? std::string()
                              : " (" + classList(earlier) + " keep their earlier fit relative to it)"));

    RuntimeProfile& tuned = result.runtime;
    tuned = runtime;
    if (!tuned.calibrated) tuned.name = runtime.name + "-calibrated";
    tuned.calibrated = true;
    tuned.dispatchSecondsAtMaxCpu = x(Dispatch);
    tuned.inferenceSecondsAtMaxCpu = x(Inference);
    tuned.inferenceFitted = result.inferenceFitted || (runtime.calibrated && runtime.inferenceFitted);
    tuned.dispatchFitted = result.dispatchFitted || (runtime.calibrated && runtime.dispatchFitted);
    tuned.computeEfficiency = runtime.computeEfficiency / scale;
    tuned.bandwidthEfficiency = runtime.bandwidthEfficiency / scale;
    tuned.efficiencyFitted = true;
    tuned.kernelFloorScale = std::clamp(runtime.kernelFloorScale * scale, 1e-3, 1e3);
    const auto [lowest, highest] = std::minmax_element(
        runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.first.batch < b.first.batch; });
    tuned.calibratedBatchLow = std::max<int64_t>(1, lowest->first.batch);
    tuned.calibratedBatchHigh = std::max<int64_t>(1, highest->first.batch);
    std::string classText;
    for (int k : exercised) {
        const size_t K = static_cast<size_t>(k);
        tuned.classEfficiency[K] = std::clamp(runtime.classEfficiency[K] * scale / x(k), 1e-4, 1e3);
        tuned.classFitted[K] = true;
        classText += (classText.empty() ? "" : ", ") +
                     std::string(operatorClassName(static_cast<OperatorClass>(k))) +
                     (apart ? " x " + general(x(k), 4) : std::string());
    }
    // The spread of its latencies where it was fitted: the RMS log residual over the runs the fit could
    // spare, never below 5 %; an exact fit (no spare run) says nothing of its error, so 15 % is assumed.
    const int spare = staged->degreesOfFreedom();
    double squares = 0.0;
    for (Eigen::Index i = 0; i < n; ++i)
        if (latency(i) - staged->residuals(i) > 0)
            squares += std::pow(std::log(latency(i) / (latency(i) - staged->residuals(i))), 2);
    tuned.latencySpread = spare > 0 ? std::max(std::sqrt(squares / double(spare)), 0.05) : 0.15;
    tuned.latencySpreadBasis =
        spare > 0 ? "the fit's RMS log residual over " + std::to_string(n) + " runs (" +
                        std::to_string(spare) + " spare), at least 5 %"
                  : (staged->exact ? "an exact fit of " : "a fit with no spare run among ") +
                        std::to_string(n) + " run(s): no spare run measures its error, so 15 % is assumed";
    tuned.classBasis = "end-to-end runs (" + std::to_string(runs.size()) + "): " + classText +
                       (apart ? " apart" : " as one scale") +
                       (runtime.classBasis.empty() ? std::string() : "; before: " + runtime.classBasis);
    const bool simulated =
        std::all_of(runs.begin(), runs.end(), [](const auto& r) { return r.first.simulated(); });
    tuned.calibratedOnSimulator = simulated;
    tuned.calibratedDevice = device.id;
    tuned.basis = "fitted to " + std::to_string(runs.size()) +
                  (simulated ? " simulated runs (the simulated board, no measurement)" : " measured runs") +
                  ": latency = " + general(scale, 4) + " x roofline time of " + classText + " + (" +
                  us(x(Dispatch)) + (result.dispatchFitted ? "" : " kept") + " x dispatching layers + " +
                  us(x(Inference)) + (result.inferenceFitted ? "" : " kept") + ") x CPU clock ratio; " +
                  result.quality + " (from " + runtime.name + ")";
    if (scale < 1)
        tuned.basis +=
            "; efficiencies above 1 mean the runtime moves fewer bytes than the traffic view counts";
    return result;
}

PowerCalibration calibratePower(const std::vector<PowerRun>& runs, const std::string& runtimeName,
                                bool simulated) {
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
    // the catalog's energy basis is within a few times of any board's (the simulated board draws about twice
    // it): a multiplier of 20 or more is a fit to runs the model does not describe (an LLM's prefill power of
    // 88 W on a 60 W board came from eps_byte x 947)
    if (x.maxCoeff() > maxPowerMultiplier) {
        result.quality =
            "power: the fitted multipliers (up to " + general(x.maxCoeff(), 4) +
            ") are beyond what a runtime can hold; the runs are inconsistent with the model, so the "
            "estimated power model is kept";
        return result;
    }
    result.quality = fitQualityText(*staged, "power");
    if (staged->leaveOneOutRmsLog) {
        // chosen on evidence: the fit's held-out energies against the estimate's own error on the same runs
        double squares = 0.0;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double estimated = design.row(i).sum();
            squares += estimated > 0 && energy(i) > 0 ? std::pow(std::log(estimated / energy(i)), 2)
                                                      : std::pow(std::log(10.0), 2);
        }
        const double estimateError = std::sqrt(squares / double(n));
        const double heldOutError = *staged->leaveOneOutRmsLog;
        if (!(heldOutError < estimateError)) {
            result.quality = "power: fitted to " + std::to_string(runs.size()) +
                             " runs, the multipliers predict each run left out " +
                             fixed(100 * heldOutError, 0) +
                             " % off (RMS log), no better than the estimated power model on the same runs (" +
                             fixed(100 * estimateError, 0) + " %), so the estimate is kept";
            return result;
        }
        fit.spread = std::max(heldOutError, 0.05);
        fit.spreadBasis = "the RMS log error of " + std::to_string(staged->leaveOneOutRuns) +
                          " energies each predicted by a fit of the others, at least 5 %";
    }
    const std::string perRun =
        " multiplier" + std::string(staged->fittedTerms == 1 ? "" : "s") + " fitted to " +
        std::to_string(runs.size()) +
        (simulated ? " simulated energies (the simulated board)" : " measured energies");
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

std::vector<std::string> efficiencyWarnings(const RuntimeProfile& tuned) {
    constexpr double implausiblySlow = 0.02; // no runtime's kernels reach less than 2 % of both roofs
    if (tuned.computeEfficiency < implausiblySlow && tuned.bandwidthEfficiency < implausiblySlow)
        return {"the fitted efficiencies (compute " + general(tuned.computeEfficiency, 4) + ", bandwidth " +
                general(tuned.bandwidthEfficiency, 4) +
                ") are below 2 % of the board's peak: the runs took over 50 times what the counted work "
                "needs. The runs are likely of another, larger model (a benchmark that names no parameter "
                "count cannot be checked against this one) or another board, or their time went elsewhere "
                "(the host, copies)"};
    if (!(tuned.computeEfficiency > 1.0) && !(tuned.bandwidthEfficiency > 1.0)) return {};
    return {"the fitted efficiencies (compute " + general(tuned.computeEfficiency, 4) + ", bandwidth " +
            general(tuned.bandwidthEfficiency, 4) +
            ") exceed the board's peak (1): the runs went faster than the counted work allows. The counts "
            "overstate the work (a runtime that fuses layers moves fewer bytes), the roofline is too small a "
            "part of the runs' time to fix its scale, or the runs are of another model or board"};
}

} // namespace rooftop
