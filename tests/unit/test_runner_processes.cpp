// SPDX-License-Identifier: GPL-3.0-or-later
// Runner processes, with real ones (small shell runners): a run ends when the runner exits, even when a
// background child it left holds its output (that child is killed with the group); after a kill -9 of
// `rooftop profile` the runner's shell dies with it and the next start kills what its group left, from the
// record; a record of a live Rooftop, or a group without the run's token, is left alone.
#include "core/measure/child_process.h"
#include "core/measure/runner_journal.h"
#include "support/cli_runner.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDir>
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

    void killedProfileLeavesNothingAfterTheNextStart() {
        QTemporaryDir dir;
        const QString shell = dir.filePath("shell"), child = dir.filePath("child");
        QProcess profile;
        profile.start(test::rooftopBinary(),
                      {"profile", QString::fromStdString(test::samplePath("resnet18")), "--device",
                       "agx-orin-64gb", "--no-switch", "--modes", "MAXN", "--runner",
                       // both sleeps run before the shell says it runs: the kill finds them in the group
                       "command:sleep 30 & echo $! > '" + child + "'; sleep 31 & echo $$ > '" + shell +
                           "'; wait $!; echo '{\"latency_ms\": 1}'",
                       "-o", dir.filePath("runs.csv")});
        QVERIFY(profile.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!fileText(shell).isEmpty(), 20000);
        const pid_t shellPid = fileText(shell).toInt(), childPid = fileText(child).toInt();
        QVERIFY(shellPid > 1 && childPid > 1);
        QTRY_COMPARE_WITH_TIMEOUT(QDir(records_.path()).entryList(QDir::Files).size(), qsizetype(1), 2000);
        profile.kill(); // SIGKILL
        QVERIFY(profile.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(!running(shellPid), 2000); // its death signal
        QVERIFY(running(childPid));                         // the background child outlives it...
        const test::CliResult next = test::runRooftop({"devices"});
        QCOMPARE(next.exitCode, 0);
        // ... until the next start: both sleeps
        QCOMPARE(next.err, QString("rooftop: killed 2 runner process(es) an interrupted measurement left\n"));
        QTRY_VERIFY_WITH_TIMEOUT(!running(childPid), 2000);
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
    QTemporaryDir records_;
};

ROOFTOP_TEST_CLASS(RunnerProcesses)
#include "test_runner_processes.moc"
