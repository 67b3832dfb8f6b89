// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop plan as a user runs it: the JSON fields, the strategies on the simulated board, and bad input
// (one line, exit 1): a bad trace, a rate <= 0, an SLO below the fastest inference, a model without
// trainable parameters, exhaustive with a runner, trtexec for a training step.
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace rooftop;

namespace {

QStringList base(const QString& extra = {}) {
    QStringList a = {"plan",
                     "--inference",
                     QString::fromStdString(test::samplePath("mobilenet_v2")),
                     "--training",
                     QString::fromStdString(test::samplePath("resnet18")),
                     "--device",
                     "agx-orin-64gb",
                     "--duration",
                     "10"};
    if (!extra.isEmpty()) a += extra.split(' ');
    return a;
}

void expectOneLineError(const QStringList& args, const char* needle) {
    const test::CliResult r = test::runRooftop(args);
    QVERIFY2(!r.crashed, qPrintable(args.join(' ')));
    QCOMPARE(r.exitCode, 1);
    const QString err = r.err.trimmed();
    QVERIFY2(!err.contains('\n'), qPrintable(err));
    QVERIFY2(err.contains(needle), qPrintable(err));
}

} // namespace

class TestPlanCli : public QObject {
    Q_OBJECT

private slots:
    void exhaustivePlanHasTheFieldsTheIssueNames() {
        const test::CliResult r = test::runRooftop(
            base("--arrival poisson:30 --latency-slo 100 --modes stock --confidence 0.5 --format json"));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["device"].toString(), QString("agx-orin-64gb"));
        QCOMPARE(o["schema"].toString(), QString("rooftop-plan/3"));
        QCOMPARE(o["inference_model"].toString(), // the path as given, as every document
                 QString::fromStdString(test::samplePath("mobilenet_v2")));
        QCOMPARE(o["training_model"].toString(), QString::fromStdString(test::samplePath("resnet18")));
        QVERIFY(o["inference_dims"].isObject() && o["training_dims"].isObject());
        QCOMPARE(o["predicted_at"].toString(), QString("the costs")); // at 0.5 the margin is none
        QCOMPARE(o["strategy"].toString(), QString("exhaustive"));
        QCOMPARE(o["profiled_modes"].toInt(), 0);
        const QJsonObject plan = o["plan"].toObject();
        for (const char* key :
             {"mode", "cores", "cpu_khz", "gpu_hz", "emc_hz", "inference_batch", "training_batch"})
            QVERIFY2(plan.contains(key), key);
        QCOMPARE(plan["training_batch"].toInt(), 16);
        const QJsonObject p = o["predicted"].toObject();
        for (const char* key : {"slo_violation_pct", "p50_ms", "p99_ms", "dropped",
                                "training_minibatches_per_s", "power_w", "window_energy_j"})
            QVERIFY2(p.contains(key), key);
        QVERIFY(p["slo_violation_pct"].toDouble() <= 1.0);
        QVERIFY(p["training_minibatches_per_s"].toDouble() > 0);
        QVERIFY(!o["candidates"].toArray().isEmpty());
        QCOMPARE(o["costs"].toObject()["inference_provenance"].toString(), QString("estimate"));
        QVERIFY(o.contains("closest_miss") && o["closest_miss"].isNull()); // there is a plan
        // on estimates: what they rest on, the margin's confidence, the plan at the estimates themselves
        QVERIFY(o["costs_estimated"].toBool());
        QCOMPARE(o["confidence"].toDouble(), 0.5); // as given: the plan at the estimates (no margin)
        QVERIFY(o["costs_basis"].toString().contains("training step: Rooftop's roofline, an estimate"));
        QVERIFY(o["at_estimates"].isObject());
        QVERIFY(o["at_estimates"].toObject()["power_w"].toDouble() <= p["power_w"].toDouble());
        // the policy table: greedy breaks the SLO far more often than adaptive at the same configuration
        const QJsonArray policies = o["policies"].toArray();
        QCOMPARE(policies.size(), 3);
        for (const QJsonValue& v : policies) {
            const QJsonObject row = v.toObject();
            QVERIFY(row["greedy_violation_pct"].toDouble() > row["adaptive_violation_pct"].toDouble());
        }
        QVERIFY(!o["timeline"].toArray().isEmpty());
    }

    // The issue's command: a cap on estimated costs is kept by their upper bounds, and the text says so
    void aCapOnEstimatesIsQualified() {
        const test::CliResult r =
            test::runRooftop(base("--arrival uniform:30 --latency-slo 300 --power-cap 22 --modes stock"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Costs: inference: Rooftop's roofline, an estimate"), qPrintable(r.out));
        QVERIFY2(r.out.contains("the estimates' error as a margin, not a measurement"), qPrintable(r.out));
        QVERIFY2(r.out.contains("at 90 %, the costs' error as a margin)"), qPrintable(r.out));
    }

    void gmdProfilesThroughTheSimulatedBoard() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("inference-runs.csv"),
                      trainingRuns = dir.filePath("training-runs.csv");
        const test::CliResult r = test::runRooftop(
            base("--arrival uniform:20 --latency-slo 120 --strategy gmd --runner sim --format json --runs " +
                 runs + " --training-runs " + trainingRuns));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        // every run is a row of its model's runs file: 5 batch sizes of inference and one step per mode
        const int profiled = o["profiled_modes"].toInt();
        auto rows = [](const QString& path) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) return -1;
            return static_cast<int>(f.readAll().count('\n')) - 1;
        };
        QCOMPARE(rows(runs), 5 * profiled);
        QCOMPARE(rows(trainingRuns), profiled);
        // a malformed runs file is refused before anything runs
        QFile bad(dir.filePath("bad.csv"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("mode,cores\nMAXN,x\n");
        bad.close();
        expectOneLineError(base("--arrival uniform:20 --latency-slo 120 --strategy gmd --runner sim --runs " +
                                dir.filePath("bad.csv") + " --training-runs " + trainingRuns),
                           "bad.csv");
        QVERIFY(o["profiled_modes"].toInt() >= 1);
        QVERIFY(o["profiled_modes"].toInt() <= 15);
        QCOMPARE(o["runner"].toString(), QString("sim:0"));
        QCOMPARE(o["costs"].toObject()["inference_provenance"].toString(), QString("simulated"));
        QVERIFY(r.err.contains("profiled 1 of at most 15 modes"));
        QVERIFY(!o["costs_estimated"].toBool());
        // with a runner and no --strategy, the plan measures
        const test::CliResult byDefault = test::runRooftop(base(
            "--arrival uniform:20 --latency-slo 120 --runner sim --max-profiles 2 --format json --runs " +
            runs + " --training-runs " + trainingRuns));
        QCOMPARE(byDefault.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(byDefault.out.toUtf8()).object()["strategy"].toString(),
                 QString("gmd"));
    }

    // at 0.5 the bounds are the estimates themselves: none is written, and the budgets' check says it took no
    // margin
    void atHalfNoBoundIsWritten() {
        const test::CliResult r =
            test::runRooftop(base("--arrival uniform:20 --latency-slo 120 --confidence 0.5"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Plan: "), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QString::fromUtf8("≤")), qPrintable(r.out));
        QVERIFY2(r.out.contains("with no margin for their error (--confidence 0.5)"), qPrintable(r.out));
    }

    // BERT's sequence length, bound by nothing, was taken as 1 without a word (analyze says it)
    void unboundDimsAreSaid() {
        QStringList args = base("--arrival uniform:10 --latency-slo 100 --modes stock --confidence 0.5");
        args[4] = QString::fromStdString(test::samplePath("bert_base"));
        const test::CliResult r = test::runRooftop(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Assumed dims: training sequence=1 (bind with --training-dim NAME=VALUE)"),
                 qPrintable(r.out));
        const test::CliResult json = test::runRooftop(args + QStringList{"--format", "json"});
        const QJsonObject assumed =
            QJsonDocument::fromJson(json.out.toUtf8()).object()["assumed_dims"].toObject();
        QCOMPARE(assumed["training"].toArray(), QJsonArray{QStringLiteral("sequence=1")});
        QVERIFY(assumed["inference"].toArray().isEmpty());
        // bound, nothing is assumed
        const test::CliResult bound = test::runRooftop(args + QStringList{"--training-dim", "sequence=128"});
        QCOMPARE(bound.exitCode, 0);
        QVERIFY2(!bound.out.contains("Assumed dims"), qPrintable(bound.out));
    }

    void aRunnerWhoseEveryProfileFailsStopsAndSaysSo() {
        QTemporaryDir dir;
        const QStringList args =
            base("--arrival uniform:20 --latency-slo 120 --runner command:false --no-switch --runs " +
                 dir.filePath("i.csv") + " --training-runs " + dir.filePath("t.csv"));
        const test::CliResult r = test::runRooftop(args);
        QVERIFY2(!r.crashed, qPrintable(r.err));
        QCOMPARE(r.exitCode, 3); // as profile and tune: nothing was measured
        QVERIFY2(r.out.contains(
                     "No plan: every profile through command failed (3): no mode was profiled completely"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("Costs: no mode profiled completely: every profile failed"),
                 qPrintable(r.out));
        QVERIFY2(!r.out.contains("relax the SLO") && !r.out.contains("measured through"), qPrintable(r.out));
        QVERIFY2(r.out.contains("the first 3 profiles all failed"), qPrintable(r.out));
        QVERIFY2(r.err.contains("rooftop: every profile failed (3)"), qPrintable(r.err));
        const test::CliResult json = test::runRooftop(args + QStringList{"--format", "json"});
        QCOMPARE(json.exitCode, 3);
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(o["profiled_modes"].toInt(), 3);
        QCOMPARE(o["failed_profiles"].toInt(), 3);
        QCOMPARE(o["costs_basis"].toString(), QString("no mode profiled completely: every profile failed"));
    }

    void aTraceIsReplayed() {
        QTemporaryDir dir;
        const QString path = dir.filePath("trace.csv");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("arrival_s\n");
        for (int i = 0; i < 200; ++i)
            f.write(QByteArray::number(0.05 * i) + "\n");
        f.close();
        QStringList args =
            base("--modes stock --latency-slo 100 --confidence 0.5 --format json --arrival trace:" + path);
        args.removeAt(args.indexOf("--duration") + 1); // the trace's own length
        args.removeAt(args.indexOf("--duration"));
        const test::CliResult r = test::runRooftop(args);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(o["arrival"].toString().startsWith("trace trace.csv (200 requests"));
        QCOMPARE(o["policies"].toArray().size(), 4); // uniform, poisson, bursty at its rate, and the trace
        QCOMPARE(o["predicted"].toObject()["requests"].toInt(), 3 * 200);
    }

    void badInputIsOneLineAndExitOne() {
        QTemporaryDir dir;
        auto trace = [&](const char* name, const char* text) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(text);
            return "trace:" + dir.filePath(name);
        };
        expectOneLineError(base("--latency-slo 100 --arrival " + trace("u.csv", "0.1\n0.3\n0.2\n")),
                           "sorted");
        expectOneLineError(base("--latency-slo 100 --arrival " + trace("e.csv", "")), "no arrival times");
        expectOneLineError(base("--latency-slo 100 --arrival " + trace("n.csv", "0.1\nsoon\n")), "number");
        expectOneLineError(base("--latency-slo 100 --arrival trace:" + dir.filePath("none.csv")),
                           "cannot read an arrival trace (no such file)");
        expectOneLineError(base("--latency-slo 100 --arrival trace:" + dir.path()),
                           "a folder, not an arrival trace");
        if (QFileInfo::exists("/dev/zero"))
            expectOneLineError(base("--latency-slo 100 --arrival trace:/dev/zero"),
                               "/dev/zero: not a regular file (a device or a pipe), not an arrival trace");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:0"), "rate above 0");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:-5"), "rate above 0");
        expectOneLineError(base("--latency-slo 0.01 --arrival poisson:5"),
                           "shorter than the fastest inference");
        expectOneLineError(base("--arrival poisson:5"), "--latency-slo");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:5 --strategy guess"), "--strategy");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:5 --strategy exhaustive --runner sim"),
                           "runs nothing");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:5 --confidence 0.3"), "--confidence");
        expectOneLineError(
            base("--latency-slo 100 --arrival poisson:5 --strategy gmd --runner trtexec:/bin/true"),
            "trtexec runs inference only");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:5 --inference-batch 0"), "batch");
        // the training model's dims are --training-dim's, its batch --training-batch's
        expectOneLineError(base("--latency-slo 100 --arrival poisson:5 --training-dim nosuch=5"),
                           "--training-dim nosuch=5: the model has no input dim named 'nosuch'");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:5 --training-dim batch=8"),
                           "give batch sizes with --training-batch and leave 'batch' out of --training-dim");
        expectOneLineError(base("--latency-slo 100 --arrival poisson:5 --dim batch=8"),
                           "give batch sizes with --inference-batch and leave 'batch' out of --dim");
        // gmd without a runner: unavailable here (exit 2), whether or not a trtexec is on PATH
        const test::CliResult noRunner =
            test::runRooftop(base("--latency-slo 100 --arrival poisson:5 --strategy gmd"));
        QCOMPARE(noRunner.exitCode, 2);
        QVERIFY(noRunner.err.trimmed().contains("give --runner command:CMD"));
        QVERIFY(!noRunner.err.trimmed().contains('\n'));
        // a trace whose times are epoch seconds would simulate for decades: with --duration it has no arrival
        // in the window, without it it is refused for its length
        const QString epoch = trace("epoch.csv", "1700000000.0\n1700000000.5\n");
        expectOneLineError(base("--latency-slo 100 --arrival " + epoch), "no arrival");
        QStringList noDuration = base("--latency-slo 100 --arrival " + epoch);
        const int at = noDuration.indexOf("--duration");
        noDuration.removeAt(at);
        noDuration.removeAt(at);
        expectOneLineError(noDuration, "more than a day");

        const QString frozen = dir.filePath("no_weights.onnx");
        QVERIFY(test::writeTextModel(frozen, R"(<ir_version: 8, opset_import: ["" : 17]>
agraph (float[1,8] x) => (float[1,8] y) {
  y = Relu(x)
})"));
        QStringList args = base("--latency-slo 100 --arrival poisson:5");
        args[4] = frozen;
        expectOneLineError(args, "no trainable parameters");
    }
};

ROOFTOP_TEST_CLASS(TestPlanCli)
#include "test_plan_cli.moc"
