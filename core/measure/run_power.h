// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/measure/runner.h"
#include "core/platform/power_sampler.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace rooftop {

/// Rooftop's own power measurement during a profile: a mode's idle baseline, and the average power over the
/// timed window of a run (begin() to end(), the last window when a runner marks several).
class RunPowerMeter final : public RunWindow {
public:
    /// Samples `source` every `period`; a read that blocks past the period plus `readTimeout` is given up.
    RunPowerMeter(std::shared_ptr<PowerSource> source, std::chrono::milliseconds period,
                  std::chrono::milliseconds readTimeout = std::chrono::seconds(2));
    /// Average power over `seconds` of waiting with nothing running (returns early on cancel); nothing when
    /// no reading succeeded.
    std::optional<double> idleWatts(double seconds, const std::atomic<bool>* cancel = nullptr);
    /// Starts the window (again: earlier samples are dropped).
    void begin() override;
    /// Ends the window; nothing when it is not open.
    void end() override;
    /// Only the last `seconds` of the window count.
    void keepLast(double seconds) override { keepLast_ = seconds; }
    /// The average power of the last window (closing it if still open); nothing when no reading succeeded.
    std::optional<double> windowWatts();
    /// What is measured ("INA3221 VDD_IN").
    std::string description() const { return description_; }
    /// True when the last idle measurement or window gave up on a power read that blocked (its power is
    /// missing).
    bool timedOut() const { return timedOut_; }

private:
    std::string description_;
    PowerSampler sampler_;
    bool open_ = false;
    double keepLast_ = 0.0; ///< 0: the whole window
    bool timedOut_ = false;
    std::vector<PowerSample> samples_;
};

/// The time average of the samples' watts (trapezoidal, over the first to the last sample; their mean when
/// they share one time); nothing without samples.
std::optional<double> meanWatts(const std::vector<PowerSample>& samples);

/// Runs once, measuring power over the runner's timed window (else the whole run) when there is a meter
/// and the runner reports neither power nor energy itself; *measured tells whether the power is Rooftop's. A
/// power read that timed out leaves the power empty and notes "power read timed out". A run whose power (its
/// own or the meter's) cannot be the board's (power_plausibility.h) is a failed run saying why.
RunResult runMeasured(const DeviceSpec& device, Runner& runner, const RunConfig& config, RunPowerMeter* meter,
                      const std::atomic<bool>* cancel, bool* measured);

} // namespace rooftop
