// SPDX-License-Identifier: GPL-3.0-or-later
// One workload identity through the measuring half: BERT at --dim sequence=128 is run, recorded and predicted
// at sequence 128 by profile (the runner's environment, the runs file), tune (its predicted column) and plan
// (the inference cost), each checked against the analysis pipeline at the same dims; runs of another shape in
// the same file are never used as this one's; an older file without a dims column is refused for bound dims;
// tune and plan take the one mode-set dialect, `current` included.
#include "core/common/errors.h"
#include "core/learn/predictor_file.h"
#include "core/measure/runs_file.h"
#include "core/plan/plan_session.h"
#include "core/session/analysis_session.h"
#include "core/tune/tune_session.h"
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using rooftop::test::CliResult;
using rooftop::test::runRooftop;
using rooftop::test::writeBytes;

namespace {

const std::map<std::string, int64_t> seq128 = {{"sequence", 128}};

QString bert() {
    return QString::fromStdString(test::samplePath("bert_base"));
}

/// The analysis pipeline's predicted latency of BERT at `dims` in one mode: what the measuring commands must
/// agree with.
double analysedLatency(const std::map<std::string, int64_t>& dims, const std::string& mode) {
    AnalysisRequest request;
    request.modelPath = bert().toStdString();
    request.settings.dims.named = dims;
    request.settings.dims.batch = 1;
    request.settings.precision = Precision::FP32;
    request.deviceId = "agx-orin-64gb";
    request.modes = mode;
    const AnalysisResult result = runAnalysis(request, {}, {});
    return result.predictions.at(0).latencySeconds;
}

} // namespace

