// SPDX-License-Identifier: GPL-3.0-or-later
// The trtexec runner against a fake trtexec script: the arguments it gets (--onnx, --shapes at the batch for
// a dynamic-batch model, --fp16 / --int8) and the ROOFTOP_* environment, the median and p99 read from the
// "GPU Compute Time" summary (else "Latency"), trtexec's own [E] line as the reason of a failed run, runs it
// cannot do (training, another batch of a static model) failed without starting it, and how it is found.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/measure/layers_file.h"
#include "core/measure/profile_sweep.h"
#include "core/measure/trtexec_runner.h"
#include "support/cli_runner.h"
#include "support/device_fixtures.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using rooftop::test::shippedAgxOrin;

namespace {

RunConfig maxnRun(int64_t batch, Precision precision = Precision::FP32) {
    return RunConfig{powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(0)),
                     batch,
                     precision,
                     Phase::Inference,
                     {}};
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

/// A fake trtexec in a temporary folder: prints the banner of TensorRT 10.3, logs the arguments of its last
/// call and every call's first argument, writes the engine of --saveEngine, the times of --exportTimes and
/// the layer profile of --exportProfile (unless told not to, or a broken one), prints a summary; --int8 fails
/// as a real build without a calibrator does.
struct FakeTrtexec {
    FakeTrtexec() : cache("ROOFTOP_CACHE_DIR", dir.filePath("cache").toUtf8()) {
        QFile file(path());
        file.open(QIODevice::WriteOnly);
        file.write(
            QString("#!/bin/sh\n"
                    "echo '&&&& RUNNING TensorRT.trtexec [TensorRT v100300] # trtexec'\n"
                    "printf '%s\\n' \"$@\" > '" +
                    log() +
                    "'\n"
                    "echo \"batch=$ROOFTOP_BATCH mode=$ROOFTOP_MODE\" >> '" +
                    log() +
                    "'\n"
                    "case \"$*\" in *--exportTimes=*) cp '" +
                    log() + "' '" + timed() + "'; echo \"$1 timed\" >> '" + calls() +
                    "';; *) echo \"$1\" >> '" + calls() +
                    "';; esac\n"
                    "case \"$*\" in *--exportProfile=*) [ -e '" +
                    dir.filePath("fail-profile") +
                    "' ] && exit 3;; esac\n"
                    "case \"$*\" in *--int8*) echo '[12/01/2026-10:00:00] [E] Error[4]: no calibrator'; "
                    "exit 1;; esac\n"
                    "for a in \"$@\"; do case \"$a\" in\n"
                    "  --saveEngine=*) echo engine > \"${a#--saveEngine=}\";;\n"
                    "  --exportTimes=*) [ -e '" +
                    dir.filePath("no-times") + "' ] || printf '%s' '" + times +
                    "' > \"${a#--exportTimes=}\";;\n"
                    "  --exportProfile=*) if [ -e '" +
                    dir.filePath("bad-profile") +
                    "' ]; then echo '[{\"count\": 3}, {\"name\": 1}]' > "
                    "\"${a#--exportProfile=}\"; elif [ ! -e '" +
                    dir.filePath("no-profile") + "' ]; then printf '%s' '" + profile +
                    "' > \"${a#--exportProfile=}\"; fi;;\n"
                    "esac; done\n"
                    "cat <<'END'\n" +
                    QString(summary) + "END\n")
                .toUtf8());
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QString path() const { return dir.filePath("trtexec"); }
    QString log() const { return dir.filePath("args.txt"); }
    QString calls() const { return dir.filePath("calls.txt"); }
    QString timed() const { return dir.filePath("timed-args.txt"); }
    QStringList lines(const QString& name) const {
        QFile file(name);
        return file.open(QIODevice::ReadOnly)
                   ? QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts)
                   : QStringList();
    }
    QStringList args() const { return lines(log()); }
    /// How many calls built an engine (first argument --onnx=) and how many timed one (--loadEngine=).
    int builds() const {
        return static_cast<int>(lines(calls()).filter(QRegularExpression("^--onnx=")).size());
    }
    int timings() const {
        return static_cast<int>(lines(calls()).filter(QRegularExpression("^--loadEngine=.* timed$")).size());
    }
    /// How many calls profiled the layers.
    int profilings() const {
        return static_cast<int>(lines(calls()).filter(QRegularExpression("^--loadEngine=\\S+$")).size());
    }
    QTemporaryDir dir;
    test::ScopedEnv cache;
    /// Four inferences: compute 0.5, 0.6, 0.7, 0.9 ms (median 0.65, p99 0.9).
    /// Two layers in the TRT 10 layout, after the count record.
    QString profile =
        "[\n  { \"count\" : 4 }\n, { \"name\" : \"/conv1/Conv + /relu/Relu\", \"timeMs\" : 2.4, "
        "\"averageMs\" : 0.6, \"medianMs\" : 0.58, \"percentage\" : 75 }\n, { \"name\" : "
        "\"Reformatting CopyNode for Output Tensor 0 to /fc/Gemm\", \"timeMs\" : 0.8, "
        "\"averageMs\" : 0.2, \"medianMs\" : 0.2, \"percentage\" : 25 }\n]";
    QString times = "[{\"computeMs\": 0.7, \"latencyMs\": 1.0}, {\"computeMs\": 0.5, \"latencyMs\": 0.8},"
                    " {\"computeMs\": 0.9, \"latencyMs\": 1.3}, {\"computeMs\": 0.6, \"latencyMs\": 0.9}]";
};

} // namespace

