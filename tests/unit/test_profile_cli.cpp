// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop profile` end to end: the simulated board writes a runs file with the documented header and one row
// per mode x batch x precision, progress with an ETA on stderr, a rerun that runs nothing, sample:N with a
// seed, a command runner with --no-switch (good and failing runs), and calibrate reading the runs file. Bad
// input is one line and exit 1 (unknown runner, non-executable command, bad mode set, bad options, a
// malformed runs file left as it was); no runner, or switching asked for off a Jetson, is exit 2 with
// nothing written.
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/measure/runs_file.h"
#include "core/platform/restore_journal.h"
#include "support/cli_runner.h"
#include "support/scoped_env.h"
#include "support/simulated_helper.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <optional>

using namespace rooftop;
using rooftop::test::CliResult;
using rooftop::test::runRooftop;

namespace {

QString resnet18() {
    return QString::fromStdString(test::samplePath("resnet18"));
}

QString fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate)) file.write(bytes);
}

void verifyOneLineError(const CliResult& result, int exitCode, const QString& part) {
    QVERIFY2(!result.crashed, qPrintable(result.err));
    QCOMPARE(result.exitCode, exitCode);
    QVERIFY2(result.err.startsWith("rooftop: error: ") && result.err.count('\n') == 1,
             qPrintable(result.err));
    QVERIFY2(result.err.contains(part), qPrintable(result.err));
}

CliResult profile(const QStringList& extra) {
    const QStringList board =
        extra.contains("--device") ? QStringList() : QStringList{"--device", "agx-orin-64gb"};
    return runRooftop(QStringList{"profile", resnet18()} + board + extra);
}

} // namespace

class ProfileCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qputenv("ROOFTOP_TRTEXEC",
                ""); // no trtexec, whatever this machine has: the child processes inherit it
    }

    void defaultRunnerIsTrtexecWhenThereIsOne() {
        QTemporaryDir dir;
        const QString fake = dir.filePath("trtexec");
        QFile file(fake);
        QVERIFY(file.open(QIODevice::WriteOnly));
        // a trtexec that builds (writes the --saveEngine file) and prints a summary; no exported times
        file.write("#!/bin/sh\n"
                   "for a in \"$@\"; do case \"$a\" in --saveEngine=*) echo e > \"${a#--saveEngine=}\";; "
                   "esac; done\n"
                   "echo '[I] GPU Compute Time: min = 1 ms, median = 2.5 ms, percentile(99%) = 3 ms'\n");
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("ROOFTOP_TRTEXEC", fake.toUtf8());
        const test::ScopedEnv cache("ROOFTOP_CACHE_DIR", dir.filePath("cache").toUtf8()); // engines stay here
        const QString runs = dir.filePath("runs.csv");
        const CliResult result = profile({"--no-switch", "--modes", "MAXN", "--batch", "1,2", "-o", runs});
        qputenv("ROOFTOP_TRTEXEC", "");
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[1].runner, std::string("trtexec"));
        QCOMPARE(rows[1].latencyMs.value(), 2.5);
        QCOMPARE(rows[1].p99Ms.value(), 3.0);
        verifyOneLineError(profile({"--runner", "trtexec:" + dir.filePath("none"), "-o", runs}), 1,
                           "is not an executable");
    }

    void simulatedBoardWritesTheRunsFile() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult result = profile({"--runner", "sim", "--modes", "stock", "--batch", "1,4",
                                          "--precision", "fp32,fp16", "-o", runs});
        QVERIFY2(result.exitCode == 0 && !result.crashed, qPrintable(result.err));
        QVERIFY2(result.out.contains("runs: 16 ok, 0 failed, 0 already in the file"), qPrintable(result.out));
        QVERIFY2(result.err.contains("[16/16] mode 4/4 MODE_50W: batch 4 fp16: ok"), qPrintable(result.err));
        QVERIFY(result.err.contains("(ETA 0m00s)"));
        // each run's line in the table's decimals and said simulated, as every other number of this runner
        static const QRegularExpression runLine(
            QStringLiteral("batch [14] fp(32|16): ok \\d+\\.\\d{3} ms, \\d+\\.\\d{2} W \\(simulated\\)"));
        int said = 0;
        for (const QString& line : result.err.split('\n'))
            said += line.contains(runLine);
        QCOMPARE(said, 16);
        const QStringList lines = fileText(runs).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 17);
        QCOMPARE(lines[0], QString(runsHeader()));
        QVERIFY2(lines[1].startsWith("MAXN,12,2201600,1300500000,3199000000,1,fp32,inference,"),
                 qPrintable(lines[1]));
        // the simulator reports its own power: no idle_w; then the model the run is of, no dims, made by
        // profile, no optimizer (inference) and no generation (not an LLM run)
        QVERIFY2(lines[1].contains(QRegularExpression(",ok,sim:0,,[^,]+\\.onnx@[0-9a-f]{16},,profile,,,,,$")),
                 qPrintable(lines[1]));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        for (const RunRow& row : rows)
            QVERIFY(row.ok() && row.powerW && row.energyMj && row.p99Ms >= row.latencyMs);

        const CliResult again = profile({"--runner", "sim", "--modes", "stock", "--batch", "1,4",
                                         "--precision", "fp32,fp16", "-o", runs});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("runs: 0 ok, 0 failed, 16 already in the file"), qPrintable(again.out));
        QCOMPARE(fileText(runs).count('\n'), 17);

        // the same file is calibration input
        const CliResult calibrated = runRooftop(
            {"calibrate", resnet18(), "--device", "agx-orin-64gb", "--runs", runs, "--precision", "fp32"});
        QVERIFY2(calibrated.exitCode == 0, qPrintable(calibrated.err));
        QVERIFY2(calibrated.out.contains("from 16 runs"), qPrintable(calibrated.out));
    }

    // --dim batch=2 without --batch runs batch 2, as analyze and recommend answer at it: the rows are --batch
    // 2's (batch column 2, the symbol out of the dims), so the two resume each other; tune the same
    void aDimOnTheBatchIsTheBatchRun() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult result =
            profile({"--runner", "sim", "--modes", "MAXN", "--dim", "batch=2", "-o", runs});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].batch, int64_t(2));
        QVERIFY(rows[0].dims.empty());
        const CliResult again = profile({"--runner", "sim", "--modes", "MAXN", "--batch", "2", "-o", runs});
        QVERIFY2(again.out.contains("runs: 0 ok, 0 failed, 1 already in the file"), qPrintable(again.out));

        const CliResult tuned =
            runRooftop({"tune", resnet18(), "--device", "agx-orin-64gb", "--runner", "sim", "--latency-slo",
                        "30", "--dim", "batch=4", "--budget", "2", "--runs", dir.filePath("tune.csv")});
        QVERIFY2(tuned.exitCode == 0, qPrintable(tuned.err));
        for (const RunRow& row : readRunsFile(dir.filePath("tune.csv").toStdString()))
            QCOMPARE(row.batch, int64_t(4));
    }

    // A profile whose every run failed says so and exits 3 (scripts can tell it from a sweep that ran); the
    // failed rows stay in the runs file with their reasons. One run ok among failures exits 0.
    void everyRunFailedExitsThree() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const QStringList base = {"profile",     resnet18(), "--device", "agx-orin-64gb",
                                  "--no-switch", "--modes",  "MAXN",     "--batch",
                                  "1,2",         "-o",       runs,       "--runner"};
        const CliResult failed = runRooftop(base + QStringList{"command:exit 1"});
        QCOMPARE(failed.exitCode, 3);
        QVERIFY2(
            failed.err.contains("rooftop: every run failed (2); each one's reason is in the status column"),
            qPrintable(failed.err));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(2));
        QVERIFY(!rows[0].ok() && !rows[1].ok());

        const CliResult some = runRooftop(
            base +
            QStringList{
                "command:if [ \"$ROOFTOP_BATCH\" = 1 ]; then echo '{\"latency_ms\": 2}'; else exit 1; fi"});
        QVERIFY2(some.exitCode == 0, qPrintable(some.err));
        QVERIFY2(some.out.contains("runs: 1 ok, 1 failed"), qPrintable(some.out));
    }

    // The simulated board runs no precision its board has no tensor path for: FP8 on an Orin is refused as
    // the roofline refuses it, before any run.
    void theSimulatedBoardRefusesFp8OnOrin() {
        QTemporaryDir dir;
        const CliResult r =
            runRooftop({"profile", resnet18(), "--device", "agx-orin-64gb", "--runner", "sim", "--precision",
                        "fp8", "--modes", "MAXN", "-o", dir.filePath("r.csv")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no FP8 tensor cores: the simulated board cannot run fp8"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("r.csv")) ||
                readRunsFile(dir.filePath("r.csv").toStdString()).empty());
    }

    // A workload the other commands refuse is no run: the simulated board recorded a training step of a model
    // without weights, and a batch of 100,000 ResNet-18 steps, as ok runs.
    void workloadsTheOtherCommandsRefuseAreNotRun() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("r.csv");
        verifyOneLineError(profile({"--runner", "sim", "--phase", "training", "--batch", "100000", "--modes",
                                    "MAXN", "-o", runs}),
                           1, "profile: batch 100000 at fp32 holds at least ");
        QVERIFY(!QFile::exists(runs));
        const QString frozen = dir.filePath("no_weights.onnx");
        QVERIFY(test::writeTextModel(frozen, R"(<ir_version: 8, opset_import: ["" : 17]>
agraph (float[1,8] x) => (float[1,8] y) {
  y = Relu(x)
})"));
        verifyOneLineError(runRooftop({"profile", frozen, "--device", "agx-orin-64gb", "--runner", "sim",
                                       "--phase", "training", "--modes", "MAXN", "-o", runs}),
                           1, "no trainable parameters");
        QVERIFY(!QFile::exists(runs));
    }

    void ownPowerWhereTheBoardIsThisMachine() {
        // the Orin Nano fixture: this machine is that Jetson, VDD_IN reads 5 W
        const test::ScopedEnv root("ROOFTOP_SYSFS_ROOT", ROOFTOP_TEST_FIXTURES_DIR "/jetson/orin-nano-jp6");
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult result =
            runRooftop({"profile", resnet18(), "--device", "orin-nano-8gb", "--runner",
                        "command:echo '{\"latency_ms\": 2}'", "--idle", "0.2", "-o", runs});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(
                     QRegularExpression(R"(idle \S+: 5 W \(measured, INA3221 VDD_IN, idle 0\.2 s\))")),
                 qPrintable(result.out));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].powerW.value(), 5.0);
        QCOMPARE(rows[0].idleW.value(), 5.0);
        QCOMPARE(rows[0].energyMj.value(), 10.0);

        const CliResult sim = profile({"--runner", "sim", "-o", dir.filePath("sim.csv")});
        QVERIFY2(
            sim.out.contains("power: not measured by rooftop (the simulated board reports its own power)"),
            qPrintable(sim.out));
        // no --modes is the mode in force, which the simulated board has none of: it says which it ran
        QVERIFY2(sim.out.contains("mode: the simulated board has no mode in force: 'current' is its first "
                                  "stock mode, MAXN"),
                 qPrintable(sim.out));
        const CliResult stock = profile({"--runner", "sim", "--modes", "stock", "-o", dir.filePath("s.csv")});
        QVERIFY2(stock.exitCode == 0 && !stock.out.contains("mode: "), qPrintable(stock.out));
    }

    void secondProfileIntoTheSameRunsFileIsRefused() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const QString marker = dir.filePath("running");
        // the first profile's runner says it runs (so the runs file is open and locked) and then takes long
        QProcess first;
        first.start(test::rooftopBinary(),
                    {"profile", resnet18(), "--device", "agx-orin-64gb", "--no-switch", "--modes", "MAXN",
                     "--runner", "command:echo $$ > '" + marker + "'; sleep 20; echo '{\"latency_ms\": 1}'",
                     "-o", runs});
        QVERIFY(first.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!fileText(marker).trimmed().isEmpty(), 20000);
        const QStringList quick{
            "--no-switch", "--modes", "MAXN", "--runner", "command:echo '{\"latency_ms\": 1}'", "-o", runs};
        verifyOneLineError(profile(quick), 1,
                           runs + " is being written by another rooftop (pid " +
                               QString::number(first.processId()) +
                               "); wait for it or use another runs file");
        // kill -9: the kernel drops the lock with the process
        first.kill();
        QVERIFY(first.waitForFinished());
        ::kill(-fileText(marker).trimmed().toInt(), SIGKILL); // the runner's process group
        const CliResult after = profile(quick);
        QVERIFY2(after.exitCode == 0, qPrintable(after.err));
        QCOMPARE(readRunsFile(runs.toStdString()).size(), size_t(1));
    }

    // A switch that a killed Rooftop's helper is still making (a slow nvpmodel) finishes before the next
    // start's restore, which waits for the helper's lock, instead of undoing the restore after it.
    void aSwitchStillRunningFinishesBeforeTheRestore() {
        test::BoardCopy board("agx-orin-jp6");
        const QString journalPath = board.dir.filePath("state/mode-journal");
        const test::ScopedEnv root("ROOFTOP_SYSFS_ROOT", board.dir.path().toUtf8());
        const test::ScopedEnv journalVariable("ROOFTOP_MODE_JOURNAL", journalPath.toUtf8());
        const test::ScopedEnv helperVariable("ROOFTOP_MODE_HELPER", ROOFTOP_FAKE_JETSON_TOOL);
        const test::ScopedEnv path("PATH", QByteArray(ROOFTOP_FAKE_PKEXEC_DIR ":") + qgetenv("PATH"));
        RestoreJournal journal(journalPath.toStdString());
        journal.record(0); // MAXN, as a profile journals it before switching to MODE_15W
        QProcess stale;    // the switch to MODE_15W the killed profile started, 1.5 s of nvpmodel
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert("ROOFTOP_FAKE_HELPER_DELAY_MS", "1500");
        stale.setProcessEnvironment(environment);
        stale.start(ROOFTOP_FAKE_JETSON_TOOL, {"set-stock-mode", "1"});
        QVERIFY(stale.waitForStarted());
        QTest::qWait(300); // it holds the lock now, and sleeps
        const CliResult next = runRooftop({"devices"});
        QCOMPARE(next.exitCode, 0);
        QCOMPARE(next.err, QString("rooftop: restored the power mode an interrupted measurement left\n"));
        if (stale.state() != QProcess::NotRunning) stale.waitForFinished(5000);
        QCOMPARE(stale.state(), QProcess::NotRunning);
        QCOMPARE(stale.exitCode(), 0);
        test::SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0)); // the restore came last
        QCOMPARE(switcher.observe().gpuMaxHz, int64_t(1300500000));
        QVERIFY(!journal.pending());
    }

    void nextStartRestoresTheModeAKillLeft() {
        test::BoardCopy board("agx-orin-jp6");
        const QString journalPath = board.dir.filePath("state/mode-journal");
        const test::ScopedEnv root("ROOFTOP_SYSFS_ROOT", board.dir.path().toUtf8());
        const test::ScopedEnv journalVariable("ROOFTOP_MODE_JOURNAL", journalPath.toUtf8());
        const test::ScopedEnv helperVariable("ROOFTOP_MODE_HELPER", ROOFTOP_FAKE_JETSON_TOOL);
        const test::ScopedEnv path("PATH", QByteArray(ROOFTOP_FAKE_PKEXEC_DIR ":") + qgetenv("PATH"));
        // what a kill -9 in MODE_15W leaves: the board in mode 1, the journal naming MAXN (0)
        test::SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        switcher.setStockMode(1);
        RestoreJournal journal(journalPath.toStdString());
        journal.record(0);
        {
            const JournalLock live(journalPath.toStdString()); // a live session's journal is left alone
            const CliResult running = runRooftop({"devices"});
            QCOMPARE(running.exitCode, 0);
            QCOMPARE(running.err, QString());
            QCOMPARE(switcher.currentStockId(), std::optional<int>(1));
        }
        const CliResult next = runRooftop({"devices"}); // any command
        QCOMPARE(next.exitCode, 0);
        QCOMPARE(next.err, QString("rooftop: restored the power mode an interrupted measurement left\n"));
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
        QCOMPARE(switcher.observe().gpuMaxHz, int64_t(1300500000));
        QCOMPARE(switcher.observe().onlineCores, 12);
        QVERIFY(!journal.pending());
        QCOMPARE(runRooftop({"devices"}).err, QString()); // once
        // off a Jetson a journal is no business of this machine's: nothing said, nothing changed
        journal.record(0);
        QTemporaryDir empty;
        const test::ScopedEnv noBoard("ROOFTOP_SYSFS_ROOT", empty.path().toUtf8());
        const CliResult elsewhere = runRooftop({"devices"});
        QCOMPARE(elsewhere.exitCode, 0);
        QCOMPARE(elsewhere.err, QString());
        QCOMPARE(journal.pending(), std::optional<int>(0));
    }

    void thorBadInputIsOneLineAndSwitchesNothing() {
        // On a copy of the Thor T5000 JetPack 7.1 tree with the helper and pkexec faked: a conf mode whose
        // cap exceeds the ladders, an unknown p3834 variant, the Thor names with missing files. Each: one
        // line on stderr, no helper call (the mode in force unchanged), no crash.
        struct Case {
            const char* name;
            void (*breakIt)(const QString& dir);
            bool withDevice;
            int exitCode;
            const char* expected;
        };
        const Case cases[] = {
            {"conf cap above the ladder",
             [](const QString& dir) {
                 QString conf = fileText(dir + "/etc/nvpmodel.conf");
                 conf.replace("GPU MAX_FREQ 1050000000", "GPU MAX_FREQ 2000000000");
                 writeFile(dir + "/etc/nvpmodel.conf", conf.toUtf8());
             },
             true, 1, "mode 3 (70W): GPU MAX_FREQ 2000000000 Hz is above the top of the board's GPU ladder"},
            {"unknown p3834 variant",
             [](const QString& dir) {
                 writeFile(dir + "/proc/device-tree/compatible",
                           QByteArray("nvidia,p4071-0000+p3834-0005") + '\0' + "nvidia,tegra264" + '\0');
             },
             true, 2,
             "module p3834-0005 (NVIDIA Jetson AGX Thor Developer Kit) is not in the catalog; its known "
             "siblings are p3834-0000 (agx-thor-t4000), p3834-0008 (agx-thor-t5000); it is not "
             "agx-thor-t5000, so its modes are not switched with that board's numbers; nothing switched"},
            {"Thor names, missing files",
             [](const QString& dir) {
                 QFile::remove(dir + "/sys/class/devfreq/gpu-gpc-0/available_frequencies");
             },
             true, 2,
             "cannot switch power modes here: the GPU clock folder /sys/class/devfreq/gpu-gpc-0 has no "
             "available_frequencies; nothing switched"},
        };
        for (const Case& c : cases) {
            test::BoardCopy board("thor-t5000-jp71");
            c.breakIt(board.dir.path());
            const QString status = fileText(board.dir.filePath("var/lib/nvpmodel/status"));
            const test::ScopedEnv root("ROOFTOP_SYSFS_ROOT", board.dir.path().toUtf8());
            const test::ScopedEnv journal("ROOFTOP_MODE_JOURNAL",
                                          board.dir.filePath("state/journal").toUtf8());
            const test::ScopedEnv helper("ROOFTOP_MODE_HELPER", ROOFTOP_FAKE_JETSON_TOOL);
            const test::ScopedEnv path("PATH", QByteArray(ROOFTOP_FAKE_PKEXEC_DIR ":") + qgetenv("PATH"));
            QTemporaryDir dir;
            QStringList args{"profile", resnet18()};
            if (c.withDevice)
                args << "--device"
                     << "agx-thor-t5000";
            args << "--modes"
                 << "stock"
                 << "--runner"
                 << "command:echo '{\"latency_ms\": 1}'"
                 << "-o" << dir.filePath("runs.csv");
            const CliResult result = runRooftop(args);
            QVERIFY2(!result.crashed, c.name);
            QVERIFY2(result.exitCode == c.exitCode, qPrintable(QString(c.name) + ": " + result.err));
            QVERIFY2(result.err.startsWith("rooftop: error: ") && result.err.count('\n') == 1,
                     qPrintable(QString(c.name) + ": " + result.err));
            QVERIFY2(result.err.contains(QString::fromUtf8(c.expected)),
                     qPrintable(QString(c.name) + ": " + result.err));
            QCOMPARE(fileText(board.dir.filePath("var/lib/nvpmodel/status")), status); // nothing switched
            QVERIFY(!QFile::exists(board.dir.filePath("state/journal")));
        }
    }

    void thorProfilesItsStockModes() {
        // the same tree unbroken: the board's own conf gives the four modes, each switched to and run
        test::BoardCopy board("thor-t5000-jp71");
        const test::ScopedEnv root("ROOFTOP_SYSFS_ROOT", board.dir.path().toUtf8());
        const test::ScopedEnv journal("ROOFTOP_MODE_JOURNAL", board.dir.filePath("state/journal").toUtf8());
        const test::ScopedEnv helper("ROOFTOP_MODE_HELPER", ROOFTOP_FAKE_JETSON_TOOL);
        const test::ScopedEnv path("PATH", QByteArray(ROOFTOP_FAKE_PKEXEC_DIR ":") + qgetenv("PATH"));
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult result =
            runRooftop({"profile", resnet18(), "--device", "agx-thor-t5000", "--modes", "stock", "--runner",
                        "command:echo '{\"latency_ms\": 1}'", "--idle", "0.2", "--settle", "0", "-o", runs});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(4));
        QCOMPARE(rows[3].mode, std::string("70W"));
        QCOMPARE(rows[3].cores, 12); // the board's conf, not the catalog's estimate
        // back in the mode it started in (120W), journal cleared
        QCOMPARE(fileText(board.dir.filePath("var/lib/nvpmodel/status")).trimmed(), QString("pmode:0001"));
    }

    void sampledModesFollowTheSeed() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult result =
            profile({"--runner", "simulator:3", "--modes", "sample:3", "--seed", "11", "-o", runs});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        const auto devices = loadCatalog(ROOFTOP_SOURCE_DATA_DIR "/devices");
        const auto expected = modesFor(findDevice(devices, "agx-orin-64gb"), "sample:3", std::nullopt, 11);
        QCOMPARE(rows.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(rows[i].mode, expected[i].name);
            QCOMPARE(rows[i].runner, std::string("sim:3"));
        }
    }

    void commandRunnerWithoutSwitching() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult result =
            profile({"--runner",
                     "command:test \"$ROOFTOP_MODE\" = MODE_30W && exit 2; "
                     "printf '{\"latency_ms\": %s, \"energy_j\": 0.05}\\n' \"$ROOFTOP_BATCH\"",
                     "--no-switch", "--modes", "MAXN;MODE_30W", "--batch", "2", "--phase", "training",
                     "--run-timeout", "5", "-o", runs});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains("runs: 1 ok, 1 failed"), qPrintable(result.out));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].latencyMs.value(), 2.0);
        QCOMPARE(rows[0].powerW.value(), 25.0); // 0.05 J in 2 ms
        QCOMPARE(rows[0].phase, Phase::Training);
        QCOMPARE(rows[1].status, std::string("failed: exit 2"));
    }

    void noRunnerIsUnavailableAndWritesNothing() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        verifyOneLineError(profile({"-o", runs}), 2, "no runner here");
        verifyOneLineError(profile({"--runner", "trtexec", "-o", runs}), 2, "no trtexec found");
        QVERIFY(!QFile::exists(runs));
    }

    void switchingOffAJetsonIsUnavailable() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        verifyOneLineError(profile({"--runner", "command:true", "--modes", "stock", "-o", runs}), 2,
                           "works on a Jetson only");
        // the default mode set, current, off a Jetson: the same line as tune and plan, not an nvpmodel
        // failure
        verifyOneLineError(profile({"--runner", "command:true", "-o", runs}), 2,
                           "profile: modes 'current' cannot be used: only the agx-orin-64gb measured can say "
                           "which nvpmodel mode is in force, and this machine is not it. Name the mode");
        verifyOneLineError(profile({"--runner", "command:true", "--no-switch", "-o", runs}), 2,
                           "(--modes NAME; in the window, Modes), with no switching (--no-switch");
        QVERIFY(!QFile::exists(runs));
    }

    // On the board with nvpmodel naming no mode (no status file, no default in the conf), "current" says so
    // and what to name instead, with or without switching.
    void currentWithoutAModeInForceSaysWhatToName() {
        test::BoardCopy board("agx-orin-jp6");
        QFile::remove(board.dir.filePath("var/lib/nvpmodel/status"));
        const QString confPath = board.dir.filePath("etc/nvpmodel.conf");
        QString conf = fileText(confPath);
        conf.replace(QRegularExpression(QStringLiteral("< PM_CONFIG DEFAULT=[0-9]+ >")), QString());
        QFile out(confPath);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(conf.toUtf8());
        out.close();
        const test::ScopedEnv root("ROOFTOP_SYSFS_ROOT", board.dir.path().toUtf8());
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        verifyOneLineError(profile({"--runner", "command:true", "--no-switch", "-o", runs}), 2,
                           "profile: modes 'current' cannot be used: nvpmodel names no mode in force here");
        QVERIFY(!QFile::exists(runs));
    }

    void badInputIsOneLine_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown runner")
            << QStringList{"--runner", "onnxruntime"} << "unknown runner 'onnxruntime'";
        QTest::newRow("non-executable command")
            << QStringList{"--runner", "command:/nonexistent/trtexec --onnx=$ROOFTOP_MODEL", "--no-switch"}
            << "'/nonexistent/trtexec' is not an executable";
        QTest::newRow("bad mode") << QStringList{"--runner", "sim", "--modes", "fastest"} << "fastest";
        QTest::newRow("bad sample") << QStringList{"--runner", "sim", "--modes", "sample:0"}
                                    << "sample:N needs N";
        QTest::newRow("bad batch") << QStringList{"--runner", "sim", "--batch", "1,x"} << "--batch";
        QTest::newRow("bad precision")
            << QStringList{"--runner", "sim", "--precision", "fp32,bf16"} << "bf16";
        QTest::newRow("bad phase") << QStringList{"--runner", "sim", "--phase", "serving"} << "serving";
        QTest::newRow("bad repeat") << QStringList{"--runner", "sim", "--repeat", "0"} << "--repeat";
        QTest::newRow("bad device") << QStringList{"--runner", "sim", "--device", "no-such-board"}
                                    << "no-such-board";
        QTest::newRow("unknown option")
            << QStringList{"--runner", "sim", "--fast"} << "unknown option '--fast'";
        QTest::newRow("near miss") << QStringList{"--runner", "sim", "--reapet", "2"}
                                   << "unknown option '--reapet' (did you mean --repeat?";
    }

    void badInputIsOneLine() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        verifyOneLineError(profile(args + QStringList{"-o", dir.filePath("runs.csv")}), 1, message);
        QVERIFY(!QFile::exists(dir.filePath("runs.csv")));
    }

    void malformedRunsFileIsLeftAsItWas() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const QString text = QString(legacyRunsHeader()) +
                             "\nMAXN,12,2201600,1300500000,3199000000,1,fp32,inference,x,,,,ok,sim\n";
        QFile file(runs);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
        file.close();
        verifyOneLineError(profile({"--runner", "sim", "-o", runs}), 1, "runs.csv:2: field 'latency_ms'");
        QCOMPARE(fileText(runs), text);
    }

    void helpAndTopLevelUsage() {
        const CliResult help = runRooftop({"profile", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--runner R"));
        QVERIFY(runRooftop({"--help"}).out.contains("profile MODEL.onnx"));
    }
};

ROOFTOP_TEST_CLASS(ProfileCli)
#include "test_profile_cli.moc"
