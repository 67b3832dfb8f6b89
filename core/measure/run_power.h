// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/runner.h"
#include "core/platform/power_sampler.h"

#include <chrono>
#include <optional>
#include <vector>

namespace rooftop {

/// Rooftop's own power measurement during a profile: a mode's idle baseline, and the average power over the
/// timed window of a run (begin() to end(), the last window when a runner marks several).
class RunPowerMeter final : public RunWindow {
public:
    /// Samples `source` every `period`.
    RunPowerMeter(PowerSource& source, std::chrono::milliseconds period);
    /// Average power over `seconds` of waiting with nothing running; nothing when no reading succeeded.
    std::optional<double> idleWatts(double seconds);
    /// Starts the window (again: earlier samples are dropped).
    void begin() override;
    /// Ends the window; nothing when it is not open.
    void end() override;
    /// The average power of the last window (closing it if still open); nothing when no reading succeeded.
    std::optional<double> windowWatts();
    /// What is measured ("INA3221 VDD_IN").
    std::string description() const { return source_.description(); }

private:
    PowerSource& source_;
    PowerSampler sampler_;
    bool open_ = false;
    std::vector<PowerSample> samples_;
};

/// The mean of the samples' watts; nothing without samples. The sampler reads at a fixed period, so this is
/// the time average of the power.
std::optional<double> meanWatts(const std::vector<PowerSample>& samples);

} // namespace rooftop
