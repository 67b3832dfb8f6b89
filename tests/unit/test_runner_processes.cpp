// SPDX-License-Identifier: GPL-3.0-or-later
// Runner processes, with real ones (small shell runners): a run ends when the runner exits, even when a
// background child it left holds its output (that child is killed with the group); after a kill -9 of
// `rooftop profile` its guardian kills the runner's group at once, and should the guardian die too the next
// start kills what the group left, from the record; a record of a live Rooftop, or a group without the run's
// token, is left alone.
#include "core/measure/child_process.h"
#include "core/measure/runner_journal.h"
#include "support/cli_runner.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <fstream>
#include <unistd.h>

using namespace rooftop;

namespace {

QString fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).trimmed() : QString();
}

/// True while a process runs (a zombie does not).
bool running(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const size_t close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

/// A child of `parent` other than `other` (from /proc), or 0.
pid_t childOtherThan(pid_t parent, pid_t other) {
    const QStringList entries = QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& entry : entries) {
        bool isPid = false;
        const pid_t pid = entry.toInt(&isPid);
        if (!isPid || pid == other) continue;
        const QString stat = fileText("/proc/" + entry + "/stat");
        const int close = stat.lastIndexOf(')');
        const QStringList fields = stat.mid(close + 2).split(' ');
        if (close > 0 && fields.size() > 1 && fields.at(1).toInt() == parent) return pid;
    }
    return 0;
}

} // namespace