class TrtexecRunnerTest : public QObject {
    Q_OBJECT
private slots:
    void summaryParsed() {
        const RunResult r = parseTrtexecOutput(summary);
        QVERIFY(r.ok);
        QCOMPARE(r.latencyMs, 0.98); // GPU compute time, not the host latency
        QCOMPARE(r.p99Ms, std::optional<double>(1.6));
        const RunResult latency =
            parseTrtexecOutput("[I] Latency: min = 1 ms, median = 1.25 ms, max = 2 ms\n");
        QVERIFY(latency.ok);
        QCOMPARE(latency.latencyMs, 1.25);
        QVERIFY(!latency.p99Ms); // no p99 in the output: none recorded, not the median
        QVERIFY(!parseTrtexecOutput("&&&& FAILED TensorRT.trtexec\n").ok);
        QVERIFY(!parseTrtexecOutput("[I] GPU Compute Time: median = -1 ms\n").ok);
    }

    void runsTheModelAtTheBatchAndPrecision() {
        FakeTrtexec fake;
        const std::string model = test::samplePath("resnet18");
        TrtexecRunner runner(fake.path().toStdString(), model, 10);
        const RunResult r = runner.run(maxnRun(4, Precision::FP16), nullptr);
        QVERIFY2(r.ok, r.failure.c_str());
        QCOMPARE(r.latencyMs, 0.65); // median GPU compute time of the exported inferences
        QCOMPARE(r.p99Ms, std::optional<double>(0.9));
        const QStringList timing = fake.lines(fake.timed());
        QCOMPARE(timing.size(), 6);
        QVERIFY2(timing[0].startsWith("--loadEngine=" + fake.dir.filePath("cache/engines/")) &&
                     timing[0].contains("-b4-fp16-trt") && timing[0].endsWith(".engine"),
                 qPrintable(timing[0]));
        QCOMPARE(timing.mid(1, 3),
                 (QStringList{"--shapes=input:4x3x224x224", "--warmUp=500", "--duration=3"}));
        QVERIFY(timing[4].startsWith("--exportTimes="));
        QCOMPARE(timing[5], QString("batch=4 mode=MAXN"));
        // the layers in a short run of their own after the timed one
        const QStringList profiling = fake.args();
        QCOMPARE(profiling.mid(0, 2), timing.mid(0, 2)); // the same engine and shapes
        QCOMPARE(profiling.mid(2, 3), (QStringList{"--warmUp=0", "--duration=0", "--iterations=50"}));
        QVERIFY(profiling[5].startsWith("--exportProfile="));
        QCOMPARE(fake.timings(), 1);
        QCOMPARE(fake.profilings(), 1);
        QCOMPARE(r.layers.size(), size_t(2));
        QCOMPARE(QString::fromStdString(r.layers[0].name), QString("/conv1/Conv + /relu/Relu"));
        QCOMPARE(r.layers[0].averageMs, 0.6);
        QCOMPARE(r.layers[0].medianMs, 0.58);
        QCOMPARE(r.layers[1].percent, 25.0);
        QVERIFY(r.note.empty());
        QCOMPARE(fake.builds(), 1);
        QCOMPARE(QString::fromStdString(runner.name()), QString("trtexec"));
    }

