// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/power_sampler.h"

#include <algorithm>

namespace rooftop {

RailPowerSource::RailPowerSource(SysfsRoot root, std::vector<RailChannel> rails)
    : root_(std::move(root)), rails_(std::move(rails)) {}

std::string RailPowerSource::description() const {
    std::string text = "INA3221";
    for (const auto& rail : rails_)
        text += " " + rail.label;
    return text;
}

std::optional<double> RailPowerSource::readWatts() {
    if (rails_.empty()) return std::nullopt;
    double total = 0.0;
    for (const auto& rail : rails_) {
        const auto watts = readRailWatts(root_, rail);
        if (!watts) return std::nullopt;
        total += *watts;
    }
    return total;
}

namespace {

double wattsAt(const std::vector<PowerSample>& s, double t) {
    if (t <= s.front().seconds) return s.front().watts;
    if (t >= s.back().seconds) return s.back().watts;
    const auto next = std::upper_bound(s.begin(), s.end(), t,
                                       [](double value, const PowerSample& p) { return value < p.seconds; });
    const auto prev = next - 1;
    const double span = next->seconds - prev->seconds;
    if (span <= 0) return next->watts;
    return prev->watts + (next->watts - prev->watts) * (t - prev->seconds) / span;
}

} // namespace

double integrateEnergy(const std::vector<PowerSample>& samples, double t0, double t1) {
    if (samples.empty() || t1 <= t0) return 0.0;
    // Breakpoints: t0, every sample strictly inside (t0, t1), t1; the power is linear between them.
    std::vector<std::pair<double, double>> points{{t0, wattsAt(samples, t0)}};
    for (const auto& s : samples)
        if (s.seconds > t0 && s.seconds < t1) points.push_back({s.seconds, s.watts});
    points.push_back({t1, wattsAt(samples, t1)});
    double joules = 0.0;
    for (size_t i = 1; i < points.size(); ++i)
        joules += 0.5 * (points[i].second + points[i - 1].second) * (points[i].first - points[i - 1].first);
    return joules;
}

PowerSampler::PowerSampler(PowerSource& source, std::chrono::milliseconds period)
    : source_(source), period_(std::max(period, std::chrono::milliseconds(1))),
      origin_(std::chrono::steady_clock::now()) {}

PowerSampler::~PowerSampler() {
    stop();
}

double PowerSampler::now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - origin_).count();
}

void PowerSampler::start() {
    stop();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        samples_.clear();
    }
    origin_ = std::chrono::steady_clock::now();
    running_ = true;
    thread_ = std::thread([this] { loop(); });
}

std::vector<PowerSample> PowerSampler::stop() {
    const bool wasRunning = running_.exchange(false);
    if (thread_.joinable()) thread_.join();
    std::lock_guard<std::mutex> lock(mutex_);
    // A run shorter than the thread's first turn (a loaded machine) still gets the power at its end.
    if (wasRunning && samples_.empty())
        if (const auto watts = source_.readWatts()) samples_.push_back({now(), *watts});
    return samples_;
}

void PowerSampler::loop() {
    auto next = std::chrono::steady_clock::now();
    while (running_) {
        const double t = now();
        if (const auto watts = source_.readWatts()) {
            std::lock_guard<std::mutex> lock(mutex_);
            samples_.push_back({t, *watts});
        }
        next += period_;
        std::this_thread::sleep_until(next);
    }
}

} // namespace rooftop
