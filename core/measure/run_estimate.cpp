// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/run_estimate.h"

#include "core/common/errors.h"
#include "core/common/runner_name.h"
#include "core/common/text_format.h"
#include "core/device/mode_set.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

namespace {

std::string roughDuration(double seconds) {
    if (seconds < 60) return "under a minute";
    const double minutes = seconds / 60;
    if (minutes < 90) return "about " + std::to_string(std::lround(minutes)) + " min";
    return "about " + std::to_string(std::lround(minutes / 60)) + " h";
}

} // namespace

size_t RunEstimate::configurations() const {
    return modes ? *modes * batches * precisions : 0;
}

size_t RunEstimate::runs() const {
    const size_t all = configurations() * size_t(std::max(1, repeat));
    return budget ? std::min(all, size_t(std::max(0, *budget))) : all;
}

std::optional<size_t> modeSetSize(const DeviceSpec& device, const std::string& spec, uint64_t seed,
                                  std::string* why) {
    if (spec == "current") return 1;
    try {
        return modesFor(device, spec, std::nullopt, seed).size();
    } catch (const std::exception& error) { // InputError: a bad text; UnavailableError: "current" in a list
        if (why) *why = error.what();
        return std::nullopt;
    }
}

double typicalRunSeconds(const std::string& runner, bool switching) {
    const double settle = switching ? 3.0 : 0.0; // the profile's 2 s settle and 1 s idle baseline
    if (isSimulatedRunner(runner)) return 0.05;
    if (runner.rfind("command:", 0) == 0) return 10.0 + settle;
    return 20.0 + settle; // trtexec: a cached engine's load, 200 ms warm-up, 3 s timed window, its report
}

std::string describeRunEstimate(const RunEstimate& e) {
    const std::string perMode = countedNoun(e.batches, "batch", "batches") + " \u00d7 " +
                                countedNoun(e.precisions, "precision", "precisions");
    if (!e.modes) return perMode + " per mode" + (e.why.empty() ? "" : " (modes: " + e.why + ")");
    std::string text = countedNoun(*e.modes, "mode", "modes") + " \u00d7 " + perMode;
    if (e.repeat > 1) text += " \u00d7 " + std::to_string(e.repeat) + " repeats";
    const double seconds = double(e.runs()) * e.secondsPerRun;
    if (!e.budget) return text + " = " + countedNoun(e.runs(), "run", "runs") + ", " + roughDuration(seconds);
    return text + " = " + countedNoun(e.configurations(), "configuration", "configurations") + "; at most " +
           countedNoun(e.runs(), "run", "runs") + " (the budget), " + roughDuration(seconds);
}

} // namespace rooftop
