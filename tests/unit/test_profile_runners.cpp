// SPDX-License-Identifier: GPL-3.0-or-later
// The runners of rooftop profile. The runner line: latency_ms required, p99/power/energy optional, lying and
// malformed lines failed with their reason. The command runner: the ROOFTOP_* environment, exit codes with
// stderr's last line, a hanging command killed with its whole process group at a 1 s limit, cancel, and
// commands that are not executables refused up front. The simulated board: deterministic per seed and
// repeat, and physics unlike the roofline prior (an efficiency that changes with batch, slower and cooler at
// lower clocks).
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/ceilings.h"
#include "core/measure/command_runner.h"
#include "core/measure/csv_append.h"
#include "core/measure/runner_line.h"
#include "core/measure/runner_spec.h"
#include "core/measure/runs_file.h"
#include "core/measure/simulated_board.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>
using namespace rooftop;
using rooftop::test::shippedAgxOrin;

namespace {

RunConfig maxn(int64_t batch = 1, Precision precision = Precision::FP32) {
    return RunConfig{powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(0)),
                     batch,
                     precision,
                     Phase::Inference,
                     {}};
}

QString failureOf(const std::string& output) {
    const RunResult r = parseRunnerOutput(output);
    return r.ok ? QString() : QString::fromStdString(r.failure);
}

const std::map<Precision, Workload>& resnetCounts() {
    static const std::map<Precision, Workload> counts = [] {
        std::map<Precision, Workload> c;
        for (Precision precision : {Precision::FP32, Precision::FP16, Precision::INT8}) {
            AnalysisSettings settings;
            settings.precision = precision;
            settings.dims.batch = 1;
            c.emplace(precision, test::analyzeSample("resnet18", settings));
        }
        return c;
    }();
    return counts;
}

/// True once no process `pid` runs (gone, or a zombie waiting for init).
bool processGone(long pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return true;
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

} // namespace

class ProfileRunners : public QObject {
    Q_OBJECT
private slots:
    void runnerLineAccepted() {
        const RunResult r =
            parseRunnerOutput("warming up\n{\"latency_ms\": 2.5, \"p99_ms\": 3, \"power_w\": 20, "
                              "\"energy_j\": 0.05, \"extra\": \"ignored\"}\n\n  \n");
        QVERIFY(r.ok);
        QCOMPARE(r.latencyMs, 2.5);
        QCOMPARE(r.p99Ms, std::optional<double>(3.0));
        QCOMPARE(r.powerW.value(), 20.0);
        QCOMPARE(r.energyJ.value(), 0.05);
        const RunResult bare = parseRunnerOutput("{\"latency_ms\":1e-3}");
        QVERIFY(bare.ok);
        QVERIFY(!bare.p99Ms); // no p99: none, not the median read as a measured tail
        const RunRow row = runRowFrom(RunConfig{}, bare, "command", "profile");
        QVERIFY(!row.p99Ms);
        std::vector<std::string> fields;
        QVERIFY(splitCsvLine(formatRunRow(row), fields, nullptr));
        QCOMPARE(fields[9], std::string()); // the p99_ms column, empty
        QVERIFY(!bare.powerW && !bare.energyJ);
    }

    void lyingOrMalformedLinesFail_data() {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("reason");
        QTest::newRow("nothing") << ""
                                 << "no output line";
        QTest::newRow("blank lines") << "\n  \n\n"
                                     << "no output line";
        QTest::newRow("text") << "done in 3 ms\n"
                              << "last line is not a JSON object: done in 3 ms";
        QTest::newRow("json earlier, text last") << "{\"latency_ms\": 2}\nbye\n"
                                                 << "not a JSON object: bye";
        QTest::newRow("array") << "[2.5]"
                               << "not a JSON object";
        QTest::newRow("NaN") << "{\"latency_ms\": NaN}"
                             << "not a JSON object";
        QTest::newRow("missing latency") << "{\"p99_ms\": 3}"
                                         << "no latency_ms";
        QTest::newRow("negative latency") << "{\"latency_ms\": -1}"
                                          << "latency_ms must be positive and finite";
        QTest::newRow("zero latency") << "{\"latency_ms\": 0}"
                                      << "latency_ms must be positive";
        QTest::newRow("string latency") << "{\"latency_ms\": \"2.5\"}"
                                        << "latency_ms is not a number";
        QTest::newRow("huge latency") << "{\"latency_ms\": 1e999}"
                                      << "latency_ms";
        QTest::newRow("p99 below median") << "{\"latency_ms\": 5, \"p99_ms\": 4}"
                                          << "p99_ms is below latency_ms";
        QTest::newRow("negative power") << "{\"latency_ms\": 5, \"power_w\": -3}"
                                        << "power_w must be positive";
        QTest::newRow("null energy") << "{\"latency_ms\": 5, \"energy_j\": null}"
                                     << "energy_j is not a number";
    }

