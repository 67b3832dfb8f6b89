// SPDX-License-Identifier: GPL-3.0-or-later
// The measuring logic against the fake GPU backend: ceilings, dispatch overhead and % of theoretical at the
// measured clock, the fitted power model, and mode sweeps through a fake switcher — progress, cancel after
// mode 2, atomic per-mode saves and a rerun that resumes without measuring again, modes needing a reboot
// skipped, the original mode restored. `rooftop bench` without a CUDA device exits 2 and writes nothing.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/microbench/bench_session.h"
#include "core/microbench/fake_gpu_backend.h"
#include "core/platform/restore_journal.h"
#include "support/cli_runner.h"
#include "support/compare.h"
#include "support/device_fixtures.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using rooftop::test::runRooftop;
using rooftop::test::shippedAgxOrin;

namespace {

BenchSettings fastSettings() {
    BenchSettings s;
    s.samples = 3;
    s.batchSeconds = 0.01;
    s.powerWindowSeconds = 1.0;
    s.idleSeconds = 2.0;
    s.intensities = {1, 8, 64};
    return s;
}

/// A switcher that only records: the "board" follows whatever it is told, TPC mask fixed at 0 (8 TPCs).
class FakeSwitcher final : public ModeSwitcher {
public:
    std::optional<int> currentStockId() override { return stock; }
    ObservedClocks observe() override { return clocks; }
    void setStockMode(int id) override {
        log.push_back("stock " + std::to_string(id));
        stock = id;
        const StockMode& m = *shippedAgxOrin().stockMode(id);
        clocks.gpuMaxHz = m.gpuMaxHz;
        clocks.cpuMaxKhz = m.cpuMaxKhz;
        clocks.onlineCores = m.onlineCores;
    }
    void setClocks(const PowerMode& mode) override {
        log.push_back("clocks " + mode.name);
        stock = 99; // a custom mode is no stock mode
        clocks.gpuMaxHz = clocks.gpuMinHz = clocks.gpuHz = mode.gpuHz;
        clocks.cpuMaxKhz = clocks.cpuMinKhz = clocks.cpuKhz = mode.cpuKhz;
        clocks.emcHz = mode.emcHz;
        clocks.onlineCores = mode.onlineCores;
    }
    void releaseClocks() override { log.push_back("release"); }

    std::optional<int> stock = 0;
    ObservedClocks clocks = [] {
        ObservedClocks c;
        c.onlineCores = 12;
        c.gpuMaxHz = 1300500000;
        c.cpuMaxKhz = 2201600;
        c.tpcPgMask = 0;
        return c;
    }();
    std::vector<std::string> log;
};

std::vector<PowerMode> threeCustomModes() {
    return {parseCustomMode(shippedAgxOrin(), "cores=12,cpu=2201600,gpu=1300500000,emc=3199000000"),
            parseCustomMode(shippedAgxOrin(), "cores=8,cpu=1728000,gpu=612000000,emc=3199000000"),
            parseCustomMode(shippedAgxOrin(), "cores=4,cpu=729600,gpu=306000000,emc=665600000")};
}

} // namespace

