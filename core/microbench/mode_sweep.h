// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/microbench/bench_runner.h"
#include "core/platform/restore_journal.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace rooftop {

/// Where a sweep stands, for progress bars.
struct SweepProgress {
    size_t modeIndex = 0;     ///< 0-based index of the mode being measured
    size_t modeCount = 0;     ///< modes in the sweep
    std::string modeName;     ///< the name of the mode being measured
    std::string phase;        ///< "switching", "settling", a kernel name, "saved", "skipped: ..."
    double fraction = 0.0;    ///< of the whole sweep, 0..1
    double etaSeconds = -1.0; ///< estimated time left, -1 while unknown
};

/// Called on the sweep's thread.
using SweepProgressCallback = std::function<void(const SweepProgress&)>;

/// How a sweep ended.
struct SweepOutcome {
    bool cancelled = false;            ///< the sweep was cancelled before every mode was done
    std::vector<std::string> measured; ///< modes measured and saved by this run
    std::vector<std::string> resumed;  ///< modes the file already had (not measured again)
    std::vector<std::string> skipped;  ///< "NAME: reason" (reboot needed, clocks did not take effect)
    std::string outPath;               ///< the profile file written
};

/// What a sweep runs on; everything injectable for tests.
struct SweepEnvironment {
    GpuBackend* gpu = nullptr;                 ///< required
    EnergyMeter* meter = nullptr;              ///< null: no power model
    ModeSwitcher* switcher = nullptr;          ///< null: measure the mode in force only (modes must be one)
    RestoreJournal* journal = nullptr;         ///< required with a switcher
    std::function<ObservedClocks()> observe;   ///< clocks without a switcher (may be empty)
    std::function<void(double seconds)> sleep; ///< settle wait; default: the real clock
    std::function<double()> now;               ///< seconds for the ETA; default: steady clock
};

/// What to sweep into.
struct SweepOptions {
    std::string outPath;        ///< the profile file, created or resumed
    double settleSeconds = 5.0; ///< wait after each switch
    BenchSettings bench;        ///< how each mode is measured
    MeasuredProfile header;     ///< board, l4t, driver, CUDA versions and created time for a new file
};

/// Measures each mode in turn: switch (with the RestoreGuard journalled before the first change), verify,
/// settle, measure, and save the profile atomically after every mode. A rerun resumes: modes the file
/// already has are not measured again. Modes that need a reboot are skipped and reported. Returns when done
/// or when *cancel becomes true; the original mode is restored in both cases and on exceptions. Throws
/// InputError for a profile of another device, UnavailableError when switching is impossible.
SweepOutcome runModeSweep(const DeviceSpec& device, const std::vector<PowerMode>& modes,
                          const SweepEnvironment& env, const SweepOptions& options,
                          const SweepProgressCallback& progress, const std::atomic<bool>* cancel);

} // namespace rooftop
