// SPDX-License-Identifier: GPL-3.0-or-later
// Rooftop's own power during a profile sweep: a fake power source that the fake runner switches from idle to
// busy gives the recorded power_w (the average over the run's timed window, or the whole run) and idle_w (the
// mode's idle baseline); a runner's own power wins; a failing source leaves power "not measured" in a valid
// runs file; 14- and 15-column runs files read and resume in their own layout; the INA3221 rails of a fake
// Jetson tree feed the sweep through RailPowerSource and boardPowerSource.
#include "core/common/errors.h"
#include "core/device/power_plausibility.h"
#include "core/measure/profile_session.h"
#include "core/measure/profile_sweep.h"
#include "core/measure/run_power.h"
#include "core/measure/runs_file.h"
#include "core/microbench/energy_meter.h"
#include "core/platform/board_session.h"
#include "core/platform/power_rails.h"
#include "support/device_fixtures.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

using namespace rooftop;

namespace {

constexpr double idleWatts = 4.0;
constexpr double busyWatts = 12.5;

/// Power the test sets: idle until a runner makes it busy; `failing` makes every read fail.
class FakeSource final : public PowerSource {
public:
    std::string description() const override { return "fake rail"; }
    std::optional<double> readWatts() override {
        if (failing) return std::nullopt;
        ++reads;
        return watts.load();
    }
    std::atomic<double> watts{idleWatts};
    std::atomic<bool> failing{false};
    std::atomic<int> reads{0};
};

/// A source whose reads block (a stuck sysfs file, a hung NVML call) until release(), which the test calls at
/// its end; reads after that return 7 W.
class BlockingSource final : public PowerSource {
public:
    std::string description() const override { return "stuck rail"; }
    std::optional<double> readWatts() override {
        std::unique_lock<std::mutex> lock(mutex_);
        ++blocked;
        released_.wait(lock, [&] { return free_; });
        --blocked;
        return 7.0;
    }
    void release() {
        std::lock_guard<std::mutex> lock(mutex_);
        free_ = true;
        released_.notify_all();
    }
    int blockedReads() {
        std::lock_guard<std::mutex> lock(mutex_);
        return blocked;
    }

private:
    std::mutex mutex_;
    std::condition_variable released_;
    bool free_ = false;
    int blocked = 0;
};

/// Releases a BlockingSource however the test ends.
struct Release {
    ~Release() { source->release(); }
    std::shared_ptr<BlockingSource> source;
};

/// Makes the source busy for 40 ms per run, marking that as the timed window when `marks`; reports its own
/// power when `ownPower` is set.
class BusyRunner final : public Runner {
public:
    BusyRunner(FakeSource& source, bool marks) : source_(source), marks_(marks) {}
    RunResult run(const RunConfig&, const std::atomic<bool>*) override {
        // before the timed part: what a build would draw, which the window must leave out
        source_.watts = 30.0;
        std::this_thread::sleep_for(std::chrono::milliseconds(marks_ ? 20 : 0));
        source_.watts = busyWatts;
        if (marks_) beginTimed();
        std::this_thread::sleep_for(std::chrono::milliseconds(40));
        if (marks_) endTimed();
        source_.watts = idleWatts;
        RunResult r;
        r.ok = true;
        r.latencyMs = ownLatencyMs;
        r.p99Ms = 2.5;
        r.powerW = ownPower;
        return r;
    }
    std::string name() const override { return "busy"; }
    std::optional<double> ownPower;
    double ownLatencyMs = 2.0;

private:
    FakeSource& source_;
    bool marks_;
};

PowerMode stockMode(int id) {
    const DeviceSpec& orin = test::shippedAgxOrin();
    return powerModeFrom(orin, *orin.stockMode(id));
}

PowerMode maxnMode() {
    return stockMode(0);
}

struct Sweep {
    ProfileOutcome run(Runner& runner, PowerSource* power, int repeat = 2) {
        return run(runner, std::shared_ptr<PowerSource>(std::shared_ptr<PowerSource>(), power), repeat);
    }
    ProfileOutcome run(Runner& runner, std::shared_ptr<PowerSource> power, int repeat,
                       std::vector<PowerMode> modes = {maxnMode()}) {
        ProfileEnvironment env;
        env.runner = &runner;
        env.power = std::move(power);
        env.powerReadTimeout = std::chrono::milliseconds(200);
        env.powerPeriod = std::chrono::milliseconds(1);
        env.sleep = [](double) {};
        ProfileOptions options;
        options.outPath = path();
        options.repeat = repeat;
        options.idleSeconds = 0.05;
        return runProfileSweep(test::shippedAgxOrin(), modes, env, options, nullptr, nullptr);
    }
    std::string path() const { return dir.filePath("runs.csv").toStdString(); }
    QStringList lines() const {
        QFile file(dir.filePath("runs.csv"));
        return file.open(QIODevice::ReadOnly)
                   ? QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts)
                   : QStringList();
    }
    QTemporaryDir dir;
};

