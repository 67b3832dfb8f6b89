// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/power_rails.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rooftop {

/// A source of instant power readings (module rails, NVML).
class PowerSource {
public:
    virtual ~PowerSource() = default;
    /// What is measured ("INA3221 VDD_IN", "NVML board power").
    virtual std::string description() const = 0;
    /// The power now in watts, nothing when the read failed.
    virtual std::optional<double> readWatts() = 0;
};

/// Module power from Jetson INA3221 rails (moduleRails of the board).
class RailPowerSource final : public PowerSource {
public:
    /// The sum of `rails`, read under `root`.
    RailPowerSource(SysfsRoot root, std::vector<RailChannel> rails);
    std::string description() const override;
    std::optional<double> readWatts() override;

private:
    SysfsRoot root_;
    std::vector<RailChannel> rails_;
};

/// One power reading: seconds on the steady clock since the sampler started, and watts.
struct PowerSample {
    double seconds = 0.0; ///< on the steady clock since the sampler started
    double watts = 0.0;   ///< the power read
};

/// Energy in joules of samples between t0 and t1 by trapezoidal integration, the end points interpolated
/// (held constant beyond the first and last sample); 0 with no sample.
double integrateEnergy(const std::vector<PowerSample>& samples, double t0, double t1);

/// Samples a PowerSource on its own thread at a fixed period while running. A read that blocks (a stuck
/// sysfs file, a hung NVML call) cannot hang stop(): once a read has taken longer than the period plus the
/// read timeout, stop() gives up on it, leaves the reader thread blocked (detached, owning its state) and
/// reports timedOut(); while that read has not returned, later start()s take no samples and time out at once.
class PowerSampler {
public:
    /// Samples `source`, kept alive by a blocked reader thread as long as it needs it.
    PowerSampler(std::shared_ptr<PowerSource> source, std::chrono::milliseconds period,
                 std::chrono::milliseconds readTimeout = std::chrono::seconds(2));
    ~PowerSampler();
    PowerSampler(const PowerSampler&) = delete;
    PowerSampler& operator=(const PowerSampler&) = delete;

    /// Starts the thread (clears earlier samples).
    void start();
    /// Stops the thread and returns the samples taken: at least one when it was running and the source reads
    /// in time; none when a read timed out.
    std::vector<PowerSample> stop();
    /// True when the last stop() gave up on a read that did not return in time.
    bool timedOut() const { return timedOut_; }
    /// Seconds since start() on the samples' clock.
    double now() const;

    struct State; ///< what the reader thread shares with the sampler

private:
    std::shared_ptr<PowerSource> source_;
    std::chrono::milliseconds period_;
    std::chrono::milliseconds readTimeout_;
    std::chrono::steady_clock::time_point origin_;
    std::thread thread_;
    std::shared_ptr<State> state_; ///< of the running thread
    std::shared_ptr<State> stuck_; ///< of a detached thread still blocked in a read
    bool startedStuck_ = false;    ///< start() found the source still blocked and started no thread
    bool timedOut_ = false;
    std::vector<PowerSample> samples_; ///< of the last stop()
};

} // namespace rooftop
