// SPDX-License-Identifier: GPL-3.0-or-later
// The trtexec runner against a fake trtexec script: the arguments it gets (--onnx, --shapes at the batch for
// a dynamic-batch model, --fp16 / --int8) and the ROOFTOP_* environment, the median and p99 read from the
// "GPU Compute Time" summary (else "Latency"), trtexec's own [E] line as the reason of a failed run, runs it
// cannot do (training, another batch of a static model) failed without starting it, and how it is found.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/measure/trtexec_runner.h"
#include "support/cli_runner.h"
#include "support/test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include "support/test_registry.h"

using namespace rooftop;

namespace {

const DeviceSpec& orin() {
    static const auto devices = loadCatalog(ROOFTOP_SOURCE_DATA_DIR "/devices");
    return findDevice(devices, "agx-orin-64gb");
}

RunConfig maxn(int64_t batch, const std::string& precision = "fp32") {
    return RunConfig{powerModeFrom(orin(), *orin().stockMode(0)), batch, precision, "inference"};
}

const char* const summary =
    "[12/01/2026-10:00:00] [I] === Performance summary ===\n"
    "[12/01/2026-10:00:00] [I] Throughput: 812.3 qps\n"
    "[12/01/2026-10:00:00] [I] Latency: min = 1.1 ms, max = 2.0 ms, mean = 1.3 ms, median = 1.25 ms, "
    "percentile(90%) = 1.5 ms, percentile(95%) = 1.6 ms, percentile(99%) = 1.9 ms\n"
    "[12/01/2026-10:00:00] [I] GPU Compute Time: min = 0.9 ms, max = 1.7 ms, mean = 1.0 ms, median = 0.98 "
    "ms, "
    "percentile(90%) = 1.2 ms, percentile(95%) = 1.3 ms, percentile(99%) = 1.6 ms\n"
    "&&&& PASSED TensorRT.trtexec\n";

/// A fake trtexec in a temporary folder: logs its arguments and environment, prints a summary; --int8 fails.
struct FakeTrtexec {
    FakeTrtexec() {
        QFile file(path());
        file.open(QIODevice::WriteOnly);
        file.write(
            QString("#!/bin/sh\n"
                    "printf '%s\\n' \"$@\" > '" +
                    log() +
                    "'\n"
                    "echo \"batch=$ROOFTOP_BATCH mode=$ROOFTOP_MODE\" >> '" +
                    log() +
                    "'\n"
                    "case \"$*\" in *--int8*) echo '[12/01/2026-10:00:00] [E] Error[4]: no calibrator'; "
                    "exit 1;; esac\n"
                    "cat <<'END'\n" +
                    QString(summary) + "END\n")
                .toUtf8());
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QString path() const { return dir.filePath("trtexec"); }
    QString log() const { return dir.filePath("args.txt"); }
    QStringList args() const {
        QFile file(log());
        return file.open(QIODevice::ReadOnly)
                   ? QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts)
                   : QStringList();
    }
    QTemporaryDir dir;
};

} // namespace

class TrtexecRunnerTest : public QObject {
    Q_OBJECT
private slots:
    void summaryParsed() {
        const RunResult r = parseTrtexecOutput(summary);
        QVERIFY(r.ok);
        QCOMPARE(r.latencyMs, 0.98); // GPU compute time, not the host latency
        QCOMPARE(r.p99Ms, 1.6);
        const RunResult latency =
            parseTrtexecOutput("[I] Latency: min = 1 ms, median = 1.25 ms, max = 2 ms\n");
        QVERIFY(latency.ok);
        QCOMPARE(latency.latencyMs, 1.25);
        QCOMPARE(latency.p99Ms, 1.25);
        QVERIFY(!parseTrtexecOutput("&&&& FAILED TensorRT.trtexec\n").ok);
        QVERIFY(!parseTrtexecOutput("[I] GPU Compute Time: median = -1 ms\n").ok);
    }

    void runsTheModelAtTheBatchAndPrecision() {
        FakeTrtexec fake;
        const std::string model = test::samplePath("resnet18");
        TrtexecRunner runner(fake.path().toStdString(), model, 10);
        const RunResult r = runner.run(maxn(4, "fp16"), nullptr);
        QVERIFY2(r.ok, r.failure.c_str());
        QCOMPARE(r.latencyMs, 0.98);
        QCOMPARE(fake.args(), (QStringList{QString::fromStdString("--onnx=" + model),
                                           "--shapes=input:4x3x224x224", "--fp16", "batch=4 mode=MAXN"}));
        QCOMPARE(QString::fromStdString(runner.name()), QString("trtexec"));
    }

    void failuresCarryTrtexecsReason() {
        FakeTrtexec fake;
        TrtexecRunner runner(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        const RunResult int8 = runner.run(maxn(1, "int8"), nullptr);
        QVERIFY(!int8.ok);
        QCOMPARE(QString::fromStdString(int8.failure), QString("trtexec exit 1: Error[4]: no calibrator"));
        RunConfig training = maxn(1);
        training.phase = "training";
        QFile::remove(fake.log());
        QCOMPARE(QString::fromStdString(runner.run(training, nullptr).failure),
                 QString("trtexec runs inference only"));
        QVERIFY(!QFile::exists(fake.log())); // not even started
    }

    void staticBatchModelRunsOnlyItsBatch() {
        FakeTrtexec fake;
        const QString model = fake.dir.filePath("static.onnx");
        QVERIFY(test::writeTextModel(model, R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,4] x) => (float[2,4] y) {
                y = Relu (x)
            })"));
        TrtexecRunner runner(fake.path().toStdString(), model.toStdString(), 10);
        QVERIFY(runner.run(maxn(2), nullptr).ok);
        QVERIFY(!fake.args().join(' ').contains("--shapes")); // a static model takes no shapes
        const RunResult other = runner.run(maxn(8), nullptr);
        QVERIFY(!other.ok);
        QVERIFY2(QString::fromStdString(other.failure).contains("fixed at 2"), other.failure.c_str());
    }

    void refusedOrFound() {
        QVERIFY_EXCEPTION_THROWN(TrtexecRunner("/nonexistent/trtexec", test::samplePath("resnet18"), 10),
                                 InputError);
        FakeTrtexec fake;
        QVERIFY_EXCEPTION_THROWN(TrtexecRunner(fake.path().toStdString(), "/nonexistent/model.onnx", 10),
                                 InputError);
        const QByteArray saved = qgetenv("ROOFTOP_TRTEXEC");
        const bool had = qEnvironmentVariableIsSet("ROOFTOP_TRTEXEC");
        qputenv("ROOFTOP_TRTEXEC", fake.path().toUtf8());
        QCOMPARE(QString::fromStdString(findTrtexec()), fake.path());
        qputenv("ROOFTOP_TRTEXEC", "");
        QVERIFY(findTrtexec().empty()); // set but empty: none, whatever is on PATH
        const QByteArray path = qgetenv("PATH");
        qunsetenv("ROOFTOP_TRTEXEC");
        qputenv("PATH", fake.dir.path().toUtf8());
        QCOMPARE(QString::fromStdString(findTrtexec()), fake.path());
        qputenv("PATH", path);
        if (had) qputenv("ROOFTOP_TRTEXEC", saved);
    }
};

ROOFTOP_TEST_CLASS(TrtexecRunnerTest)
#include "test_trtexec_runner.moc"