    void engineIsBuiltOncePerModelBatchAndPrecision() {
        FakeTrtexec fake;
        TrtexecRunner runner(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        QVERIFY(runner.run(maxnRun(1), nullptr).ok);
        QVERIFY(runner.run(maxnRun(1), nullptr).ok);
        QCOMPARE(fake.builds(), 1); // the second run loads the cached engine
        QCOMPARE(fake.timings(), 2);
        QVERIFY(runner.run(maxnRun(2), nullptr).ok);
        QVERIFY(runner.run(maxnRun(1, Precision::FP16), nullptr).ok);
        QCOMPARE(fake.builds(), 3);
        // another runner of the same model finds the engines in the cache
        TrtexecRunner again(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        QVERIFY(again.run(maxnRun(2), nullptr).ok);
        QCOMPARE(fake.builds(), 3);
        const QStringList engines = QDir(fake.dir.filePath("cache/engines")).entryList(QDir::Files);
        QCOMPARE(engines.size(), 3);
        QVERIFY(engines.filter(".partial").isEmpty());
    }

    void missingOrBrokenLayerProfileKeepsTheRun() {
        FakeTrtexec fake;
        TrtexecRunner runner(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        for (const char* marker : {"no-profile", "bad-profile", "fail-profile"}) {
            QFile file(fake.dir.filePath(marker));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.close();
            const RunResult r = runner.run(maxnRun(1), nullptr);
            QVERIFY2(r.ok, r.failure.c_str());
            QCOMPARE(r.latencyMs, 0.65);
            QVERIFY(r.layers.empty());
            QVERIFY2(QString::fromStdString(r.note).startsWith("no layer profile: "), r.note.c_str());
            if (QString(marker) == "bad-profile")
                QVERIFY2(QString::fromStdString(r.note).contains("record 2: 'name'"), r.note.c_str());
            if (QString(marker) == "fail-profile")
                QVERIFY2(QString::fromStdString(r.note).contains("trtexec exit 3"), r.note.c_str());
            QFile::remove(fake.dir.filePath(marker));
        }
    }

    void tensorRtVersionIsInTheEngineKey() {
        QCOMPARE(
            QString::fromStdString(parseTensorRtVersion(
                "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # /usr/src/tensorrt/bin/trtexec --help\n")),
            QString("8601"));
        QVERIFY(parseTensorRtVersion("&&&& RUNNING TensorRT.trtexec [TensorRT v] #").empty());
        QVERIFY(parseTensorRtVersion("[I] TensorRT version: 10.3.0").empty());
        FakeTrtexec fake;
        TrtexecRunner runner(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        QVERIFY(runner.run(maxnRun(1), nullptr).ok);
        const QStringList engines = QDir(fake.dir.filePath("cache/engines")).entryList(QDir::Files);
        QCOMPARE(engines.size(), 1);
        QVERIFY2(engines[0].contains("-b1-fp32-trtv100300-"), qPrintable(engines[0]));
    }

    void sweepWritesTrtexecLayersBesideTheRuns() {
        FakeTrtexec fake;
        TrtexecRunner runner(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        ProfileEnvironment env;
        env.runner = &runner;
        ProfileOptions options;
        options.outPath = fake.dir.filePath("resnet18-runs.csv").toStdString();
        options.batches = {1, 2};
        const ProfileOutcome outcome =
            runProfileSweep(shippedAgxOrin(), {maxnRun(1).mode}, env, options, nullptr, nullptr);
        QCOMPARE(outcome.ok, size_t(2));
        QCOMPARE(QString::fromStdString(outcome.layersPath), fake.dir.filePath("resnet18-runs.layers.csv"));
        const std::vector<LayerRow> rows = readLayersFile(outcome.layersPath);
        QCOMPARE(rows.size(), size_t(4));
        QCOMPARE(rows[2].batch, int64_t(2));
        QCOMPARE(rows[2].mode, std::string("MAXN"));
        QCOMPARE(rows[2].repeat, 1);
        QCOMPARE(rows[3].layer.name, std::string("Reformatting CopyNode for Output Tensor 0 to /fc/Gemm"));
        QCOMPARE(rows[3].layer.averageMs, 0.2);
    }

    void withoutExportedTimesTheSummaryIsRead() {
        FakeTrtexec fake;
        QFile marker(fake.dir.filePath("no-times"));
        QVERIFY(marker.open(QIODevice::WriteOnly));
        marker.close();
        TrtexecRunner runner(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        const RunResult r = runner.run(maxnRun(1), nullptr);
        QVERIFY2(r.ok, r.failure.c_str());
        QCOMPARE(r.latencyMs, 0.98);
    }

    void exportedTimesAreChecked() {
        const RunResult odd =
            parseTrtexecTimes("[{\"computeMs\": 2}, {\"computeMs\": 1}, {\"computeMs\": 3}]");
        QVERIFY(odd.ok);
        QCOMPARE(odd.latencyMs, 2.0);
        QCOMPARE(odd.p99Ms, std::optional<double>(3.0));
        QCOMPARE(parseTrtexecTimes("[{\"latencyMs\": 1.5}]").latencyMs, 1.5); // no computeMs: the latency
        for (const char* bad : {"", "{}", "[]", "[{\"computeMs\": -1}]", "[{\"computeMs\": \"1\"}]", "[1, 2]",
                                "[{\"computeMs\": 1e300}]", "[{\"computeMs\": 1}", "[{}]"})
            QVERIFY2(!parseTrtexecTimes(bad).ok, bad);
    }

    void failuresCarryTrtexecsReason() {
        FakeTrtexec fake;
        TrtexecRunner runner(fake.path().toStdString(), test::samplePath("resnet18"), 10);
        const RunResult int8 = runner.run(maxnRun(1, Precision::INT8), nullptr);
        QVERIFY(!int8.ok);
        QCOMPARE(QString::fromStdString(int8.failure),
                 QString("engine build: trtexec exit 1: Error[4]: no calibrator"));
        QVERIFY(
            QDir(fake.dir.filePath("cache/engines")).entryList(QDir::Files).isEmpty()); // no half engine kept
        RunConfig training = maxnRun(1);
        training.phase = Phase::Training;
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
        QVERIFY(runner.run(maxnRun(2), nullptr).ok);
        QVERIFY(!fake.args().join(' ').contains("--shapes")); // a static model takes no shapes
        const RunResult other = runner.run(maxnRun(8), nullptr);
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
