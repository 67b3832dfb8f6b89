// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/run_config.h"

#include <atomic>
#include <string>

namespace rooftop {

/// Told when the timed part of a run starts and ends, so that power is sampled over that part only.
class RunWindow {
public:
    virtual ~RunWindow() = default;
    /// The timed part starts (again, when a runner retries: the last window counts).
    virtual void begin() = 0;
    /// The timed part has ended.
    virtual void end() = 0;
    /// Only the last `seconds` before end() count (a runner whose process also starts up and warms up).
    virtual void keepLast(double seconds) { (void)seconds; }
};

/// Runs the model at one configuration and reports what it measured. A run that fails returns a failed
/// RunResult (the sweep goes on); exceptions are kept for a runner that cannot run at all.
class Runner {
public:
    virtual ~Runner() = default;
    /// Runs once; polls `cancel` (may be null) and gives up with a failure when it becomes true.
    virtual RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) = 0;
    /// The runner as the runs file names it ("sim:0", "command").
    virtual std::string name() const = 0;
    /// The window this runner marks around the timed part of its runs (null: none; the caller then times
    /// the whole run).
    void setTimedWindow(RunWindow* window) { window_ = window; }

protected:
    /// Marks the start of the timed part; nothing without a window.
    void beginTimed() {
        if (window_) window_->begin();
    }
    /// Marks the end of the timed part; nothing without a window.
    void endTimed() {
        if (window_) window_->end();
    }
    /// Only the last `seconds` of the timed part count; nothing without a window.
    void keepLastTimed(double seconds) {
        if (window_) window_->keepLast(seconds);
    }

private:
    RunWindow* window_ = nullptr;
};

} // namespace rooftop
