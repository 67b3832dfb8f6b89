// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/power_sampler.h"

#include <algorithm>
#include <condition_variable>

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

struct PowerSampler::State {
    std::shared_ptr<PowerSource> source;
    std::chrono::milliseconds period{1};
    std::chrono::steady_clock::time_point origin;
    std::mutex mutex;
    std::condition_variable changed;
    bool running = true;
    bool reading = false; ///< a read is in progress, since readStart
    bool done = false;    ///< the thread has left its loop
    std::chrono::steady_clock::time_point readStart;
    std::vector<PowerSample> samples;
};

namespace {

// Reads at least once, so that a run shorter than the thread's first turn (a loaded machine) still gets the
// power at its end. Touches nothing but the state, which it co-owns: the sampler may be gone when a blocked
// read returns.
void sampleLoop(const std::shared_ptr<PowerSampler::State>& s) {
    auto next = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(s->mutex);
    do {
        s->reading = true;
        s->readStart = std::chrono::steady_clock::now();
        const double t = std::chrono::duration<double>(s->readStart - s->origin).count();
        lock.unlock();
        const std::optional<double> watts = s->source->readWatts();
        lock.lock();
        s->reading = false;
        if (watts) s->samples.push_back({t, *watts});
        s->changed.notify_all();
        next += s->period;
        s->changed.wait_until(lock, next, [&] { return !s->running; });
    } while (s->running);
    s->done = true;
    s->changed.notify_all();
}

} // namespace

PowerSampler::PowerSampler(std::shared_ptr<PowerSource> source, std::chrono::milliseconds period,
                           std::chrono::milliseconds readTimeout)
    : source_(std::move(source)), period_(std::max(period, std::chrono::milliseconds(1))),
      readTimeout_(readTimeout), origin_(std::chrono::steady_clock::now()) {}

PowerSampler::~PowerSampler() {
    stop();
}

double PowerSampler::now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - origin_).count();
}

void PowerSampler::start() {
    stop();
    samples_.clear();
    timedOut_ = false;
    origin_ = std::chrono::steady_clock::now();
    if (stuck_) {
        std::lock_guard<std::mutex> lock(stuck_->mutex);
        startedStuck_ = !stuck_->done;
    }
    if (startedStuck_) return; // another thread would only block beside it
    stuck_.reset();
    state_ = std::make_shared<State>();
    state_->source = source_;
    state_->period = period_;
    state_->origin = origin_;
    thread_ = std::thread([s = state_] { sampleLoop(s); });
}

std::vector<PowerSample> PowerSampler::stop() {
    if (startedStuck_) {
        startedStuck_ = false;
        timedOut_ = true;
        samples_.clear();
    }
    if (!state_) return samples_;
    const std::shared_ptr<State> s = std::move(state_);
    std::unique_lock<std::mutex> lock(s->mutex);
    s->running = false;
    s->changed.notify_all();
    const auto limit = period_ + readTimeout_;
    const auto stoppedAt = std::chrono::steady_clock::now();
    bool stuck = false;
    while (!s->done) {
        // a read that has run past the limit is stuck; between reads the thread leaves at once
        const auto deadline = (s->reading ? s->readStart : stoppedAt) + limit;
        if (std::chrono::steady_clock::now() >= deadline) {
            stuck = true;
            break;
        }
        s->changed.wait_until(lock, deadline);
    }
    if (stuck) {
        lock.unlock();
        thread_.detach();
        stuck_ = s;
        timedOut_ = true;
        samples_.clear();
        return samples_;
    }
    samples_ = s->samples;
    lock.unlock();
    thread_.join();
    return samples_;
}

} // namespace rooftop
