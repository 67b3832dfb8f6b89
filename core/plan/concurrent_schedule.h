// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// What each workload costs in one configuration (a power mode and an inference batch size).
struct ScheduleCosts {
    int64_t inferenceBatch = 1;  ///< requests per inference batch (a partial batch is padded: same time)
    double inferenceSeconds = 0; ///< one inference batch
    double inferenceWatts = 0;   ///< average power while it runs
    double trainingSeconds = 0;  ///< one training minibatch
    double trainingWatts = 0;    ///< average power while it runs
    double idleWatts = 0;        ///< the board with nothing running
};

/// When a training minibatch may run between inference batches.
enum class SchedulePolicy {
    Adaptive,     ///< only in a gap it fits in: every queued and expected request still meets its deadline
    Greedy,       ///< whenever no inference batch must start now (PolyThrottle's baseline)
    InferenceOnly ///< never: the inference stream alone
};

/// How the schedule is simulated.
struct ScheduleOptions {
    double sloSeconds = 0; ///< latency objective of one request, arrival to result
    SchedulePolicy policy = SchedulePolicy::Adaptive;
    double durationSeconds = 30;  ///< simulated window; minibatches start only inside it
    double rateWindowSeconds = 1; ///< adaptive: arrivals are expected at the rate seen over this window
    double jitter = 0.02;         ///< relative spread (log-normal sigma) of each execution's duration
    double planningMargin = 0.06; ///< the schedule plans with costs this much longer (3 sigma of jitter)
    uint64_t seed = 1;            ///< of the jitter
    double timelineFrom = 0;      ///< the timeline records executions and idle spells overlapping
    double timelineSeconds = 0;   ///< [timelineFrom, timelineFrom + timelineSeconds); 0: no timeline
};

/// One stretch of the board's time in the timeline.
struct TimelineSegment {
    enum class Kind { Inference, Training, Idle };
    Kind kind = Kind::Idle;
    double start = 0, end = 0; ///< seconds
    int requests = 0;          ///< inference: requests served by the batch
};

/// What a simulated schedule achieved.
struct ScheduleStats {
    int64_t requests = 0;        ///< arrivals in the window
    int64_t served = 0;          ///< requests that got a result
    int64_t late = 0;            ///< served after their deadline
    int64_t dropped = 0;         ///< never served: past (greedy) or predicted past (adaptive) their deadline
    double violationPct = 0;     ///< (late + dropped) / requests
    double p50Ms = 0, p99Ms = 0; ///< latency of the served requests (nearest rank)
    int64_t inferenceBatches = 0;
    int64_t minibatches = 0; ///< training minibatches completed
    double seconds = 0;      ///< simulated time: the window, or later when the last batch ended later
    double minibatchesPerSecond = 0;
    double energyJoules = 0;
    double averageWatts = 0;
    double inferenceBusy = 0, trainingBusy = 0; ///< shares of the simulated time
    std::vector<TimelineSegment> timeline;
};

/// Simulates one board that runs one workload at a time: requests (sorted arrival times, seconds) are served
/// first come first served in batches of costs.inferenceBatch; a batch starts when it is full or when its
/// oldest request would otherwise miss the SLO; training minibatches run in between as the policy allows.
/// Before a batch starts, requests already past their deadline are dropped (adaptive: also those the
/// costs predict will miss it). Each execution's duration is jittered; the schedule plans with the nominal
/// costs. Deterministic for the same inputs and seed.
ScheduleStats simulateSchedule(const std::vector<double>& arrivals, const ScheduleCosts& costs,
                               const ScheduleOptions& options);

} // namespace rooftop
