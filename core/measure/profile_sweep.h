// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/runner.h"
#include "core/platform/power_sampler.h"
#include "core/platform/restore_journal.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Where a profile sweep stands, for progress lines.
struct ProfileProgress {
    size_t modeIndex = 0;     ///< 0-based index of the mode being run
    size_t modeCount = 0;     ///< modes the sweep runs
    std::string modeName;     ///< PowerMode::name of the mode being run
    std::string phase;        ///< "switching", "settling", "batch 4 fp16: ok 3.2 ms", "skipped: ..."
    size_t runsDone = 0;      ///< runs this sweep has finished
    size_t runsPlanned = 0;   ///< runs this sweep has to do (resumed ones excluded)
    double fraction = 0.0;    ///< runsDone / runsPlanned
    double etaSeconds = -1.0; ///< estimated time left, -1 while unknown
};

/// Called on the sweep's thread.
using ProfileProgressCallback = std::function<void(const ProfileProgress&)>;

/// What a profile sweep runs on; everything injectable for tests.
struct ProfileEnvironment {
    Runner* runner = nullptr;                  ///< required
    ModeSwitcher* switcher = nullptr;          ///< null: no switching (--no-switch, a simulated board)
    RestoreJournal* journal = nullptr;         ///< required with a switcher
    std::function<void(double seconds)> sleep; ///< settle wait; default: the real clock
    std::function<double()> now;               ///< seconds for the ETA; default: steady clock
    std::shared_ptr<PowerSource> power;        ///< Rooftop's own power readings; null: not measured
    std::chrono::milliseconds powerPeriod{20}; ///< how often `power` is read
    /// A power read still blocked this long after the period is given up: the run keeps no power.
    std::chrono::milliseconds powerReadTimeout{2000};
};

/// What to run and where to write it.
struct ProfileOptions {
    std::string outPath; ///< the runs file, created or resumed
    std::string model; ///< runsModelKey of the model, written with each row; a file with another's is refused
    std::vector<int64_t> batches = {1};                    ///< batch sizes to run
    std::vector<Precision> precisions = {Precision::FP32}; ///< precisions to run
    Phase phase = Phase::Inference;                        ///< an inference or a training step
    Optimizer optimizer = Optimizer::Adam;                 ///< a training step's update
    std::map<std::string, int64_t> dims; ///< the model's symbolic dims bound, in every run and row
    LlmRun llm;                          ///< an LLM generation every run measures; inactive otherwise
    int repeat = 1;                      ///< runs per configuration
    double settleSeconds = 2.0;          ///< wait after each switch
    double idleSeconds = 1.0;            ///< idle baseline of each mode, measured after the settle wait
};

/// The idle baseline of one mode, measured with nothing running.
struct ModeIdle {
    std::string mode;            ///< PowerMode::name
    std::optional<double> watts; ///< nothing when the power source gave no reading
    double seconds = 0.0;        ///< how long it was measured
};

/// How a sweep ended.
struct ProfileOutcome {
    bool cancelled = false;           ///< the sweep stopped because *cancel became true
    bool switching = false;           ///< the sweep switched modes (the original one restored at its end)
    size_t ok = 0;                    ///< runs that succeeded in this sweep
    size_t failed = 0;                ///< runs that failed (each a row with its reason)
    size_t resumed = 0;               ///< runs the file already had as ok (not run again)
    std::vector<std::string> skipped; ///< "MODE: reason" (reboot needed, the switch failed)
    std::string outPath;              ///< the runs file written
    std::string powerSource;          ///< what measured power and idle ("INA3221 VDD_IN"); empty: none
    std::string noPowerReason;        ///< why Rooftop measured no power, when powerSource is empty
    std::string currentModeNote; ///< what "current" stood for where no mode is in force (the simulated board)
    std::vector<ModeIdle> idle;  ///< per mode run, when there is a power source
    std::string layersPath;      ///< the per-layer sidecar, when a run had a layer profile
    size_t missingLayers = 0;    ///< ok runs whose runner noted a missing layer profile
    size_t powerTimeouts = 0;    ///< runs and idle baselines whose power read timed out (power missing)
};

/// For each mode, batch, precision and repeat: switch the mode (the RestoreGuard journals the original mode
/// before the first change), run the runner and append the row at once. Configurations the file already has
/// `repeat` ok rows of are not run again. A failed run is a row with its reason and the sweep goes on; a mode
/// that cannot be switched to is skipped. With a power source, each mode's idle baseline is measured after
/// the settle wait, and a run whose runner reports neither power nor energy gets the average power over its
/// timed window (RunWindow) and the mode's idle power; a power read that blocks is given up after
/// powerReadTimeout and the run kept without power. Per-layer profiles go to the layersPathFor() sidecar, a
/// run's layer rows before its runs-file row; layer rows of no run in the runs file (a kill between the two)
/// are dropped when the sweep starts. The runs file is locked against another writer (RunsFileWriter).
/// Returns when done or when *cancel becomes true; the original mode is restored then, and on exceptions.
/// Throws InputError for a malformed runs file before changing anything, UnavailableError when the mode in
/// force cannot be read (nothing is changed then).
ProfileOutcome runProfileSweep(const DeviceSpec& device, const std::vector<PowerMode>& modes,
                               const ProfileEnvironment& env, const ProfileOptions& options,
                               const ProfileProgressCallback& progress, const std::atomic<bool>* cancel);

} // namespace rooftop