class WorkloadIdentity : public QObject {
    Q_OBJECT
private slots:
    void profileRunsAndRecordsTheDims() {
        QTemporaryDir dir;
        const QString seen = dir.filePath("seen.txt");
        const QString runs = dir.filePath("runs.csv");
        const QString command =
            "command:echo \"$ROOFTOP_DIMS|$ROOFTOP_BATCH\" >> " + seen + "; echo '{\"latency_ms\": 2.0}'";
        const CliResult result =
            runRooftop({"profile", bert(), "--device", "agx-orin-64gb", "--runner", command, "--no-switch",
                        "--modes", "MAXN", "--dim", "sequence=128", "-o", runs});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile file(seen);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), QStringLiteral("sequence=128|1\n"));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(1));
        QVERIFY(rows[0].dims == seq128);
    }

    void twoShapesInOneFileStayApart() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const QStringList base = {
            "profile", bert(), "--device", "agx-orin-64gb", "--runner", "sim", "--modes", "MAXN", "-o", runs};
        QCOMPARE(runRooftop(base + QStringList{"--dim", "sequence=128"}).exitCode, 0);
        const CliResult atOne = runRooftop(base + QStringList{"--dim", "sequence=1"});
        QCOMPARE(atOne.exitCode, 0);
        QVERIFY2(atOne.out.contains("1 ok, 0 failed, 0 already in the file"), qPrintable(atOne.out));
        const CliResult again = runRooftop(base + QStringList{"--dim", "sequence=128"});
        QVERIFY2(again.out.contains("0 ok, 0 failed, 1 already in the file"), qPrintable(again.out));

        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(2));
        std::vector<std::string> skipped;
        const std::vector<RunRow> long128 = runsOfWorkload(rows, seq128, &skipped);
        QCOMPARE(long128.size(), size_t(1));
        QCOMPARE(skipped, std::vector<std::string>{"1 run(s) at sequence=1 left out (not sequence=128)"});
        const std::vector<RunRow> short1 = runsOfWorkload(rows, {{"sequence", 1}}, nullptr);
        // the simulated board's own physics: 128 tokens take far longer than one (its host overheads do not
        // grow)
        QVERIFY2(*long128[0].latencyMs > 2.0 * *short1[0].latencyMs,
                 qPrintable(QString::number(*long128[0].latencyMs) + " vs " +
                            QString::number(*short1[0].latencyMs)));
    }

    void anOlderFileCannotTakeBoundDims() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        QVERIFY(writeBytes(runs, QByteArray(modelRunsHeader()) + "\n"));
        const CliResult result = runRooftop({"profile", bert(), "--device", "agx-orin-64gb", "--runner",
                                             "sim", "--modes", "MAXN", "--dim", "sequence=128", "-o", runs});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("written before runs recorded their dims"), qPrintable(result.err));
        QFile file(runs);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray(modelRunsHeader()) + "\n"); // left as it was
        // without dims the older layout is resumed as before
        const CliResult plain = runRooftop({"profile", bert(), "--device", "agx-orin-64gb", "--runner", "sim",
                                            "--modes", "MAXN", "-o", runs});
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
        QCOMPARE(readRunsFile(runs.toStdString()).size(), size_t(1));
    }

    void learnCalibrateAndPredictorsKeepToTheirDims() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        QCOMPARE(runRooftop({"profile", bert(), "--device", "agx-orin-64gb", "--runner", "sim", "--modes",
                             "MAXN;MODE_30W", "--batch", "1,2", "--dim", "sequence=128", "-o", runs})
                     .exitCode,
                 0);
        // without --dim the runs (all at sequence 128) are another workload's
        const CliResult learn = runRooftop({"learn", bert(), "--device", "agx-orin-64gb", "--runs", runs});
        QCOMPARE(learn.exitCode, 1);
        QVERIFY2(learn.err.contains("no runs at the model's own dims; 4 run(s) at sequence=128 left out"),
                 qPrintable(learn.err));
        const CliResult calibrate =
            runRooftop({"calibrate", bert(), "--device", "agx-orin-64gb", "--runs", runs});
        QCOMPARE(calibrate.exitCode, 1);
        QVERIFY2(calibrate.err.contains(":2: a run at sequence=128, not at the model's own dims"),
                 qPrintable(calibrate.err));
        const CliResult atTheDims = runRooftop(
            {"calibrate", bert(), "--device", "agx-orin-64gb", "--runs", runs, "--dim", "sequence=128"});
        QVERIFY2(!atTheDims.err.contains("a run at"), qPrintable(atTheDims.err));

        Predictor predictor;
        predictor.dims = "sequence=128";
        checkPredictorDims(predictor, "p.json", seq128);
        QVERIFY_THROWS_EXCEPTION(InputError, checkPredictorDims(predictor, "p.json", {}));
        QVERIFY_THROWS_EXCEPTION(InputError, checkPredictorDims(predictor, "p.json", {{"sequence", 64}}));
    }

    void tunePredictsAndRecordsTheDims() {
        QTemporaryDir dir;
        TuneRequest request;
        request.modelPath = bert().toStdString();
        request.deviceId = "agx-orin-64gb";
        request.runner = "sim";
        request.modes = "MAXN;MODE_30W";
        request.dims = seq128;
        request.options.budget = 2;
        request.options.limits.latencySloSeconds = 10.0;
        request.options.runsPath = dir.filePath("runs.csv").toStdString();
        const TuneReport report = runTuneSession(request, {}, nullptr);
        QCOMPARE(report.space.candidates, size_t(2));
        for (size_t i = 0; i < report.space.candidates; ++i) {
            const double analysed = analysedLatency(seq128, report.space.configs[i].mode.name);
            QVERIFY2(std::abs(report.space.predictedLatencySeconds(i) - analysed) <= 1e-9 * analysed,
                     qPrintable(QString::number(report.space.predictedLatencySeconds(i)) + " vs " +
                                QString::number(analysed)));
        }
        QVERIFY(report.space.predictedLatencySeconds(0) > 2.0 * analysedLatency({{"sequence", 1}}, "MAXN"));
        const std::vector<RunRow> rows = readRunsFile(request.options.runsPath);
        QVERIFY(!rows.empty());
        for (const RunRow& row : rows)
            QVERIFY(row.dims == seq128);
    }

    void planCostsTheInferenceAtTheDims() {
        PlanRequest request;
        request.inferenceModel = bert().toStdString();
        request.trainingModel = test::samplePath("resnet18");
        request.deviceId = "agx-orin-64gb";
        request.arrival = "uniform:2";
        request.latencySloMs = 5000;
        request.inferenceBatches = {1};
        request.trainingBatch = 4;
        request.modes = "MAXN";
        request.inferenceDims = seq128;
        request.durationSeconds = 5;
        request.planningStreams = 1;
        request.checkStreams = 2;
        const PlanReport report = runPlanSession(request);
        QCOMPARE(report.space.modes.size(), size_t(1));
        const double analysed = analysedLatency(seq128, "MAXN");
        const double planned = report.space.modes[0].inferenceSeconds[0];
        QVERIFY2(std::abs(planned - analysed) <= 1e-9 * analysed,
                 qPrintable(QString::number(planned) + " vs " + QString::number(analysed)));
    }

    void tuneAndPlanTakeCurrent() {
        QTemporaryDir dir;
        const CliResult tune =
            runRooftop({"tune", test::samplePath("resnet18").c_str(), "--device", "agx-orin-64gb", "--runner",
                        "sim", "--modes", "current", "--latency-slo", "100", "--budget", "1", "--runs",
                        dir.filePath("tune.csv")});
        QVERIFY2(tune.exitCode == 0, qPrintable(tune.err));
        const std::vector<RunRow> rows = readRunsFile(dir.filePath("tune.csv").toStdString());
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].mode,
                 std::string("MAXN")); // the simulated board's mode in force: its first stock mode
        const CliResult plan = runRooftop({"plan",
                                           "--inference",
                                           test::samplePath("resnet18").c_str(),
                                           "--training",
                                           test::samplePath("resnet18").c_str(),
                                           "--device",
                                           "agx-orin-64gb",
                                           "--arrival",
                                           "uniform:2",
                                           "--latency-slo",
                                           "500",
                                           "--modes",
                                           "current",
                                           "--strategy",
                                           "gmd",
                                           "--runner",
                                           "sim",
                                           "--duration",
                                           "5",
                                           "--runs",
                                           dir.filePath("inference.csv"),
                                           "--training-runs",
                                           dir.filePath("training.csv")});
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
        QCOMPARE(readRunsFile(dir.filePath("inference.csv").toStdString()).at(0).mode, std::string("MAXN"));
        // off the board, the mode in force cannot be read: one clear line (what this machine lacks), not a
        // silent substitute
        const CliResult unknown =
            runRooftop({"plan", "--inference", test::samplePath("resnet18").c_str(), "--training",
                        test::samplePath("resnet18").c_str(), "--device", "agx-orin-64gb", "--arrival",
                        "uniform:2", "--latency-slo", "500", "--modes", "current"});
        QVERIFY2(unknown.exitCode == 2 && unknown.err.count('\n') == 1 &&
                     unknown.err.contains("mode is in force"),
                 qPrintable(unknown.err));
    }

    // The dims are part of what was answered: recommend, learn, tune (text and JSON) and plan name them
    // beside the model, as profile's runs file records them.
    void everyAnswerNamesTheDims() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const QStringList board = {"--device", "agx-orin-64gb", "--dim", "sequence=128"};
        QCOMPARE(
            runRooftop(QStringList{"profile", bert(), "--runner", "sim", "--modes", "sample:6", "-o", runs} +
                       board)
                .exitCode,
            0);
        const QString named = QStringLiteral("bert_base.onnx at sequence=128");
        const CliResult recommend =
            runRooftop(QStringList{"recommend", bert(), "--latency-slo", "200"} + board);
        QVERIFY2(recommend.exitCode == 0, qPrintable(recommend.err));
        QVERIFY2(recommend.out.startsWith("Model: " + named + ", as-model, inference\n"),
                 qPrintable(recommend.out.left(200)));
        const CliResult learn = runRooftop(QStringList{"learn", bert(), "--runs", runs} + board);
        QVERIFY2(learn.exitCode == 0, qPrintable(learn.err));
        QVERIFY2(learn.out.startsWith("Learned time and power of " + named + " on "), qPrintable(learn.out));
        const QStringList tune =
            QStringList{"tune", bert(),     "--runner", "sim",    "--latency-slo",
                        "60",   "--budget", "1",        "--runs", dir.filePath("tune.csv")} +
            board;
        const CliResult tuneText = runRooftop(tune);
        QVERIFY2(tuneText.exitCode == 0, qPrintable(tuneText.err));
        QVERIFY2(tuneText.out.startsWith("Tune of " + named + " on agx-orin-64gb: "),
                 qPrintable(tuneText.out));
        const CliResult tuneJson = runRooftop(tune + QStringList{"--format", "json"});
        QVERIFY2(tuneJson.exitCode == 0, qPrintable(tuneJson.err));
        const QJsonObject tuned = QJsonDocument::fromJson(tuneJson.out.toUtf8()).object();
        QCOMPARE(tuned["dims"].toObject(), (QJsonObject{{"sequence", 128}}));
        const CliResult plan = runRooftop({"plan",
                                           "--inference",
                                           bert(),
                                           "--dim",
                                           "sequence=64",
                                           "--training",
                                           bert(),
                                           "--training-dim",
                                           "sequence=128",
                                           "--training-batch",
                                           "2",
                                           "--device",
                                           "agx-orin-64gb",
                                           "--arrival",
                                           "uniform:2",
                                           "--latency-slo",
                                           "500",
                                           "--modes",
                                           "MAXN",
                                           "--duration",
                                           "5"});
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
        QVERIFY2(plan.out.contains("Plan for training " + named + " (batch 2, adam) beside inference of " +
                                   "bert_base.onnx at sequence=64 on "),
                 qPrintable(plan.out.left(400)));
    }
};

ROOFTOP_TEST_CLASS(WorkloadIdentity)
#include "test_workload_identity.moc"
