// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/measure/run_power.h"
#include "core/measure/runner.h"
#include "core/measure/runs_file.h"
#include "core/plan/plan_search.h"
#include "core/platform/mode_switcher.h"
#include "core/platform/restore_journal.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace rooftop {

/// What a runner profiler runs on; the switcher, journal and power source are optional.
struct PlanProfilerEnvironment {
    Runner* inference = nullptr;        ///< runs the inference model (phase inference)
    Runner* training = nullptr;         ///< runs the training model (phase training)
    ModeSwitcher* switcher = nullptr;   ///< null: no switching (--no-switch, a simulated board)
    RestoreJournal* journal = nullptr;  ///< required with a switcher
    std::shared_ptr<PowerSource> power; ///< Rooftop's own power readings; null: the runners'
    std::chrono::milliseconds powerPeriod{20};
    std::function<void(double seconds)> sleep; ///< settle wait; default: the real clock
    double settleSeconds = 2.0;
    const std::atomic<bool>* cancel = nullptr;
    RunsFileWriter* inferenceRuns = nullptr;         ///< every inference run appended at once; null: none
    RunsFileWriter* trainingRuns = nullptr;          ///< every training run (may be the same writer)
    std::string inferenceModelKey, trainingModelKey; ///< runsModelKey of each model, written with its rows
    std::map<std::string, int64_t> inferenceDims,
        trainingDims;                      ///< each model's dims bound, in its runs and rows
    Optimizer optimizer = Optimizer::Adam; ///< the training step's update, in its runs and rows
};

/// Profiles a mode through the runners: switches to it (restoring the original mode when the profiler is
/// destroyed, as rooftop profile does), runs the inference model at every batch size of the space and one
/// training step, and reads latency and power from each run, appending each to the runs files at once (a mode
/// that cannot be switched to as a failed row). A run without power keeps the prediction's watts (noted in
/// the costs' provenance).
class RunnerModeProfiler final : public ModeProfiler {
public:
    RunnerModeProfiler(const DeviceSpec& device, const PlanSpace& space, PlanProfilerEnvironment env);
    ~RunnerModeProfiler() override;
    std::optional<PlanModeCosts> profile(const PlanModeCosts& predicted, std::string* why) override;
    /// Puts the original mode back now; throws UnavailableError when that fails (the journal then stays).
    void restore();
    /// Runs made so far, failed ones included.
    int runs() const { return runs_; }

private:
    const DeviceSpec& device_;
    const PlanSpace& space_;
    PlanProfilerEnvironment env_;
    std::unique_ptr<RunPowerMeter> meter_;
    std::unique_ptr<RestoreGuard> guard_;
    std::string inForce_;
    int runs_ = 0;
};

} // namespace rooftop
