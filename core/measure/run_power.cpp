// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/run_power.h"

#include "core/device/power_plausibility.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace rooftop {

std::optional<double> meanWatts(const std::vector<PowerSample>& samples) {
    if (samples.empty()) return std::nullopt;
    const double span = samples.back().seconds - samples.front().seconds;
    if (span > 0) return integrateEnergy(samples, samples.front().seconds, samples.back().seconds) / span;
    double sum = 0.0;
    for (const PowerSample& s : samples)
        sum += s.watts;
    return sum / static_cast<double>(samples.size());
}

RunPowerMeter::RunPowerMeter(std::shared_ptr<PowerSource> source, std::chrono::milliseconds period,
                             std::chrono::milliseconds readTimeout)
    : description_(source->description()), sampler_(std::move(source), period, readTimeout) {}

std::optional<double> RunPowerMeter::idleWatts(double seconds, const std::atomic<bool>* cancel) {
    end();
    sampler_.start();
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(0.0, seconds));
    while (std::chrono::steady_clock::now() < until && !(cancel && cancel->load()))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::vector<PowerSample> samples = sampler_.stop();
    timedOut_ = sampler_.timedOut();
    return meanWatts(samples);
}

void RunPowerMeter::begin() {
    samples_.clear();
    keepLast_ = 0.0;
    timedOut_ = false;
    sampler_.start();
    open_ = true;
}

void RunPowerMeter::end() {
    if (!open_) return;
    samples_ = sampler_.stop();
    timedOut_ = sampler_.timedOut();
    open_ = false;
}

std::optional<double> RunPowerMeter::windowWatts() {
    end();
    if (keepLast_ > 0 && !samples_.empty()) {
        const double from = samples_.back().seconds - keepLast_;
        std::vector<PowerSample> last;
        for (const PowerSample& s : samples_)
            if (s.seconds >= from) last.push_back(s);
        if (!last.empty()) return meanWatts(last);
    }
    return meanWatts(samples_);
}

namespace {

// A run longer than a day is no inference or training step a board measures: a runner that says so is wrong
// (1e308 ms would make the energy infinite and every later read of the runs file fail).
constexpr double longestPlausibleRunMs = 86400e3;

std::string implausibleTime(const RunResult& r) {
    const auto tooLong = [](double ms) { return !std::isfinite(ms) || ms > longestPlausibleRunMs; };
    const char* field = tooLong(r.latencyMs)                      ? "latency_ms"
                        : r.p99Ms && tooLong(*r.p99Ms)            ? "p99_ms"
                        : r.llm && tooLong(r.llm->ttftMs)         ? "ttft_ms"
                        : r.llm && tooLong(r.llm->tpotMs)         ? "tpot_ms"
                        : r.energyJ && !std::isfinite(*r.energyJ) ? "energy_j"
                                                                  : nullptr;
    return field ? std::string("the runner's ") + field + " is implausible (over a day, or not finite)"
                 : std::string();
}

RunResult plausible(const DeviceSpec& device, RunResult result) {
    if (!result.ok || !(result.latencyMs > 0)) return result;
    if (const std::string why = implausibleTime(result); !why.empty()) return RunResult::failed(why);
    const std::optional<double> watts =
        result.powerW    ? result.powerW
        : result.energyJ ? std::optional<double>(*result.energyJ / (result.latencyMs * 1e-3))
                         : std::nullopt;
    if (!watts) return result;
    const std::string why = implausiblePower(device, *watts);
    return why.empty() ? result : RunResult::failed(why);
}

} // namespace

RunResult runMeasured(const DeviceSpec& device, Runner& runner, const RunConfig& config, RunPowerMeter* meter,
                      const std::atomic<bool>* cancel, bool* measured) {
    *measured = false;
    if (!meter) return plausible(device, runner.run(config, cancel));
    struct Detach { // the meter is this sweep's: a runner must not keep it past the run, even on a throw
        Runner& r;
        ~Detach() { r.setTimedWindow(nullptr); }
    } detach{runner};
    runner.setTimedWindow(meter);
    meter->begin();
    RunResult result = runner.run(config, cancel);
    meter->end();
    if (result.ok && !result.powerW && !result.energyJ) {
        result.powerW = meter->windowWatts();
        *measured = result.powerW.has_value();
        if (meter->timedOut())
            result.note =
                result.note.empty() ? "power read timed out" : result.note + "; power read timed out";
    }
    result = plausible(device, std::move(result));
    if (!result.ok) *measured = false;
    return result;
}

} // namespace rooftop
