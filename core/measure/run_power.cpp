// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/run_power.h"

#include <thread>

namespace rooftop {

std::optional<double> meanWatts(const std::vector<PowerSample>& samples) {
    if (samples.empty()) return std::nullopt;
    double sum = 0.0;
    for (const PowerSample& s : samples)
        sum += s.watts;
    return sum / static_cast<double>(samples.size());
}

RunPowerMeter::RunPowerMeter(PowerSource& source, std::chrono::milliseconds period)
    : source_(source), sampler_(source, period) {}

std::optional<double> RunPowerMeter::idleWatts(double seconds) {
    end();
    sampler_.start(); // the sampler reads once at once, so even a zero wait has a reading
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds > 0 ? seconds : 0.0));
    return meanWatts(sampler_.stop());
}

void RunPowerMeter::begin() {
    samples_.clear();
    sampler_.start();
    open_ = true;
}

void RunPowerMeter::end() {
    if (!open_) return;
    samples_ = sampler_.stop();
    open_ = false;
}

std::optional<double> RunPowerMeter::windowWatts() {
    end();
    return meanWatts(samples_);
}

} // namespace rooftop
