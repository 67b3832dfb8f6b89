// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/profile_sweep.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/measure/runs_file.h"

#include <chrono>
#include <map>
#include <memory>
#include <thread>

namespace rooftop {

namespace {

/// The runs one mode still needs.
struct ModePlan {
    size_t modeIndex = 0;
    std::vector<RunConfig> runs;
};

std::vector<ModePlan> planRuns(const std::vector<PowerMode>& modes, const ProfileOptions& options,
                               std::map<std::string, int> done, size_t* resumed) {
    std::vector<ModePlan> plans;
    for (size_t m = 0; m < modes.size(); ++m) {
        ModePlan plan;
        plan.modeIndex = m;
        for (int64_t batch : options.batches)
            for (const std::string& precision : options.precisions) {
                int& have = done[runKey(modes[m].name, batch, precision, options.phase)];
                const int already = std::min(have, options.repeat);
                *resumed += static_cast<size_t>(already);
                have -= already; // a configuration listed twice does not count the same rows twice
                for (int r = already; r < options.repeat; ++r)
                    plan.runs.push_back(RunConfig{modes[m], batch, precision, options.phase});
            }
        if (!plan.runs.empty()) plans.push_back(std::move(plan));
    }
    return plans;
}

std::string describe(const RunConfig& config, const RunResult& result) {
    const std::string what = "batch " + std::to_string(config.batch) + " " + config.precision;
    return result.ok ? what + ": ok " + general(result.latencyMs, 4) + " ms"
                     : what + ": failed: " + result.failure;
}

} // namespace

ProfileOutcome runProfileSweep(const DeviceSpec& device, const std::vector<PowerMode>& modes,
                               const ProfileEnvironment& env, const ProfileOptions& options,
                               const ProfileProgressCallback& progress, const std::atomic<bool>* cancel) {
    if (!env.runner) throw InputError("profile: no runner");
    if (env.switcher && !env.journal) throw UnavailableError("mode switching needs a restore journal");
    if (options.outPath.empty()) throw InputError("profile: no runs file");
    if (options.batches.empty() || options.precisions.empty() || options.repeat < 1)
        throw InputError("profile: nothing to run (no batch, no precision or repeat < 1)");

    ProfileOutcome outcome;
    outcome.outPath = options.outPath;
    const std::vector<ModePlan> plans =
        planRuns(modes, options, okRunCounts(readRunsFile(options.outPath)), &outcome.resumed);
    size_t planned = 0;
    for (const ModePlan& plan : plans)
        planned += plan.runs.size();
    RunsFileWriter writer(options.outPath);

    const auto steady = [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
    const auto now = env.now ? env.now : std::function<double()>(steady);
    const auto sleep = env.sleep ? env.sleep : std::function<void(double)>([](double s) {
        std::this_thread::sleep_for(std::chrono::duration<double>(s));
    });
    const double start = now();
    size_t finished = 0; // runs done or skipped
    auto notify = [&](const ModePlan& plan, const std::string& phase) {
        if (!progress) return;
        ProfileProgress p;
        p.modeIndex = plan.modeIndex;
        p.modeCount = modes.size();
        p.modeName = modes[plan.modeIndex].name;
        p.phase = phase;
        p.runsDone = finished;
        p.runsPlanned = planned;
        p.fraction = planned > 0 ? static_cast<double>(finished) / static_cast<double>(planned) : 1.0;
        if (finished > 0)
            p.etaSeconds = (now() - start) / static_cast<double>(finished) * (planned - finished);
        progress(p);
    };

    std::unique_ptr<RestoreGuard> guard;
    if (env.switcher) guard = std::make_unique<RestoreGuard>(*env.switcher, *env.journal);
    for (const ModePlan& plan : plans) {
        if (cancel && cancel->load()) {
            outcome.cancelled = true;
            break;
        }
        const PowerMode& mode = modes[plan.modeIndex];
        if (env.switcher) {
            std::string why = rebootReason(device, env.switcher->observe(), mode);
            if (why.empty()) {
                notify(plan, "switching");
                guard->beforeChange(); // the mode in force unknown: nothing was changed, and nothing will be
                try {
                    switchAndVerify(*env.switcher, mode);
                } catch (const UnavailableError& error) {
                    why = error.what();
                }
            }
            if (!why.empty()) {
                outcome.skipped.push_back(mode.name + ": " + why);
                finished += plan.runs.size();
                notify(plan, "skipped: " + why);
                continue;
            }
            notify(plan, "settling");
            sleep(options.settleSeconds);
        }
        for (const RunConfig& config : plan.runs) {
            if (cancel && cancel->load()) {
                outcome.cancelled = true;
                break;
            }
            const RunResult result = env.runner->run(config, cancel);
            if (cancel && cancel->load() && !result.ok) { // killed by the cancel: no row, a rerun runs it
                outcome.cancelled = true;
                break;
            }
            writer.append(runRowFrom(config, result, env.runner->name()));
            ++(result.ok ? outcome.ok : outcome.failed);
            ++finished;
            notify(plan, describe(config, result));
        }
        if (outcome.cancelled) break;
    }
    if (guard) guard->restore(); // throws when the restore fails; the journal then stays for the next start
    return outcome;
}

} // namespace rooftop
