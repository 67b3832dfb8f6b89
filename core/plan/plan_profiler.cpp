// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_profiler.h"

#include "core/common/errors.h"
#include "core/measure/runner_spec.h"

#include <chrono>
#include <cmath>
#include <thread>

namespace rooftop {

RunnerModeProfiler::RunnerModeProfiler(const DeviceSpec& device, const PlanSpace& space,
                                       PlanProfilerEnvironment env)
    : device_(device), space_(space), env_(std::move(env)) {
    if (!env_.inference || !env_.training) throw InputError("plan: a profiler needs both runners");
    if (env_.switcher && !env_.journal) throw UnavailableError("mode switching needs a restore journal");
    if (env_.power) meter_ = std::make_unique<RunPowerMeter>(env_.power, env_.powerPeriod);
    if (env_.switcher) guard_ = std::make_unique<RestoreGuard>(*env_.switcher, *env_.journal);
    if (!env_.sleep)
        env_.sleep = [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); };
}

RunnerModeProfiler::~RunnerModeProfiler() = default; // the guard restores the original mode

void RunnerModeProfiler::restore() {
    if (guard_) guard_->restore();
}

std::optional<PlanModeCosts> RunnerModeProfiler::profile(const PlanModeCosts& predicted, std::string* why) {
    const PowerMode& mode = predicted.mode;
    auto fail = [&](const std::string& reason) -> std::optional<PlanModeCosts> {
        if (why) *why = reason;
        return std::nullopt;
    };
    if (env_.switcher && mode.name != inForce_) {
        std::string reason = rebootReason(device_, env_.switcher->observe(), mode);
        if (reason.empty()) {
            guard_->beforeChange();
            try {
                switchAndVerify(*env_.switcher, mode);
                inForce_ = mode.name;
            } catch (const UnavailableError& error) {
                reason = error.what();
            }
        }
        if (!reason.empty()) {
            inForce_.clear();
            if (env_.inferenceRuns) { // a failed row, so that the file says the mode was tried
                RunRow row =
                    runRowFrom(RunConfig{mode, space_.inferenceBatches.front(), space_.precision,
                                         Phase::Inference, env_.inferenceDims},
                               RunResult::failed("switch: " + reason), env_.inference->name(), "plan");
                row.model = env_.inferenceModelKey;
                env_.inferenceRuns->append(row);
            }
            return fail("switch: " + reason);
        }
        env_.sleep(env_.settleSeconds);
    }
    PlanModeCosts costs = predicted;
    bool powerEstimated = false;
    auto runOnce = [&](Runner& runner, const RunConfig& config, double predictedWatts, double& seconds,
                       double& watts) -> std::string {
        bool measured = false;
        const RunResult r = runMeasured(device_, runner, config, meter_.get(), env_.cancel, &measured);
        ++runs_;
        const bool training = config.phase == Phase::Training;
        if (RunsFileWriter* writer = training ? env_.trainingRuns : env_.inferenceRuns;
            writer && !(env_.cancel && env_.cancel->load() && !r.ok)) {
            RunRow row = runRowFrom(config, r, runner.name(), "plan");
            row.model = training ? env_.trainingModelKey : env_.inferenceModelKey;
            writer->append(row);
        }
        if (!r.ok) return r.failure.empty() ? "the run failed" : r.failure;
        if (!(r.latencyMs > 0) || !std::isfinite(r.latencyMs)) return "the run reported no latency";
        if (r.latencyMs < 1e-3) return "the run reported an implausible latency (under 1 µs)";
        seconds = r.latencyMs / 1e3;
        if (r.powerW && *r.powerW > 0 && std::isfinite(*r.powerW))
            watts = *r.powerW;
        else if (r.energyJ && *r.energyJ > 0 && std::isfinite(*r.energyJ))
            watts = *r.energyJ / seconds;
        else {
            watts = predictedWatts;
            powerEstimated = true;
        }
        return {};
    };
    for (size_t b = 0; b < space_.inferenceBatches.size(); ++b) {
        if (env_.cancel && env_.cancel->load()) return fail("cancelled");
        const RunConfig config{mode, space_.inferenceBatches[b], space_.precision, Phase::Inference,
                               env_.inferenceDims};
        const std::string failure = runOnce(*env_.inference, config, predicted.inferenceWatts[b],
                                            costs.inferenceSeconds[b], costs.inferenceWatts[b]);
        if (!failure.empty())
            return fail("inference at batch " + std::to_string(config.batch) + ": " + failure);
    }
    if (env_.cancel && env_.cancel->load()) return fail("cancelled");
    const RunConfig step{
        mode, space_.trainingBatch, space_.precision, Phase::Training, env_.trainingDims, env_.optimizer};
    const std::string failure =
        runOnce(*env_.training, step, predicted.trainingWatts, costs.trainingSeconds, costs.trainingWatts);
    if (!failure.empty()) return fail("training step: " + failure);
    costs.provenance = runProvenance(env_.inference->name());
    if (powerEstimated) costs.provenance += " (power: Rooftop's estimate)";
    costs.trainingProvenance.clear();
    return costs;
}

} // namespace rooftop
