// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/microbench/energy_meter.h"

#include "core/common/errors.h"

#include <thread>

namespace rooftop {

SampledEnergyMeter::SampledEnergyMeter(std::shared_ptr<PowerSource> source, std::chrono::milliseconds period,
                                       std::chrono::milliseconds readTimeout)
    : source_(std::move(source)), sampler_(source_, period, readTimeout) {}

std::string SampledEnergyMeter::description() const {
    return source_->description();
}

void SampledEnergyMeter::start() {
    sampler_.start();
}

EnergyWindow SampledEnergyMeter::stop() {
    const double end = sampler_.now();
    EnergyWindow window;
    window.samples = sampler_.stop();
    // a read that blocked past its deadline left no samples: 0 J would be recorded as measured
    if (sampler_.timedOut())
        throw UnavailableError("power: a read of " + source_->description() +
                               " timed out; no energy measured (the bench stops rather than record 0 J)");
    window.seconds = end;
    window.joules = integrateEnergy(window.samples, 0.0, end);
    return window;
}

double SampledEnergyMeter::idleWatts(double seconds) {
    start();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    const EnergyWindow window = stop();
    return window.seconds > 0 ? window.joules / window.seconds : 0.0;
}

} // namespace rooftop