    void lyingOrMalformedLinesFail() {
        QFETCH(QString, output);
        QFETCH(QString, reason);
        const QString failure = failureOf(output.toStdString());
        QVERIFY2(failure.contains(reason), qPrintable("'" + failure + "', wanted '" + reason + "'"));
        QVERIFY(!failure.contains('\n'));
    }

    void commandSeesTheConfiguration() {
        QTemporaryDir dir;
        const QString envFile = dir.filePath("env.txt");
        CommandRunner runner("env | grep '^ROOFTOP_' | sort > '" + envFile.toStdString() +
                                 "'; printf '{\"latency_ms\": %s, \"power_w\": 11}\\n' \"$ROOFTOP_BATCH\"",
                             "/models/net.onnx", 10);
        RunConfig config = maxn(4, Precision::INT8);
        config.mode = parseCustomMode(shippedAgxOrin(), "cores=8,cpu=1728000,gpu=612000000,emc=3199000000");
        config.phase = Phase::Training;
        const RunResult r = runner.run(config, nullptr);
        QVERIFY2(r.ok, r.failure.c_str());
        QCOMPARE(r.latencyMs, 4.0);
        QCOMPARE(r.powerW.value(), 11.0);
        QFile file(envFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString env = QString::fromUtf8(file.readAll());
        for (const char* line :
             {"ROOFTOP_BATCH=4\n", "ROOFTOP_CORES=8\n", "ROOFTOP_CPU_KHZ=1728000\n",
              "ROOFTOP_EMC_HZ=3199000000\n", "ROOFTOP_GPU_HZ=612000000\n",
              "ROOFTOP_MODE=c8-cpu1728-gpu612-emc3199\n", "ROOFTOP_MODEL=/models/net.onnx\n",
              "ROOFTOP_PHASE=training\n", "ROOFTOP_PRECISION=int8\n"})
            QVERIFY2(env.contains(line), qPrintable(env));
    }

    void failingCommandReportsExitAndStderr() {
        CommandRunner runner("echo '{\"latency_ms\": 1}'; echo 'CUDA out of memory' >&2; exit 3", "m.onnx",
                             10);
        const RunResult r = runner.run(maxn(), nullptr);
        QVERIFY(!r.ok);
        QCOMPARE(QString::fromStdString(r.failure), QString("exit 3: CUDA out of memory"));
        CommandRunner killed("kill -9 $$", "m.onnx", 10);
        QCOMPARE(QString::fromStdString(killed.run(maxn(), nullptr).failure), QString("killed by signal 9"));
    }

    void hangingCommandIsKilledWithItsGroup() {
        QTemporaryDir dir;
        const QString pidFile = dir.filePath("pid");
        CommandRunner runner("sleep 30 & echo $! > '" + pidFile.toStdString() + "'; wait", "m.onnx", 1.0);
        const RunResult r = runner.run(maxn(), nullptr);
        QVERIFY(!r.ok);
        QCOMPARE(QString::fromStdString(r.failure), QString("timed out after 1 s (process group killed)"));
        QFile file(pidFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const long pid = file.readAll().trimmed().toLong();
        QVERIFY(pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(processGone(pid), 2000); // the background sleep died with the group
    }

    void cancelStopsARun() {
        std::atomic<bool> cancel{true};
        CommandRunner runner("sleep 30", "m.onnx", 60);
        const RunResult r = runner.run(maxn(), &cancel);
        QVERIFY(!r.ok);
        QCOMPARE(QString::fromStdString(r.failure), QString("cancelled"));
    }

    void cancelMidRunReturnsPromptlyEvenWhenAGrandchildEscapes() {
        const auto openFds = [] {
            return QDir("/proc/self/fd").entryList(QDir::NoDotAndDotDot | QDir::System).size();
        };
        const auto before = openFds();
        std::atomic<bool> cancel{false};
        // setsid puts the sleep in a session of its own: the group kill misses it and it keeps the pipes open
        CommandRunner runner("setsid sleep 8 & sleep 30", "m.onnx", 60);
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel = true;
        });
        QElapsedTimer timer;
        timer.start();
        const RunResult r = runner.run(maxn(), &cancel);
        stopper.join();
        QCOMPARE(QString::fromStdString(r.failure), QString("cancelled"));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()))); // 2 s grace, not 60 s
        QCOMPARE(openFds(), before); // the pipes the escaped sleep still holds are closed on our side
    }

    void lostExitStatusIsAFailureNotASuccess() {
        // a parent that ignores SIGCHLD makes the kernel reap children: their exit status cannot be read
        struct sigaction ignore {
        }, previous{};
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGCHLD, &ignore, &previous);
        CommandRunner runner("echo '{\"latency_ms\": 1}'; exit 3", "m.onnx", 10);
        const RunResult r = runner.run(maxn(), nullptr);
        sigaction(SIGCHLD, &previous, nullptr);
        QVERIFY(!r.ok);
        QVERIFY2(QString::fromStdString(r.failure).contains("exit status"), r.failure.c_str());
    }

    void commandsThatCannotRunAreRefused() {
        QVERIFY_EXCEPTION_THROWN(CommandRunner("", "m.onnx", 1), InputError);
        QVERIFY_EXCEPTION_THROWN(CommandRunner("/nonexistent/trtexec --onnx=x", "m.onnx", 1), InputError);
        QVERIFY_EXCEPTION_THROWN(CommandRunner("no-such-tool-rooftop-test --x", "m.onnx", 1), InputError);
        QTemporaryDir dir;
        const QString script = dir.filePath("run.sh");
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\necho '{\"latency_ms\": 1}'\n");
        file.close();
        QVERIFY_EXCEPTION_THROWN(CommandRunner(script.toStdString(), "m.onnx", 1), InputError); // not +x
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(CommandRunner(script.toStdString() + " --fast", "m.onnx", 5).run(maxn(), nullptr).ok);
    }

    void runnerSpecs() {
        QCOMPARE(int(parseRunnerSpec("").kind), int(RunnerSpec::Kind::None));
        QCOMPARE(int(parseRunnerSpec("sim").kind), int(RunnerSpec::Kind::Simulator));
        QCOMPARE(parseRunnerSpec("simulator:17").seed, uint64_t(17));
        QCOMPARE(parseRunnerSpec("command:echo a:b").command, std::string("echo a:b"));
        QVERIFY_EXCEPTION_THROWN(parseRunnerSpec("simulator:x"), InputError);
        QVERIFY_EXCEPTION_THROWN(parseRunnerSpec("command:"), InputError);
        QVERIFY_EXCEPTION_THROWN(parseRunnerSpec("onnxruntime"), InputError);
        QCOMPARE(int(parseRunnerSpec("trtexec").kind), int(RunnerSpec::Kind::Trtexec));
        QCOMPARE(parseRunnerSpec("trtexec:/opt/trt/trtexec").command, std::string("/opt/trt/trtexec"));
        QVERIFY_EXCEPTION_THROWN(parseRunnerSpec("trtexec:"), InputError);
    }

    void simulatorIsDeterministicPerSeedAndRepeat() {
        SimulatedBoardRunner a(shippedAgxOrin(), resnetCounts(), 7), b(shippedAgxOrin(), resnetCounts(), 7),
            c(shippedAgxOrin(), resnetCounts(), 8);
        const RunResult a1 = a.run(maxn(4), nullptr), a2 = a.run(maxn(4), nullptr);
        const RunResult b1 = b.run(maxn(4), nullptr), c1 = c.run(maxn(4), nullptr);
        QVERIFY(a1.ok && a2.ok && b1.ok && c1.ok);
        QCOMPARE(a1.latencyMs, b1.latencyMs);
        QCOMPARE(a1.powerW.value(), b1.powerW.value());
        QVERIFY(a1.latencyMs != a2.latencyMs); // a repeat is another noisy sample
        QVERIFY(a1.latencyMs != c1.latencyMs);
        QVERIFY(std::abs(a1.latencyMs / a2.latencyMs - 1.0) < 0.15); // ... of the same thing
        QVERIFY(a1.p99Ms >= a1.latencyMs);
        QVERIFY(std::abs(a1.energyJ.value() - a1.powerW.value() * a1.latencyMs * 1e-3) < 1e-12);
        QCOMPARE(QString::fromStdString(a.name()), QString("sim:7"));
    }

    void simulatorDrawsAResumedRepeatApart() {
        // a fresh runner asked for the file's second run of a configuration draws that repeat's noise, not
        // the first run's again (a resumed profile's repeats are not copies)
        SimulatedBoardRunner a(shippedAgxOrin(), resnetCounts(), 7),
            resumed(shippedAgxOrin(), resnetCounts(), 7);
        const RunResult a1 = a.run(maxn(4), nullptr), a2 = a.run(maxn(4), nullptr);
        RunConfig second = maxn(4);
        second.repeat = 1;
        const RunResult r2 = resumed.run(second, nullptr), r3 = resumed.run(maxn(4), nullptr);
        QCOMPARE(r2.latencyMs, a2.latencyMs);
        QVERIFY(r2.latencyMs != a1.latencyMs);
        QVERIFY(r3.latencyMs != a1.latencyMs && r3.latencyMs != a2.latencyMs); // and goes on from there
    }

    void simulatorPhysicsDifferFromTheRoofline() {
        SimulatedBoardRunner sim(shippedAgxOrin(), resnetCounts(), 0);
        const WorkloadTotals& t = resnetCounts().at(Precision::FP32).totals;
        const Ceilings raw = deriveCeilings(shippedAgxOrin(), maxn().mode, RuntimeProfile{});
        auto rooflineMs = [&](double batch) {
            const double w = batch * double(t.flops + t.sfuOps);
            const double q = double(t.weightBytes) + batch * double(t.inputBytes + t.outputBytes);
            return 1e3 * std::max(w / raw.peak(ComputeClass::Fp32CudaCore).value, q / raw.bandwidth.value);
        };
        const double ratio1 = sim.run(maxn(1), nullptr).latencyMs / rooflineMs(1);
        const double ratio32 = sim.run(maxn(32), nullptr).latencyMs / rooflineMs(32);
        QVERIFY2(ratio1 > 1.0 && ratio32 > 1.0, qPrintable(QString("%1 %2").arg(ratio1).arg(ratio32)));
        QVERIFY2(ratio1 > 1.3 * ratio32,
                 qPrintable(QString("%1 %2").arg(ratio1).arg(ratio32))); // no fixed efficiency
        // per sample, a bigger batch is cheaper
        QVERIFY(sim.run(maxn(16), nullptr).latencyMs / 16 < sim.run(maxn(1), nullptr).latencyMs);
        // a slow mode: slower, and less power
        RunConfig slow = maxn(4);
        slow.mode = parseCustomMode(shippedAgxOrin(), "cores=4,cpu=729600,gpu=306000000,emc=665600000");
        const RunResult fast = sim.run(maxn(4), nullptr), low = sim.run(slow, nullptr);
        QVERIFY(low.latencyMs > 2 * fast.latencyMs);
        QVERIFY(low.powerW.value() < fast.powerW.value());
        QVERIFY(low.powerW.value() > 0.8 * shippedAgxOrin().energy.idleWatts * 0.9);
        QVERIFY(fast.powerW.value() < shippedAgxOrin().maxModuleWatts * 1.2);
        // fp16 on tensor cores beats fp32; training costs more than inference
        QVERIFY(sim.run(maxn(8, Precision::FP16), nullptr).latencyMs <
                sim.run(maxn(8, Precision::FP32), nullptr).latencyMs);
        RunConfig training = maxn(8);
        training.phase = Phase::Training;
        QVERIFY(sim.run(training, nullptr).latencyMs > 2 * sim.run(maxn(8), nullptr).latencyMs);
        QVERIFY(!sim.run(maxn(1, Precision::AsModel), nullptr).ok); // no counts for it
    }
};

ROOFTOP_TEST_CLASS(ProfileRunners)
#include "test_profile_runners.moc"