class RunnerProcesses : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(records_.isValid()); }
    void init() { qputenv("ROOFTOP_RUNNER_JOURNAL", records_.path().toUtf8()); }
    void cleanupTestCase() { qunsetenv("ROOFTOP_RUNNER_JOURNAL"); }

    void runEndsWhenTheRunnerExits() {
        QTemporaryDir dir;
        const QString child = dir.filePath("child");
        // the background sleep holds stdout and stderr open for 30 s: the run must not wait for it
        const ChildOutcome outcome = runShellCommand("sleep 30 & echo $! > '" + child.toStdString() +
                                                         "'; echo '{\"latency_ms\": 1.5}'",
                                                     {}, 8, nullptr);
        QVERIFY(outcome.started);
        QVERIFY(!outcome.timedOut);
        QCOMPARE(outcome.exitCode, 0);
        QCOMPARE(QString::fromStdString(outcome.out), QString("{\"latency_ms\": 1.5}\n"));
        const pid_t sleeper = fileText(child).toInt();
        QVERIFY(sleeper > 1);
        QTRY_VERIFY_WITH_TIMEOUT(!running(sleeper), 2000); // killed with the runner's group
        QCOMPARE(QDir(records_.path()).entryList(QDir::Files).size(),
                 qsizetype(0)); // the run's record is gone
    }

    void failingRunnerKeepsItsExitCode() {
        const ChildOutcome outcome = runShellCommand("sleep 30 & echo half; exit 3", {}, 8, nullptr);
        QVERIFY(!outcome.timedOut);
        QCOMPARE(outcome.exitCode, 3);
        QCOMPARE(QString::fromStdString(outcome.out), QString("half\n"));
    }

    void runnerTimesOutStill() {
        const ChildOutcome outcome = runShellCommand("sleep 30", {}, 0.3, nullptr);
        QVERIFY(outcome.timedOut);
        QCOMPARE(outcome.signal, SIGKILL);
    }

    // kill -9 of `rooftop profile`: its guardian kills the runner's whole group at once, the background child
    // included; the next start finds nothing left and removes the record
    void killedProfileTakesItsRunnerWithIt() {
        QTemporaryDir dir;
        QProcess profile;
        const KilledRun run = startProfileRun(profile, dir);
        QVERIFY(run.shell > 1 && run.child > 1);
        profile.kill(); // SIGKILL
        QVERIFY(profile.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(!running(run.shell), 2000); // its death signal
        QTRY_VERIFY_WITH_TIMEOUT(!running(run.child), 2000); // the guardian
        const test::CliResult next = test::runRooftop({"devices"});
        QCOMPARE(next.exitCode, 0);
        QCOMPARE(next.err, QString());
        QCOMPARE(QDir(records_.path()).entryList(QDir::Files).size(), qsizetype(0));
    }

    // should the guardian die with Rooftop (both killed), the record is what is left: the background child
    // outlives them until the next start, which kills the group's processes
    void killedProfileAndGuardianLeaveNothingAfterTheNextStart() {
        QTemporaryDir dir;
        QProcess profile;
        const KilledRun run = startProfileRun(profile, dir);
        QVERIFY(run.shell > 1 && run.child > 1);
        const pid_t guardian = childOtherThan(pid_t(profile.processId()), run.shell);
        QVERIFY2(guardian > 1, "no guardian process beside the runner's shell");
        ::kill(guardian, SIGKILL);
        profile.kill();
        QVERIFY(profile.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(!running(run.shell), 2000);
        QVERIFY(running(run.child)); // the background child outlives them...
        const test::CliResult next = test::runRooftop({"devices"});
        QCOMPARE(next.exitCode, 0);
        // ... until the next start: both sleeps
        QCOMPARE(next.err, QString("rooftop: killed 2 runner process(es) an interrupted measurement left\n"));
        QTRY_VERIFY_WITH_TIMEOUT(!running(run.child), 2000);
        QCOMPARE(QDir(records_.path()).entryList(QDir::Files).size(), qsizetype(0));
        QCOMPARE(test::runRooftop({"devices"}).err, QString()); // once
    }

    void liveRecordIsLeftAlone() {
        QProcess group;
        group.setChildProcessModifier([] { ::setpgid(0, 0); });
        group.start("sleep", {"30"});
        QVERIFY(group.waitForStarted());
        const pid_t pid = pid_t(group.processId());
        {
            const RunnerGroupRecord live(records_.path().toStdString(), pid, "0123456789abcdef");
            QVERIFY(live.held());
            QCOMPARE(reapInterruptedRunners(records_.path().toStdString()), 0);
            QCOMPARE(QDir(records_.path()).entryList(QDir::Files).size(), qsizetype(1));
        }
        QCOMPARE(QDir(records_.path()).entryList(QDir::Files).size(), qsizetype(0));
        // a dead Rooftop's record naming a group whose processes lack its token (the id reused): nothing
        // killed
        QFile stale(records_.path() + "/1-" + QString::number(pid));
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write("rooftop-runner-group/1 pgid=" + QByteArray::number(pid) + " token=0123456789abcdef\n");
        stale.close();
        QCOMPARE(reapInterruptedRunners(records_.path().toStdString()), 0);
        QVERIFY(running(pid));
        QCOMPARE(QDir(records_.path()).entryList(QDir::Files).size(), qsizetype(0));
        // a malformed record names nothing
        QFile junk(records_.path() + "/junk");
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("pgid=1 token=\n");
        junk.close();
        QCOMPARE(reapInterruptedRunners(records_.path().toStdString()), 0);
        QFile::remove(records_.path() + "/junk");
        group.kill();
        group.waitForFinished();
    }

private:
    struct KilledRun {
        pid_t shell = 0; ///< the runner's shell
        pid_t child = 0; ///< a background sleep it started
    };

    /// Starts `rooftop profile` with a shell runner that starts two sleeps, and waits until it runs.
    KilledRun startProfileRun(QProcess& profile, const QTemporaryDir& dir) {
        const QString shell = dir.filePath("shell"), child = dir.filePath("child");
        profile.start(test::rooftopBinary(),
                      {"profile", QString::fromStdString(test::samplePath("resnet18")), "--device",
                       "agx-orin-64gb", "--no-switch", "--modes", "MAXN", "--runner",
                       // both sleeps run before the shell says it runs: the kill finds them in the group
                       "command:sleep 30 & echo $! > '" + child + "'; sleep 31 & echo $$ > '" + shell +
                           "'; wait $!; echo '{\"latency_ms\": 1}'",
                       "-o", dir.filePath("runs.csv")});
        if (!profile.waitForStarted()) return {};
        QElapsedTimer waited;
        waited.start();
        while (fileText(shell).isEmpty() && waited.elapsed() < 20000)
            QTest::qWait(20);
        while (QDir(records_.path()).entryList(QDir::Files).size() != 1 && waited.elapsed() < 22000)
            QTest::qWait(20);
        return {fileText(shell).toInt(), fileText(child).toInt()};
    }

    QTemporaryDir records_;
};

ROOFTOP_TEST_CLASS(RunnerProcesses)
#include "test_runner_processes.moc"
