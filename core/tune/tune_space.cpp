// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_space.h"

#include "core/common/errors.h"
#include "core/measure/runs_file.h"

#include <map>

namespace rooftop {

std::string tuneKey(const TuneConfig& config, const std::map<std::string, int64_t>& dims, Phase phase,
                    Optimizer optimizer, const LlmRun& llm) {
    return runKey(config.mode.name, config.batch, config.precision, phase, dims, optimizer, llm);
}

TuneSpace buildTuneSpace(const DeviceSpec& device, const RuntimeProfile& runtime,
                         const std::vector<PowerMode>& modes, const std::vector<int64_t>& batches,
                         const std::vector<Precision>& precisions, const WorkloadLookup& workload) {
    if (modes.empty() || batches.empty() || precisions.empty())
        throw InputError("tune: nothing to search (no mode, batch or precision)");
    TuneSpace space;
    for (const PowerMode& mode : modes)
        for (int64_t batch : batches)
            for (Precision precision : precisions)
                space.configs.push_back(TuneConfig{mode, batch, precision});
    space.candidates = space.configs.size();
    const TuneConfig base{powerModeFrom(device, device.fastestStockMode()), batches.front(),
                          precisions.front()};
    space.baseline = space.configs.size();
    for (size_t i = 0; i < space.configs.size(); ++i)
        if (tuneKey(space.configs[i], {}) == tuneKey(base, {})) space.baseline = i;
    if (space.baseline == space.configs.size()) space.configs.push_back(base);

    // one roofline sweep per (batch, precision) over the modes it has; profiles derived once per mode
    std::map<std::string, ModeProfile> profileOf;
    std::map<std::pair<int64_t, Precision>, std::vector<size_t>> groups;
    for (size_t i = 0; i < space.configs.size(); ++i) {
        const TuneConfig& c = space.configs[i];
        if (!profileOf.count(c.mode.name))
            profileOf.emplace(c.mode.name, deriveModeProfile(device, c.mode, runtime));
        groups[{c.batch, c.precision}].push_back(i);
    }
    space.features.resize(space.configs.size());
    for (const auto& [key, members] : groups) {
        const Workload& counted = workload(key.first, key.second);
        std::vector<ModeProfile> profiles;
        profiles.reserve(members.size());
        for (size_t i : members)
            profiles.push_back(profileOf.at(space.configs[i].mode.name));
        const std::vector<ConfigFeatures> features =
            configFeatures(device, aggregateWorkload(counted, key.second), profiles,
                           sweepModes(counted, profiles), ClockScale::Linear);
        for (size_t j = 0; j < members.size(); ++j)
            space.features[members[j]] = features[j];
    }
    return space;
}

} // namespace rooftop