class MicrobenchSweep : public QObject {
    Q_OBJECT
private slots:
    void runnerMeasuresTheFakeRoofs() {
        FakeGpuModel model;
        model.otherFlopEnergyRatio =
            0.3; // FP16 / tensor windows cost less per op: they must stay out of the fit
        FakeGpuBackend gpu(model);
        FakeEnergyMeter meter(gpu);
        BenchRunner runner(gpu, &meter, fastSettings());
        const PowerMode maxn = powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(0));
        const auto measured = runner.measure(shippedAgxOrin(), maxn, 3199000000, nullptr);
        QVERIFY(measured.has_value());
        // each launch takes work / roof + launch cost; the best batch gives exactly work / that
        const double fp32 =
            model.flopsPerLaunch / (model.flopsPerLaunch / model.fp32Flops + model.launchSeconds);
        QVERIFY(qFuzzyCompare(measured->peakFlops[0], fp32));
        QVERIFY(qFuzzyCompare(measured->peakFlops[2],
                              model.flopsPerLaunch /
                                  (model.flopsPerLaunch / model.tensorFp16Flops + model.launchSeconds)));
        const double triad =
            3 * model.bytesPerLaunch / (3 * model.bytesPerLaunch / model.bandwidth + model.launchSeconds);
        QVERIFY(qFuzzyCompare(measured->triadBandwidth, triad));
        QVERIFY(qFuzzyCompare(measured->bandwidth, triad)); // the best pattern
        QVERIFY(qFuzzyCompare(measured->dispatchSeconds, model.launchSeconds));
        QCOMPARE(measured->observedGpuHz, int64_t(1300500000));
        // % of theoretical at the measured clock: 2 x 2048 cores x 1.3005 GHz
        QVERIFY(qFuzzyCompare(measured->percentOfTheoretical.at("fp32_flops"),
                              100.0 * fp32 / (2.0 * 2048 * 1300500000.0)));
        QVERIFY(qFuzzyCompare(measured->percentOfTheoretical.at("bandwidth"),
                              100.0 * triad / (3199000000.0 * 2 * 32)));
        // the fit recovers the simulated energy model exactly
        QVERIFY(measured->power.has_value());
        COMPARE_REL_TOL(measured->power->constantPower.value, model.constantWatts, 1e-6);
        COMPARE_REL_TOL(measured->power->energyPerFlop.value, model.joulesPerFlop, 1e-6);
        COMPARE_REL_TOL(measured->power->energyPerByte.value, model.joulesPerByte, 1e-6);
        QVERIFY(measured->power->rSquared > 0.999999);
        QCOMPARE(measured->power->tensorFlopEnergyRatio, shippedAgxOrin().energy.tensorFlopEnergyRatio);
        QCOMPARE(measured->power->constantPower.provenance, Provenance::Fitted);
        // samples: the idle baseline first, then one window per kernel (no empty launch, no write)
        QCOMPARE(QString::fromStdString(measured->samples.front().kernel), QString("idle"));
        QVERIFY(qFuzzyCompare(measured->samples.front().joules, model.constantWatts * 2.0));
        QCOMPARE(int(measured->samples.size()), 1 + 7 + 3);
        for (const auto& s : measured->samples)
            QVERIFY(s.seconds >= (s.kernel == "idle" ? 2.0 : 1.0));
    }

    void runnerWithoutPowerHasNoModel() {
        FakeGpuBackend gpu;
        BenchRunner runner(gpu, nullptr, fastSettings());
        const auto measured = runner.measure(
            shippedAgxOrin(), powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(0)), 0, nullptr);
        QVERIFY(measured.has_value());
        QVERIFY(!measured->power.has_value());
        QVERIFY(measured->samples.empty());
        QVERIFY(measured->peakFlops[0] > 0);
    }

    void runnerCancels() {
        FakeGpuBackend gpu;
        std::atomic<bool> cancel{false};
        gpu.onRun = [&](const KernelParams& p) {
            if (p.kind == KernelKind::DramRead) cancel = true;
        };
        BenchRunner runner(gpu, nullptr, fastSettings());
        QVERIFY(!runner.measure(shippedAgxOrin(),
                                powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(0)), 0, &cancel));
    }

    void sweepResumesAfterCancel() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("orin.json").toStdString();
        const auto modes = threeCustomModes();
        FakeGpuBackend gpu;
        FakeEnergyMeter meter(gpu);
        FakeSwitcher switcher;
        RestoreJournal journal(dir.filePath("journal").toStdString());
        SweepEnvironment env;
        env.gpu = &gpu;
        env.meter = &meter;
        env.switcher = &switcher;
        env.journal = &journal;
        std::vector<double> settles;
        env.sleep = [&](double s) { settles.push_back(s); };
        SweepOptions options;
        options.outPath = out;
        options.settleSeconds = 3.0;
        options.bench = fastSettings();
        options.header.boardModel = "NVIDIA Jetson AGX Orin Developer Kit";

        std::atomic<bool> cancel{false};
        std::vector<SweepProgress> seen;
        const SweepOutcome first = runModeSweep(
            shippedAgxOrin(), modes, env, options,
            [&](const SweepProgress& p) {
                seen.push_back(p);
                if (p.phase == "saved" && p.modeIndex == 1) cancel = true; // interrupt after mode 2
            },
            &cancel);
        QVERIFY(first.cancelled);
        QCOMPARE(first.measured, (std::vector<std::string>{modes[0].name, modes[1].name}));
        QCOMPARE(settles, (std::vector<double>{3.0, 3.0}));
        // each mode saved at once; the original mode restored; the journal gone
        MeasuredProfile saved = loadMeasuredProfile(out);
        QCOMPARE(int(saved.modes.size()), 2);
        QCOMPARE(QString::fromStdString(saved.deviceId), QString("agx-orin-64gb"));
        QCOMPARE(QString::fromStdString(saved.boardModel), QString("NVIDIA Jetson AGX Orin Developer Kit"));
        QCOMPARE(saved.modes[1].observedCpuKhz, int64_t(1728000));
        QCOMPARE(switcher.stock, std::optional<int>(0));
        QCOMPARE(switcher.log.back(), std::string("stock 0"));
        QVERIFY(!journal.pending());
        // progress: fractions never go back, the ETA is known once work is done
        for (size_t i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i].fraction >= seen[i - 1].fraction - 1e-12);
        QVERIFY(seen.back().etaSeconds >= 0);
        QCOMPARE(seen.front().modeCount, size_t(3));

        const int runsBefore = gpu.runs();
        switcher.log.clear();
        cancel = false;
        const SweepOutcome second = runModeSweep(shippedAgxOrin(), modes, env, options, {}, &cancel);
        QVERIFY(!second.cancelled);
        QCOMPARE(second.resumed, (std::vector<std::string>{modes[0].name, modes[1].name}));
        QCOMPARE(second.measured, (std::vector<std::string>{modes[2].name}));
        QCOMPARE(switcher.log, (std::vector<std::string>{"clocks " + modes[2].name, "release", "stock 0"}));
        saved = loadMeasuredProfile(out);
        QCOMPARE(int(saved.modes.size()), 3);
        QVERIFY(findMeasuredMode(saved, modes[2]));
        const int perMode = gpu.runs() - runsBefore;
        // a third run has nothing to do and runs no kernel
        const SweepOutcome third = runModeSweep(shippedAgxOrin(), modes, env, options, {}, nullptr);
        QCOMPARE(int(third.resumed.size()), 3);
        QVERIFY(third.measured.empty());
        QCOMPARE(gpu.runs() - runsBefore, perMode);
    }

    void sweepSkipsRebootModes() {
        QTemporaryDir dir;
        FakeGpuBackend gpu;
        FakeSwitcher switcher;
        RestoreJournal journal(dir.filePath("journal").toStdString());
        SweepEnvironment env;
        env.gpu = &gpu;
        env.switcher = &switcher;
        env.journal = &journal;
        env.sleep = [](double) {};
        SweepOptions options;
        options.outPath = dir.filePath("p.json").toStdString();
        options.bench = fastSettings();
        const SweepOutcome outcome =
            runModeSweep(shippedAgxOrin(), stockPowerModes(shippedAgxOrin()), env, options, {}, nullptr);
        QCOMPARE(outcome.measured, (std::vector<std::string>{"MAXN", "MODE_50W"}));
        QCOMPARE(int(outcome.skipped.size()), 2);
        QCOMPARE(
            QString::fromStdString(outcome.skipped[0]),
            QString("MODE_15W: needs a reboot: it runs 3 TPCs, the GPU has 8 powered now (TPC mask change)"));
        QCOMPARE(switcher.stock, std::optional<int>(0));
    }

    void sweepRefusesOtherDevicesProfile() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("p.json").toStdString();
        MeasuredProfile other;
        other.deviceId = "orin-nano-8gb";
        saveMeasuredProfile(other, out);
        FakeGpuBackend gpu;
        SweepEnvironment env;
        env.gpu = &gpu;
        SweepOptions options;
        options.outPath = out;
        try {
            runModeSweep(shippedAgxOrin(), {threeCustomModes()[0]}, env, options, {}, nullptr);
            QFAIL("no error");
        } catch (const InputError& error) {
            QCOMPARE(QString(error.what()),
                     QString::fromStdString(out + " is a profile of 'orin-nano-8gb', not 'agx-orin-64gb'"));
        }
        QCOMPARE(gpu.runs(), 0);
        // more than one mode without a switcher is impossible
        QVERIFY_EXCEPTION_THROWN(
            runModeSweep(shippedAgxOrin(), threeCustomModes(), env, options, {}, nullptr), UnavailableError);
    }

    void benchModes() {
        QCOMPARE(int(modesFor(shippedAgxOrin(), "stock", std::nullopt).size()), 4);
        QCOMPARE(modesFor(shippedAgxOrin(), "current", 3).front().name, std::string("MODE_50W"));
        // MAXN's grid twin (its clocks, cores and TPCs) is listed once, as MAXN
        QCOMPARE(int(modesFor(shippedAgxOrin(), "all", std::nullopt).size()),
                 int(4 + gridPowerModes(shippedAgxOrin()).size() - 1));
        const auto list =
            modesFor(shippedAgxOrin(), "MAXN;cores=8,cpu=1728000,gpu=612000000,emc=3199000000", std::nullopt);
        QCOMPARE(int(list.size()), 2);
        QCOMPARE(list[1].name, std::string("c8-cpu1728-gpu612-emc3199"));
        QVERIFY_EXCEPTION_THROWN(modesFor(shippedAgxOrin(), "current", std::nullopt), UnavailableError);
        QVERIFY_EXCEPTION_THROWN(modesFor(shippedAgxOrin(), "current", 42), UnavailableError);
        QVERIFY_EXCEPTION_THROWN(modesFor(shippedAgxOrin(), "cores=8,cpu=1,gpu=2,emc=3", std::nullopt),
                                 InputError);
        QVERIFY_EXCEPTION_THROWN(modesFor(shippedAgxOrin(), ";", std::nullopt), InputError);
    }

    void secondSessionRefusedWhileLocked() {
        QTemporaryDir dir;
        RestoreJournal journal(dir.filePath("state/journal").toStdString());
        {
            const auto first = lockBenchSession(journal); // a running sweep holds it
            QVERIFY(first && first->held());
            try {
                lockBenchSession(journal);
                QFAIL("a second session took the lock");
            } catch (const UnavailableError& error) {
                QVERIFY(QString::fromUtf8(error.what()).contains("another rooftop bench is running"));
            }
            QVERIFY(!JournalLock(journal.path()).held());
        }
        QVERIFY(JournalLock(journal.path()).held()); // released with the session
    }

    void interruptedModeNotRestoredWhileLocked() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        const test::ScopedEnv journalPath("ROOFTOP_MODE_JOURNAL", QByteArray::fromStdString(path));
        RestoreJournal journal(path);
        journal.record(2); // the running sweep's journal
        bool restored = true;
        {
            const JournalLock running(path);
            QVERIFY(running.held());
            restored = restoreInterruptedMode(); // must not touch the running sweep's mode
        }
        QVERIFY(!restored);
        QCOMPARE(journal.pending(), std::optional<int>(2));
    }

    void cliWithoutCudaDeviceExits2() {
        const test::ScopedEnv noDevice("CUDA_VISIBLE_DEVICES", "-1"); // no device even where a GPU is present
        QTemporaryDir dir;
        const QString out = dir.filePath("profile.json");
        const auto result = runRooftop({"bench", "--modes", "stock", "--out", out});
        QVERIFY(!result.crashed);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.startsWith("rooftop: error: bench: ") &&
                     result.err.trimmed().endsWith("nothing was measured or changed"),
                 qPrintable(result.err));
        QCOMPARE(result.err.count('\n'), 1);
        QVERIFY(!QFile::exists(out));
        std::string reason;
        QVERIFY(!benchAvailable(&reason));
        QVERIFY(!reason.empty());
    }

    void cliBadArguments() {
        const auto unknown = runRooftop({"bench", "--frobnicate"});
        QCOMPARE(unknown.exitCode, 1);
        QCOMPARE(
            unknown.err.trimmed(),
            QString(
                "rooftop: error: bench: unknown option '--frobnicate' (rooftop bench --help lists them)"));
        // a near miss names the option meant
        const auto typo = runRooftop({"bench", "--quik"});
        QCOMPARE(typo.exitCode, 1);
        QVERIFY2(typo.err.contains("unknown option '--quik' (did you mean --quick? "), qPrintable(typo.err));
        const auto stray = runRooftop({"bench", "extra"});
        QCOMPARE(stray.exitCode, 1);
        // bad input is bad input (exit 1) before the GPU is looked for (exit 2 when there is none)
        const auto badModes = runRooftop({"bench", "--device", "agx-orin-64gb", "--modes", "foo"});
        QCOMPARE(badModes.exitCode, 1);
        QVERIFY2(badModes.err.contains("unknown mode 'foo' for agx-orin-64gb"), qPrintable(badModes.err));
        QCOMPARE(runRooftop({"bench", "--device", "no-such-board"}).exitCode, 1);
        const auto help = runRooftop({"bench", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--modes"));
    }
};

ROOFTOP_TEST_CLASS(MicrobenchSweep)
#include "test_microbench_sweep.moc"
