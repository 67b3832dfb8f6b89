// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/profile_sweep.h"

#include "core/common/errors.h"
#include "core/common/runner_name.h"
#include "core/common/text_format.h"
#include "core/measure/csv_append.h"
#include "core/measure/layers_file.h"
#include "core/measure/run_power.h"
#include "core/measure/runs_file.h"

#include <chrono>
#include <filesystem>
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
            for (Precision precision : options.precisions) {
                const RunConfig run{modes[m],          batch,      precision, options.phase, options.dims,
                                    options.optimizer, options.llm};
                int& have = done[runKey(run)];
                const int already = std::min(have, options.repeat);
                *resumed += static_cast<size_t>(already);
                have -= already; // a configuration listed twice does not count the same rows twice
                for (int r = already; r < options.repeat; ++r) {
                    plan.runs.push_back(run);
                    plan.runs.back().repeat = r;
                }
            }
        if (!plan.runs.empty()) plans.push_back(std::move(plan));
    }
    return plans;
}

// "batch 1 fp32: ok 17.910 ms, 23.10 W (simulated)": ms to the µs and W to 0.01, as tune's table writes them
std::string describe(const RunConfig& config, const RunResult& result, const std::string& runner) {
    const std::string what = "batch " + std::to_string(config.batch) + " " + precisionName(config.precision);
    if (!result.ok) return what + ": failed: " + result.failure;
    const std::string watts = result.powerW ? ", " + fixed(*result.powerW, 2) + " W" : std::string();
    std::string notes = isSimulatedRunner(runner) ? "simulated" : std::string();
    if (!result.note.empty()) notes += (notes.empty() ? "" : "; ") + result.note;
    const std::string said = notes.empty() ? std::string() : " (" + notes + ")";
    if (result.llm)
        return what + ": ok TTFT " + fixed(result.llm->ttftMs, 3) + " ms, TPOT " +
               fixed(result.llm->tpotMs, 3) + " ms" + watts + said;
    return what + ": ok " + fixed(result.latencyMs, 3) + " ms" + watts + said;
}

/// The sidecar of the runs file; a stale one is dropped when the runs file has no rows yet, and the layer
/// rows of runs the runs file does not have (a kill after the layer rows, before the run's row) otherwise.
std::string layersSidecar(const std::string& runsPath, const std::vector<RunRow>& runs,
                          const std::map<std::string, int>& okCounts) {
    const std::string path = layersPathFor(runsPath);
    std::error_code error;
    if (runs.empty() && isLayersHeader(firstLine(path))) std::filesystem::remove(path, error);
    if (!runs.empty())
        dropLayerRowsWithoutRun(path, [&](const LayerRow& layer) {
            const auto found =
                okCounts.find(runKey(layer.mode, layer.batch, layer.precision, layer.phase, layer.dims));
            return found != okCounts.end() && layer.repeat <= found->second;
        });
    return path;
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
    std::vector<RunRow> existing = readRunsFile(options.outPath); // refused before anything changes
    if (!options.model.empty()) checkRunsAreOf(existing, options.outPath, options.model);
    RunsFileWriter writer(options.outPath);
    existing = readRunsFile(options.outPath); // now locked: what another rooftop appended before is counted
    if (!options.model.empty()) checkRunsAreOf(existing, options.outPath, options.model);
    writer.checkTakes(options.dims, options.phase, options.optimizer, options.llm.active());
    std::map<std::string, int> okCounts = okRunCounts(existing);
    const std::vector<ModePlan> plans = planRuns(modes, options, okCounts, &outcome.resumed);
    size_t planned = 0;
    for (const ModePlan& plan : plans)
        planned += plan.runs.size();
    const std::string layersPath = layersSidecar(options.outPath, existing, okCounts);
    std::unique_ptr<LayersFileWriter> layers; // opened at the first run with a layer profile
    std::unique_ptr<RunPowerMeter> meter;
    if (env.power) {
        meter = std::make_unique<RunPowerMeter>(env.power, env.powerPeriod, env.powerReadTimeout);
        outcome.powerSource = env.power->description();
    }

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
        std::optional<double> idle;
        if (meter) {
            if (!env.switcher) { // the previous run's heat and the sensor's running average settle first
                notify(plan, "settling");
                sleep(options.settleSeconds);
            }
            notify(plan, "measuring idle power");
            idle = meter->idleWatts(options.idleSeconds, cancel);
            outcome.idle.push_back(ModeIdle{mode.name, idle, options.idleSeconds});
            if (meter->timedOut()) {
                ++outcome.powerTimeouts;
                notify(plan, "idle power: power read timed out");
            }
        }
        for (const RunConfig& config : plan.runs) {
            if (cancel && cancel->load()) {
                outcome.cancelled = true;
                break;
            }
            bool measured = false;
            const RunResult result = runMeasured(device, *env.runner, config, meter.get(), cancel, &measured);
            if (cancel && cancel->load() && !result.ok) { // killed by the cancel: no row, a rerun runs it
                outcome.cancelled = true;
                break;
            }
            RunRow row = runRowFrom(config, result, env.runner->name(), "profile");
            if (result.ok && measured) row.idleW = idle;
            row.model = options.model;
            // the layer rows first: a kill before the run's row leaves rows of no run, dropped at the next
            // start, where the other order left a run whose layer rows a resume numbered again
            const int repeat = result.ok ? ++okCounts[runKey(config)] : 0;
            if (result.ok && !result.layers.empty()) {
                if (!layers) layers = std::make_unique<LayersFileWriter>(layersPath);
                outcome.layersPath = layersPath;
                layers->append(config, repeat, result.layers);
            } else if (result.ok && result.note.find("no layer profile") != std::string::npos) {
                ++outcome.missingLayers;
            }
            writer.append(row);
            if (meter && meter->timedOut() && result.ok && !result.powerW && !result.energyJ)
                ++outcome.powerTimeouts; // Rooftop's reading, which this run needed, was given up
            ++(result.ok ? outcome.ok : outcome.failed);
            ++finished;
            notify(plan, describe(config, result, env.runner->name()));
        }
        if (outcome.cancelled) break;
    }
    if (guard) guard->restore(); // throws when the restore fails; the journal then stays for the next start
    return outcome;
}

} // namespace rooftop
