// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/microbench/mode_sweep.h"

#include "core/common/errors.h"

#include <QFileInfo>
#include <chrono>
#include <thread>

namespace rooftop {

SweepOutcome runModeSweep(const DeviceSpec& device, const std::vector<PowerMode>& modes,
                          const SweepEnvironment& env, const SweepOptions& options,
                          const SweepProgressCallback& progress, const std::atomic<bool>* cancel) {
    if (!env.gpu) throw UnavailableError("no GPU backend");
    if (!env.switcher && modes.size() > 1)
        throw UnavailableError(
            "measuring more than the current mode needs mode switching (a Jetson and the helper)");
    if (env.switcher && !env.journal) throw UnavailableError("mode switching needs a restore journal");
    if (options.outPath.empty()) throw InputError("bench: no output file");

    MeasuredProfile profile = options.header;
    profile.deviceId = device.id;
    if (QFileInfo::exists(QString::fromStdString(options.outPath))) {
        profile = loadMeasuredProfile(options.outPath);
        if (profile.deviceId != device.id)
            throw InputError(options.outPath + " is a profile of '" + profile.deviceId + "', not '" +
                             device.id + "'");
    }

    const auto steady = [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
    const auto now = env.now ? env.now : std::function<double()>(steady);
    const auto sleep = env.sleep ? env.sleep : std::function<void(double)>([](double s) {
        std::this_thread::sleep_for(std::chrono::duration<double>(s));
    });

    SweepOutcome outcome;
    outcome.outPath = options.outPath;
    std::vector<size_t> todo;
    for (size_t i = 0; i < modes.size(); ++i) {
        if (findMeasuredMode(profile, modes[i]))
            outcome.resumed.push_back(modes[i].name);
        else
            todo.push_back(i);
    }

    std::unique_ptr<RestoreGuard> guard;
    if (env.switcher) guard = std::make_unique<RestoreGuard>(*env.switcher, *env.journal);
    BenchRunner runner(*env.gpu, env.meter, options.bench);
    const double start = now();
    size_t finished = 0;
    auto notify = [&](size_t k, const PowerMode& mode, const std::string& phase, double within) {
        if (!progress) return;
        SweepProgress p;
        p.modeIndex = todo[k];
        p.modeCount = modes.size();
        p.modeName = mode.name;
        p.phase = phase;
        const double total = static_cast<double>(todo.size());
        p.fraction = total > 0 ? (k + within) / total : 1.0;
        const double elapsed = now() - start;
        if (p.fraction > 0.0 && finished + within > 0.0)
            p.etaSeconds = elapsed / p.fraction * (1.0 - p.fraction);
        progress(p);
    };

    for (size_t k = 0; k < todo.size(); ++k) {
        if (cancel && cancel->load()) {
            outcome.cancelled = true;
            break;
        }
        const PowerMode& mode = modes[todo[k]];
        ObservedClocks clocks;
        if (env.switcher) {
            const std::string reboot = rebootReason(device, env.switcher->observe(), mode);
            if (!reboot.empty()) {
                outcome.skipped.push_back(mode.name + ": " + reboot);
                notify(k, mode, "skipped: " + reboot, 1.0);
                continue;
            }
            notify(k, mode, "switching", 0.0);
            guard->beforeChange();
            try {
                switchAndVerify(*env.switcher, mode);
            } catch (const UnavailableError& error) {
                outcome.skipped.push_back(mode.name + ": " + error.what());
                notify(k, mode, std::string("skipped: ") + error.what(), 1.0);
                continue;
            }
            notify(k, mode, "settling", 0.0);
            sleep(options.settleSeconds);
            clocks = env.switcher->observe();
        } else if (env.observe) {
            clocks = env.observe();
        }
        auto measured =
            runner.measure(device, mode, clocks.emcHz, cancel,
                           [&](const std::string& phase, double f) { notify(k, mode, phase, f); });
        if (!measured) {
            outcome.cancelled = true;
            break;
        }
        measured->observedCpuKhz = clocks.cpuKhz;
        if (measured->observedGpuHz == 0) measured->observedGpuHz = clocks.gpuHz;
        profile.modes.push_back(*measured);
        saveMeasuredProfile(profile, options.outPath);
        ++finished;
        outcome.measured.push_back(mode.name);
        notify(k, mode, "saved", 1.0);
    }
    if (guard) guard->restore(); // throws when the restore fails; the journal then stays for the next start
    return outcome;
}

} // namespace rooftop