void writeFile(const std::string& path, const std::string& text) {
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.data(), static_cast<qint64>(text.size()));
}

const std::string legacyRow = "MAXN,12,2201600,1300500000,3199000000,1,fp32,inference,2,2.5,9,18,ok,busy";

} // namespace

class ProfilePower : public QObject {
    Q_OBJECT
private slots:
    void timedWindowPowerAndIdleBaseline() {
        Sweep sweep;
        FakeSource source;
        BusyRunner runner(source, true);
        const ProfileOutcome outcome = sweep.run(runner, &source);
        QCOMPARE(outcome.ok, size_t(2));
        QCOMPARE(outcome.powerSource, std::string("fake rail"));
        QCOMPARE(outcome.idle.size(), size_t(1));
        QCOMPARE(outcome.idle[0].mode, maxnMode().name);
        QVERIFY(outcome.idle[0].watts);
        QVERIFY(std::abs(*outcome.idle[0].watts - idleWatts) < 1e-9);
        QCOMPARE(outcome.idle[0].seconds, 0.05);
        const std::vector<RunRow> rows = readRunsFile(sweep.path());
        QCOMPARE(rows.size(), size_t(2));
        for (const RunRow& row : rows) {
            // the window holds only busy readings: the 30 W before it and the idle after it are left out
            QVERIFY2(row.powerW && std::abs(*row.powerW - busyWatts) < 1e-9,
                     qPrintable(QString::number(row.powerW.value_or(-1))));
            QVERIFY(row.idleW && std::abs(*row.idleW - idleWatts) < 1e-9);
            QVERIFY(std::abs(row.energyMj.value() - busyWatts * 2.0) < 1e-6); // W x ms = mJ
        }
        QCOMPARE(sweep.lines().front(), QString(runsHeader()));
        QVERIFY(sweep.lines().front().endsWith(
            ",idle_w,model,dims,origin,optimizer,prompt,generate,ttft_ms,tpot_ms"));
    }

    void withoutAWindowTheWholeRunIsTimed() {
        Sweep sweep;
        FakeSource source;
        BusyRunner runner(source, false);
        sweep.run(runner, &source, 1);
        const RunRow row = readRunsFile(sweep.path()).at(0);
        // 40 ms busy; at most the first reading (1 ms period) can still be the 30 W set at the start of run()
        QVERIFY2(row.powerW && std::abs(*row.powerW - busyWatts) < 1.5,
                 qPrintable(QString::number(row.powerW.value_or(-1))));
        QVERIFY(std::abs(row.idleW.value() - idleWatts) < 1e-9);
    }

