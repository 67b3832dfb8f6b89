// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/learn_points.h"

#include <map>

namespace rooftop {

std::vector<LearnPoint> learnPoints(const DeviceSpec& device, const RuntimeProfile& runtime,
                                    const std::vector<MeasuredRun>& runs, const WorkloadLookup& workload) {
    // One sweep per (batch, precision): the features of all its runs at once.
    std::map<std::pair<int64_t, Precision>, std::vector<size_t>> groups;
    for (size_t i = 0; i < runs.size(); ++i)
        groups[{runs[i].batch, runs[i].precision}].push_back(i);
    std::vector<LearnPoint> points(runs.size());
    for (const auto& [key, members] : groups) {
        const Workload& counted = workload(key.first, key.second);
        std::vector<ModeProfile> profiles;
        profiles.reserve(members.size());
        for (size_t i : members)
            profiles.push_back(deriveModeProfile(device, runs[i].mode, runtime));
        const std::vector<ConfigFeatures> features =
            configFeatures(device, aggregateWorkload(counted, key.second), profiles,
                           featureSummaries(counted, profiles), learnerClockScale);
        for (size_t j = 0; j < members.size(); ++j) {
            const MeasuredRun& run = runs[members[j]];
            LearnPoint& p = points[members[j]];
            p.mode = run.mode;
            p.batch = run.batch;
            p.precision = run.precision;
            p.features = features[j];
            p.latencySeconds = run.latencySeconds;
            p.watts = run.watts;
            p.runner = run.runner;
        }
    }
    return points;
}

} // namespace rooftop
