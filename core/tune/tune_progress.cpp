// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_progress.h"

#include "core/common/text_format.h"
#include "core/device/power_mode.h"

namespace rooftop {

std::string tuneSampleLine(const TuneOutcome& sofar, size_t index, const TuneSpace& space,
                           const TuneOptions& options, const std::string& provenance, bool readableModes) {
    const TuneSample& s = sofar.samples[index];
    const TuneConfig& c = space.configs[s.config];
    std::string text = std::to_string(index + 1) + ". " +
                       (readableModes ? readableModeName(c.mode) : c.mode.name) + " batch " +
                       std::to_string(c.batch) + " " + precisionName(c.precision) + ": ";
    if (!s.ok) return text + s.reason;
    text += general(s.latencyMs, 4) + (options.llm.active() ? " ms TPOT, " : " ms, ") + general(s.powerW, 4) +
            " W, " + general(s.energyMj, 4) + " mJ/" + energyItem(options) + " (" + provenance +
            (s.measurements > 1 ? ", mean of " + std::to_string(s.measurements) + " runs" : std::string()) +
            (s.resumed ? ", runs file" : "") + ")";
    if (!s.feasible) text += " — " + s.reason;
    return text;
}

std::optional<double> bestEnergySoFar(const TuneOutcome& sofar) {
    std::optional<double> best;
    for (const TuneSample& s : sofar.samples)
        if (s.feasible && (!best || s.energyMj < *best)) best = s.energyMj;
    return best;
}

std::string tuneProgressLine(const TuneOutcome& sofar, const TuneOptions& options,
                             const std::string& provenance) {
    const std::optional<double> best = bestEnergySoFar(sofar);
    return "Run " + std::to_string(sofar.samples.size()) + " of at most " + std::to_string(options.budget) +
           "; best so far within the limits: " +
           (best ? general(*best, 4) + " mJ per " + energyItem(options) + " (" + provenance + ")"
                 : "none yet");
}

} // namespace rooftop