    void runnersOwnPowerWins() {
        Sweep sweep;
        FakeSource source;
        BusyRunner runner(source, true);
        runner.ownPower = 33.0;
        sweep.run(runner, &source, 1);
        const RunRow row = readRunsFile(sweep.path()).at(0);
        QCOMPARE(row.powerW.value(), 33.0);
        QVERIFY(!row.idleW); // the idle baseline is Rooftop's: not set beside another source's power
        QCOMPARE(row.energyMj.value(), 66.0);
    }

    void failingSourceIsNotMeasured() {
        Sweep sweep;
        FakeSource source;
        source.failing = true;
        BusyRunner runner(source, true);
        const ProfileOutcome outcome = sweep.run(runner, &source);
        QCOMPARE(outcome.ok, size_t(2));
        QCOMPARE(outcome.idle.size(), size_t(1));
        QVERIFY(!outcome.idle[0].watts);
        const std::vector<RunRow> rows = readRunsFile(sweep.path()); // still a valid runs file
        QCOMPARE(rows.size(), size_t(2));
        for (const RunRow& row : rows) {
            QVERIFY(row.ok());
            QVERIFY(!row.powerW);
            QVERIFY(!row.energyMj);
            QVERIFY(!row.idleW);
        }
    }

    void noSourceNoSampling() {
        Sweep sweep;
        FakeSource source;
        BusyRunner runner(source, true);
        const ProfileOutcome outcome = sweep.run(runner, nullptr, 1);
        QVERIFY(outcome.idle.empty());
        QVERIFY(outcome.powerSource.empty());
        QCOMPARE(source.reads.load(), 0);
        QVERIFY(!readRunsFile(sweep.path()).at(0).powerW);
    }

