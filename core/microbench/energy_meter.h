// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/power_sampler.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace rooftop {

/// Energy over one measured window.
struct EnergyWindow {
    double seconds = 0.0;             ///< wall time of the window
    double joules = 0.0;              ///< integrated energy
    std::vector<PowerSample> samples; ///< the raw power readings, seconds from the window start
};

/// Measures energy over windows: start(), run kernels, stop().
class EnergyMeter {
public:
    virtual ~EnergyMeter() = default;
    /// What is measured.
    virtual std::string description() const = 0;
    /// Opens a window.
    virtual void start() = 0;
    /// Closes the window and returns its energy; UnavailableError when the power source stopped answering.
    virtual EnergyWindow stop() = 0;
    /// Average power with the GPU idle over `seconds` (the idle baseline).
    virtual double idleWatts(double seconds) = 0;
};

/// An EnergyMeter over a PowerSource: a PowerSampler thread at `period`, trapezoidal integration.
class SampledEnergyMeter final : public EnergyMeter {
public:
    /// A read still blocked `readTimeout` past the period is given up (stop() throws UnavailableError).
    SampledEnergyMeter(std::shared_ptr<PowerSource> source, std::chrono::milliseconds period,
                       std::chrono::milliseconds readTimeout = std::chrono::seconds(2));
    std::string description() const override;
    void start() override;
    EnergyWindow stop() override;
    double idleWatts(double seconds) override;

private:
    std::shared_ptr<PowerSource> source_; ///< shared with a reader thread a blocked read left behind
    PowerSampler sampler_;
};

} // namespace rooftop
