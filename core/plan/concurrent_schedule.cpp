// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/concurrent_schedule.h"

#include "core/common/errors.h"
#include "core/common/splitmix.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rooftop {

namespace {

constexpr double tolerance = 1e-12; // seconds: equal times compare equal

double gaussian(SplitMix64& random) {
    const double u1 = 1.0 - random.uniform(), u2 = random.uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

double percentile(std::vector<double>& values, double q) {
    if (values.empty()) return 0.0;
    const size_t k = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size()))) - 1;
    const size_t at = std::min(values.size() - 1, k);
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
    return values[at];
}

void checkCosts(const ScheduleCosts& c, const ScheduleOptions& o) {
    if (c.inferenceBatch < 1) throw InputError("schedule: the inference batch must be at least 1");
    if (!(c.inferenceSeconds > 0) || !std::isfinite(c.inferenceSeconds))
        throw InputError("schedule: an inference batch must take a positive time");
    if (o.policy != SchedulePolicy::InferenceOnly &&
        (!(c.trainingSeconds > 0) || !std::isfinite(c.trainingSeconds)))
        throw InputError("schedule: a training minibatch must take a positive time");
    if (!(o.sloSeconds > 0)) throw InputError("schedule: the latency SLO must be positive");
    if (!(o.durationSeconds > 0) || !std::isfinite(o.durationSeconds))
        throw InputError("schedule: the duration must be positive");
    // one loop turn per execution: bound them so that an implausibly short step cannot stall the simulation
    constexpr double maxExecutions = 1e7;
    if (o.durationSeconds / c.inferenceSeconds > maxExecutions ||
        (o.policy != SchedulePolicy::InferenceOnly && o.durationSeconds / c.trainingSeconds > maxExecutions))
        throw InputError("schedule: an inference batch or a training step this short (below " +
                         std::to_string(o.durationSeconds / maxExecutions * 1e6) +
                         " µs) would run more than 10 "
                         "million times in the window");
}

} // namespace

ScheduleStats simulateSchedule(const std::vector<double>& arrivals, const ScheduleCosts& costs,
                               const ScheduleOptions& options) {
    checkCosts(costs, options);
    ScheduleStats stats;
    const size_t n = arrivals.size();
    stats.requests = static_cast<int64_t>(n);
    const double slo = options.sloSeconds, ti = costs.inferenceSeconds, tt = costs.trainingSeconds;
    const double planTi = ti * (1.0 + options.planningMargin), planTt = tt * (1.0 + options.planningMargin);
    const double window = options.rateWindowSeconds > 0 ? options.rateWindowSeconds : 1.0;
    const auto batch = static_cast<size_t>(costs.inferenceBatch);
    const double timelineEnd = options.timelineFrom + options.timelineSeconds;
    SplitMix64 random = SplitMix64::keyed(options.seed ^ 0x8cb92ba72f3d8dd7ULL);
    auto jittered = [&](double nominal) {
        return options.jitter > 0 ? nominal * std::exp(options.jitter * gaussian(random)) : nominal;
    };
    auto record = [&](TimelineSegment::Kind kind, double start, double end, int requests) {
        if (options.timelineSeconds <= 0 || end <= options.timelineFrom || start >= timelineEnd) return;
        stats.timeline.push_back(TimelineSegment{kind, start, end, requests});
    };
    std::vector<double> latencies;
    latencies.reserve(n);

    double t = 0.0, inferenceTime = 0.0, trainingTime = 0.0;
    size_t head = 0, next = 0,
           rateFrom = 0; // queue = [head, next); arrivals seen in the window from rateFrom
    while (true) {
        while (next < n && arrivals[next] <= t + tolerance)
            ++next;
        while (rateFrom < next && arrivals[rateFrom] <= t - window)
            ++rateFrom;
        const size_t queued = next - head;
        const double latestStart =
            queued > 0 ? arrivals[head] + slo - planTi : std::numeric_limits<double>::infinity();

        // at the end of the window with every request in, the last partial batch runs at once
        const bool flush = next == n && t >= options.durationSeconds;
        if (queued > 0 && (queued >= batch || t >= latestStart - tolerance || flush)) {
            // drop what can no longer make it; the rest (up to a batch) runs now
            while (head < next) {
                const double deadline = arrivals[head] + slo;
                const bool past = t > deadline + tolerance;
                const bool predictedPast =
                    options.policy == SchedulePolicy::Adaptive && t + ti > deadline + 1e-9;
                if (!past && !predictedPast) break;
                ++stats.dropped;
                ++head;
            }
            if (head == next) continue;
            const size_t take = std::min(batch, next - head);
            const double seconds = jittered(ti);
            const double end = t + seconds;
            for (size_t i = head; i < head + take; ++i) {
                const double latency = end - arrivals[i];
                latencies.push_back(latency);
                if (latency > slo + 1e-9) ++stats.late;
            }
            record(TimelineSegment::Kind::Inference, t, end, static_cast<int>(take));
            head += take;
            stats.served += static_cast<int64_t>(take);
            ++stats.inferenceBatches;
            stats.energyJoules += seconds * costs.inferenceWatts;
            inferenceTime += seconds;
            t = end;
            continue;
        }

        if (options.policy != SchedulePolicy::InferenceOnly && t < options.durationSeconds) {
            bool fits = options.policy == SchedulePolicy::Greedy;
            if (!fits) {
                const double expected = static_cast<double>(next - rateFrom) / window * planTt;
                fits = planTt + planTi <= slo &&
                       (queued == 0 || t + planTt + planTi <= arrivals[head] + slo) &&
                       static_cast<double>(queued) + expected <= static_cast<double>(batch);
            }
            if (fits) {
                const double seconds = jittered(tt);
                record(TimelineSegment::Kind::Training, t, t + seconds, 0);
                stats.energyJoules += seconds * costs.trainingWatts;
                trainingTime += seconds;
                ++stats.minibatches;
                t += seconds;
                continue;
            }
        }

        // idle until something changes: an arrival, the oldest request's latest start, the rate window
        // forgetting an arrival (adaptive), or the end of the window
        double until = std::numeric_limits<double>::infinity();
        if (next < n) until = arrivals[next];
        until = std::min(until, latestStart);
        if (options.policy == SchedulePolicy::Adaptive && rateFrom < next)
            until = std::min(until, arrivals[rateFrom] + window);
        if (queued == 0 && next == n) {
            if (t >= options.durationSeconds) break;
            until = std::min(until, options.durationSeconds);
        }
        if (!std::isfinite(until)) break;
        if (until < t) until = t;
        if (until > t) record(TimelineSegment::Kind::Idle, t, until, 0);
        stats.energyJoules += (until - t) * costs.idleWatts;
        t = std::max(until, std::nextafter(t, std::numeric_limits<double>::infinity()));
    }

    stats.seconds = std::max(t, options.durationSeconds);
    if (t < stats.seconds) stats.energyJoules += (stats.seconds - t) * costs.idleWatts;
    stats.violationPct =
        n ? 100.0 * static_cast<double>(stats.late + stats.dropped) / static_cast<double>(n) : 0.0;
    stats.p50Ms = 1e3 * percentile(latencies, 0.50);
    stats.p99Ms = 1e3 * percentile(latencies, 0.99);
    stats.minibatchesPerSecond = static_cast<double>(stats.minibatches) / stats.seconds;
    stats.averageWatts = stats.energyJoules / stats.seconds;
    stats.inferenceBusy = inferenceTime / stats.seconds;
    stats.trainingBusy = trainingTime / stats.seconds;
    return stats;
}

} // namespace rooftop