    void legacyFileResumesIn14Columns() {
        Sweep sweep;
        writeFile(sweep.path(), std::string(legacyRunsHeader()) + "\n" + legacyRow + "\n");
        FakeSource source;
        BusyRunner runner(source, true);
        const ProfileOutcome outcome = sweep.run(runner, &source, 2);
        QCOMPARE(outcome.resumed, size_t(1));
        QCOMPARE(outcome.ok, size_t(1));
        const QStringList lines = sweep.lines();
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QString(legacyRunsHeader()));
        QCOMPARE(lines[2].count(','), 13); // 14 fields: the file keeps one layout
        const std::vector<RunRow> rows = readRunsFile(sweep.path());
        QCOMPARE(rows.size(), size_t(2));
        QVERIFY(std::abs(rows[1].powerW.value() - busyWatts) < 1e-9); // measured; its idle has no column here
        QVERIFY(!rows[1].idleW);
    }

    void readsBothLayouts() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.csv").toStdString();
        writeFile(path, std::string(legacyRunsHeader()) + "\n" + legacyRow + "\n");
        QCOMPARE(readRunsFile(path).size(), size_t(1));
        QVERIFY(!readRunsFile(path)[0].idleW);
        writeFile(path, std::string(idleRunsHeader()) + "\n" + legacyRow + ",3.25\n" + legacyRow + ",\n");
        const std::vector<RunRow> rows = readRunsFile(path);
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].idleW.value(), 3.25);
        QVERIFY(!rows[1].idleW);
        QCOMPARE(QString::fromStdString(formatRunRow(rows[0], 15)),
                 QString::fromStdString(legacyRow + ",3.25"));
        QCOMPARE(QString::fromStdString(formatRunRow(rows[0])),
                 QString::fromStdString(legacyRow + ",3.25,,,,,,,,"));
        QCOMPARE(QString::fromStdString(formatRunRow(rows[0], 14)), QString::fromStdString(legacyRow));
    }

    void badIdleOrMixedLayoutsAreRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString h15 = QString(idleRunsHeader()) + "\n";
        const QString h14 = QString(legacyRunsHeader()) + "\n";
        const QString row = QString::fromStdString(legacyRow);
        QTest::newRow("negative idle") << h15 + row + ",-1\n"
                                       << ":2: field 'idle_w'";
        QTest::newRow("text idle") << h15 + row + ",idle\n"
                                   << ":2: field 'idle_w'";
        QTest::newRow("14 fields under 15") << h15 + row + "\n"
                                            << ":2: expected 15 fields, got 14";
        QTest::newRow("15 fields under 14") << h14 + row + ",3\n"
                                            << ":2: expected 14 fields, got 15";
        QTest::newRow("16 fields under 15") << h15 + row + ",3,m.onnx@00\n"
                                            << ":2: expected 15 fields, got 16";
        QTest::newRow("19 columns") << QString(runsHeader()) + ",extra\n"
                                    << ":1: not a runs file";
    }
    void badIdleOrMixedLayoutsAreRefused() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.csv").toStdString();
        writeFile(path, text.toStdString() + "MAXN,1,1,1,1,1,fp32,inference,,,,,failed: x,busy,\n");
        try {
            readRunsFile(path);
            QFAIL("accepted");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains(message), error.what());
        }
    }

    void writerRefusesAnotherHeader() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.csv").toStdString();
        writeFile(path, "a,b,c\n");
        QVERIFY_THROWS_EXCEPTION(InputError, RunsFileWriter{path});
    }

    void fakeJetsonRailsThroughTheSweep() {
        // Orin Nano fixture: VDD_IN at 5 V x 1 A (5 W), the only module rail
        const SysfsRoot root(ROOFTOP_TEST_FIXTURES_DIR "/jetson/orin-nano-jp6");
        const BoardIdentity board = detectBoard(root, test::shippedCatalog());
        const DeviceSpec& nano = test::shippedDevice("orin-nano-8gb");
        std::string why;
        const std::unique_ptr<PowerSource> source = boardPowerSource(nano, root, board, &why);
        QVERIFY2(source, why.c_str());
        QCOMPARE(source->description(), std::string("INA3221 VDD_IN"));
        QVERIFY(std::abs(source->readWatts().value() - 5.0) < 1e-9);

        Sweep sweep;
        FakeSource unused;
        BusyRunner runner(unused, true);
        const ProfileOutcome outcome = sweep.run(runner, source.get(), 1);
        QVERIFY(std::abs(outcome.idle.at(0).watts.value() - 5.0) < 1e-9);
        const RunRow row = readRunsFile(sweep.path()).at(0);
        QVERIFY(std::abs(row.idleW.value() - 5.0) < 1e-9);
        QVERIFY(std::abs(row.powerW.value() - 5.0) < 1e-9); // the fixture's rails do not move
    }

    void noSourceWhereTheBoardIsNotHere() {
        const SysfsRoot root(ROOFTOP_TEST_FIXTURES_DIR "/jetson/orin-nano-jp6");
        const BoardIdentity board = detectBoard(root, test::shippedCatalog());
        std::string why;
        QVERIFY(!boardPowerSource(test::shippedAgxOrin(), root, board, &why)); // another Jetson
        QCOMPARE(why, std::string("the board is not this machine"));
        QTemporaryDir empty;
        const SysfsRoot none(empty.path().toStdString());
        QVERIFY(
            !boardPowerSource(test::shippedAgxOrin(), none, detectBoard(none, test::shippedCatalog()), &why));

        // a discrete GPU other than the lone first one: NVML's order may not be CUDA's
        DeviceSpec second = test::shippedAgxOrin();
        second.discrete = true;
        second.id = "cuda:1";
        QVERIFY(!boardPowerSource(second, none, detectBoard(none, test::shippedCatalog()), &why));
        QCOMPARE(why, std::string("NVML's GPU order may differ from CUDA's for cuda:1"));
        second.id = "cuda:0";
        {
            const test::ScopedEnv visible("CUDA_VISIBLE_DEVICES", "1");
            QVERIFY(!boardPowerSource(second, none, detectBoard(none, test::shippedCatalog()), &why));
            QCOMPARE(why, std::string("NVML's GPU order may differ from CUDA's for cuda:0"));
        }
    }

    void blockedReadTimesOutAndIsNotJoined() {
        const auto source = std::make_shared<BlockingSource>();
        const Release release{source};
        PowerSampler sampler(source, std::chrono::milliseconds(5), std::chrono::milliseconds(100));
        QElapsedTimer clock;
        clock.start();
        sampler.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QVERIFY(sampler.stop().empty());
        QVERIFY(sampler.timedOut());
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(source->blockedReads(), 1); // the reader thread, left behind
        // while that read has not returned, another start takes no sample and does not wait again
        clock.restart();
        sampler.start();
        QVERIFY(sampler.stop().empty());
        QVERIFY(sampler.timedOut());
        QVERIFY(clock.elapsed() < 100);
        QCOMPARE(source->blockedReads(), 1);
        // once it returns, the sampler reads again
        source->release();
        for (int i = 0; i < 200 && source->blockedReads() > 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        sampler.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const std::vector<PowerSample> samples = sampler.stop();
        QVERIFY(!sampler.timedOut());
        QVERIFY(!samples.empty());
        QCOMPARE(samples.front().watts, 7.0);
    }

    void benchMeterRefusesAWindowWithoutReadings() {
        // the bench integrates energy over its windows: a stuck source must not become a measured 0 J
        const auto source = std::make_shared<BlockingSource>();
        const Release release{source};
        SampledEnergyMeter meter(source, std::chrono::milliseconds(5), std::chrono::milliseconds(50));
        meter.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QVERIFY_THROWS_EXCEPTION(UnavailableError, meter.stop());
    }

    void samplerOutlivedByItsBlockedReader() {
        const auto source = std::make_shared<BlockingSource>();
        const Release release{source};
        {
            PowerSampler sampler(source, std::chrono::milliseconds(5), std::chrono::milliseconds(50));
            sampler.start();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        } // destroyed with its reader blocked: the thread owns what it touches
        QCOMPARE(source->blockedReads(), 1);
        source->release();
        for (int i = 0; i < 200 && source.use_count() > 2; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        QCOMPARE(source.use_count(), long(2)); // this test's and the release's: the thread is gone
    }

    void blockedPowerReadDoesNotHangTheSweep() {
        Sweep sweep;
        const auto source = std::make_shared<BlockingSource>();
        const Release release{source};
        FakeSource busy; // what the runner drives; the sweep reads only the stuck source
        BusyRunner runner(busy, true);
        QElapsedTimer clock;
        clock.start();
        const ProfileOutcome outcome = sweep.run(runner, source, 2, {maxnMode(), stockMode(3)});
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(outcome.ok, size_t(4));
        QCOMPARE(outcome.failed, size_t(0));
        QCOMPARE(outcome.idle.size(), size_t(2));
        QVERIFY(!outcome.idle[0].watts);
        QCOMPARE(outcome.powerTimeouts, size_t(6)); // 2 idle baselines and 4 runs
        const std::vector<RunRow> rows = readRunsFile(sweep.path());
        QCOMPARE(rows.size(), size_t(4));
        for (const RunRow& row : rows) {
            QVERIFY(row.ok());
            QCOMPARE(row.latencyMs.value(), 2.0);
            QVERIFY(!row.powerW); // missing, not made up
            QVERIFY(!row.idleW);
        }
        QCOMPARE(source->blockedReads(), 1); // one reader left behind, not one per run
    }

    void runMeasuredNotesTheTimeout() {
        const auto source = std::make_shared<BlockingSource>();
        const Release release{source};
        FakeSource busy;
        BusyRunner runner(busy, false);
        RunPowerMeter meter(source, std::chrono::milliseconds(5), std::chrono::milliseconds(20));
        bool measured = true;
        const RunResult result = runMeasured(test::shippedAgxOrin(), runner,
                                             RunConfig{maxnMode(), 1, Precision::FP32, Phase::Inference, {}},
                                             &meter, nullptr, &measured);
        QVERIFY(result.ok);
        QVERIFY(!measured);
        QVERIFY(!result.powerW);
        QCOMPARE(result.note, std::string("power read timed out"));
        QVERIFY(meter.timedOut());
    }

    // A runner's own power (or energy) beyond twice the board's module maximum (60 W on AGX Orin 64GB) is no
    // reading of the board: the run fails saying so; up to the bound it is kept.
    void implausiblePowerFailsTheRun() {
        FakeSource busy;
        BusyRunner runner(busy, false);
        bool measured = true;
        const RunConfig config{maxnMode(), 1, Precision::FP32, Phase::Inference, {}};
        runner.ownPower = 1e9;
        const RunResult wild =
            runMeasured(test::shippedAgxOrin(), runner, config, nullptr, nullptr, &measured);
        QVERIFY(!wild.ok);
        QCOMPARE(
            wild.failure,
            std::string("power 1e+09 W is above 2 x the 60 W module maximum of agx-orin-64gb: not a reading "
                        "of this board"));
        runner.ownPower = 120.0;
        QVERIFY(runMeasured(test::shippedAgxOrin(), runner, config, nullptr, nullptr, &measured).ok);
        runner.ownPower = 120.5;
        QVERIFY(!runMeasured(test::shippedAgxOrin(), runner, config, nullptr, nullptr, &measured).ok);
        DeviceSpec unknown = test::shippedAgxOrin();
        unknown.maxModuleWatts = 0.0;
        runner.ownPower = 2000.0;
        QVERIFY(!runMeasured(unknown, runner, config, nullptr, nullptr, &measured).ok);
        QCOMPARE(implausiblePower(unknown, 1400.0), std::string());
    }

    // A runner's latency over a day (1e308 ms would make the energy infinite and the runs file unreadable
    // for every later command) fails the run saying so; a day itself is kept.
    void implausibleLatencyFailsTheRun() {
        FakeSource busy;
        BusyRunner runner(busy, false);
        runner.ownPower = 10.0;
        bool measured = true;
        const RunConfig config{maxnMode(), 1, Precision::FP32, Phase::Inference, {}};
        runner.ownLatencyMs = 1e308;
        const RunResult wild =
            runMeasured(test::shippedAgxOrin(), runner, config, nullptr, nullptr, &measured);
        QVERIFY(!wild.ok);
        QCOMPARE(wild.failure,
                 std::string("the runner's latency_ms is implausible (over a day, or not finite)"));
        runner.ownLatencyMs = 86400e3;
        QVERIFY(runMeasured(test::shippedAgxOrin(), runner, config, nullptr, nullptr, &measured).ok);
    }

    void keepLastCountsOnlyTheEndOfTheWindow() {
        const auto source = std::make_shared<FakeSource>();
        source->watts = 30.0; // start-up and warm-up
        RunPowerMeter meter(source, std::chrono::milliseconds(5));
        meter.begin();
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        source->watts = 10.0; // the timed part: the last 0.4 s
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        meter.end();
        meter.keepLast(0.15);
        const double last = meter.windowWatts().value();
        QVERIFY2(std::abs(last - 10.0) < 1e-9, qPrintable(QString::number(last)));
    }

    void meanOfSamples() {
        QVERIFY(!meanWatts({}));
        // the time average: (2+4)/2 x 0.1 s + (4+9)/2 x 0.3 s over 0.4 s
        QCOMPARE(meanWatts({{0.0, 2.0}, {0.1, 4.0}, {0.4, 9.0}}).value(), (0.3 + 1.95) / 0.4);
        QCOMPARE(meanWatts({{0.5, 2.0}, {0.5, 4.0}}).value(), 3.0); // one instant: the plain mean
    }
};

ROOFTOP_TEST_CLASS(ProfilePower)
#include "test_profile_power.moc"
