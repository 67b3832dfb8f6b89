// SPDX-License-Identifier: GPL-3.0-or-later
// Training through the loop as a user runs it: profile ResNet-18 training steps on the simulated board, learn
// a training predictor, recommend the fastest training mode under a power cap with it, and plan with a
// predictor per stream; a predictor of one phase refused for the other, naming both.
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using rooftop::test::CliResult;
using rooftop::test::runRooftop;

namespace {

QString sample(const char* name) {
    return QString::fromStdString(rooftop::test::samplePath(name));
}

} // namespace

class TrainingLoopCli : public QObject {
    Q_OBJECT

private slots:
    void profileLearnRecommendPlan() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("train-runs.csv");
        const QString predictor = dir.filePath("train.json");
        const CliResult profiled =
            runRooftop({"profile", sample("resnet18"), "--device", "agx-orin-64gb", "--runner", "sim",
                        "--modes", "sample:12", "--batch", "16", "--phase", "training", "-o", runs});
        QVERIFY2(profiled.exitCode == 0, qPrintable(profiled.err));

        const CliResult inferenceOnly =
            runRooftop({"learn", sample("resnet18"), "--device", "agx-orin-64gb", "--runs", runs});
        QCOMPARE(inferenceOnly.exitCode, 1);
        QVERIFY2(inferenceOnly.err.contains("no ok inference run") &&
                     inferenceOnly.err.contains("--phase training"),
                 qPrintable(inferenceOnly.err));

        const CliResult learned = runRooftop({"learn", sample("resnet18"), "--device", "agx-orin-64gb",
                                              "--runs", runs, "--phase", "training", "-o", predictor});
        QVERIFY2(learned.exitCode == 0, qPrintable(learned.err));
        QVERIFY2(learned.out.contains("training steps (adam)"), qPrintable(learned.out));

        const CliResult pick =
            runRooftop({"recommend", sample("resnet18"), "--device", "agx-orin-64gb", "--phase", "training",
                        "--batch", "16", "--predictor", predictor, "--modes", "stock", "--power-cap", "40",
                        "--objective", "latency", "--format", "json"});
        QVERIFY2(pick.exitCode == 0, qPrintable(pick.err));
        const QJsonObject answer = QJsonDocument::fromJson(pick.out.toUtf8()).object();
        QVERIFY2(answer["recommended"].toObject()["provenance"].toString() == "predicted",
                 qPrintable(pick.out));

        const CliResult wrongPhase = runRooftop({"recommend", sample("resnet18"), "--device", "agx-orin-64gb",
                                                 "--batch", "16", "--predictor", predictor});
        QCOMPARE(wrongPhase.exitCode, 1);
        QVERIFY2(wrongPhase.err.contains("learned for training (adam), not inference"),
                 qPrintable(wrongPhase.err));

        const CliResult plan = runRooftop({"plan",
                                           "--inference",
                                           sample("mobilenet_v2"),
                                           "--training",
                                           sample("resnet18"),
                                           "--training-batch",
                                           "16",
                                           "--device",
                                           "agx-orin-64gb",
                                           "--duration",
                                           "10",
                                           "--arrival",
                                           "poisson:30",
                                           "--latency-slo",
                                           "100",
                                           "--modes",
                                           "stock",
                                           "--training-predictor",
                                           predictor,
                                           "--confidence",
                                           "0.5",
                                           "--format",
                                           "json"});
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
        const QJsonObject planned = QJsonDocument::fromJson(plan.out.toUtf8()).object();
        const QJsonObject costs = planned["costs"].toObject();
        QCOMPARE(costs["inference_provenance"].toString(), QString("estimate"));
        QCOMPARE(costs["training_provenance"].toString(), QString("predicted"));
        QVERIFY2(planned["costs_basis"].toString().contains("training step: the training predictor's"),
                 qPrintable(planned["costs_basis"].toString()));

        const CliResult swapped =
            runRooftop({"plan", "--inference", sample("mobilenet_v2"), "--training", sample("resnet18"),
                        "--training-batch", "16", "--device", "agx-orin-64gb", "--arrival", "poisson:30",
                        "--latency-slo", "100", "--modes", "stock", "--training-predictor", predictor,
                        "--optimizer", "sgd"});
        QCOMPARE(swapped.exitCode, 1);
        QVERIFY2(swapped.err.contains("not training (sgd)"), qPrintable(swapped.err));
    }

    // tune --phase training runs training steps, records them as such, and an inference tune on the same runs
    // file takes none of them as its own or as prior information.
    void tuneRunsTrainingSteps() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("tune-runs.csv");
        const QStringList common = {
            "tune", sample("resnet18"), "--device",  "agx-orin-64gb", "--runner", "sim",      "--batch",
            "16",   "--modes",          "sample:30", "--runs",        runs,       "--format", "json"};
        const CliResult training =
            runRooftop(common + QStringList{"--phase", "training", "--latency-slo", "1000", "--power-cap",
                                            "25", "--objective", "latency", "--budget", "6"});
        QVERIFY2(training.exitCode == 0, qPrintable(training.err));
        const QJsonObject report = QJsonDocument::fromJson(training.out.toUtf8()).object();
        QCOMPARE(report["phase"].toString(), QString("training"));
        QCOMPARE(report["optimizer"].toString(), QString("adam"));
        QCOMPARE(report["runs_made"].toInt(), 6);
        QFile file(runs);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts).mid(1);
        QCOMPARE(rows.size(), 6);
        for (const QString& row : rows)
            QVERIFY2(row.contains(",training,"), qPrintable(row));
        // its energy is per training sample, and the progress lines and table say so
        QVERIFY2(training.err.contains(" mJ/sample") && !training.err.contains("mJ/inf"),
                 qPrintable(training.err));

        const CliResult inference =
            runRooftop(common + QStringList{"--latency-slo", "1000", "--budget", "5"});
        QVERIFY2(inference.exitCode == 0, qPrintable(inference.err));
        const QJsonObject second = QJsonDocument::fromJson(inference.out.toUtf8()).object();
        QCOMPARE(second["phase"].toString(), QString("inference"));
        QCOMPARE(second["runs_made"].toInt(), 5);
        QCOMPARE(second["prior_runs"].toInt(), 0);
    }

    // profile --optimizer: each training row records its update, the runner is told it, and learn takes only
    // the runs of its own optimizer, naming the others; the training recommendation's front trades time per
    // minibatch against power.
    void learnTransfersAcrossBoards() {
        // a reference profiled on the AGX Orin adapts to a few runs on an Orin NX; the predictor names both
        QTemporaryDir dir;
        const QString agx = dir.filePath("agx.csv"), nx = dir.filePath("nx.csv"),
                      out = dir.filePath("nx.json");
        const QStringList training = {"--runner", "sim", "--batch", "16", "--phase", "training"};
        QCOMPARE(runRooftop(QStringList{"profile", sample("resnet18"), "--device", "agx-orin-64gb", "--modes",
                                        "sample:40", "-o", agx} +
                            training)
                     .exitCode,
                 0);
        QCOMPARE(runRooftop(QStringList{"profile", sample("resnet18"), "--device", "orin-nx-16gb", "--modes",
                                        "sample:8", "-o", nx} +
                            training)
                     .exitCode,
                 0);
        const QStringList learn = {"learn", sample("resnet18"), "--device", "orin-nx-16gb", "--runs",
                                   nx,      "--phase",          "training", "-o",           out};
        const CliResult learned =
            runRooftop(learn + QStringList{"--reference-model", sample("resnet18"), "--reference-runs", agx,
                                           "--reference-device", "agx-orin-64gb"});
        QVERIFY2(learned.exitCode == 0, qPrintable(learned.err));
        QVERIFY2(learned.out.contains("runs of resnet18.onnx on agx-orin-64gb"), qPrintable(learned.out));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject predictor = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(predictor["device"].toString(), QString("orin-nx-16gb"));
        QCOMPARE(predictor["reference"].toObject()["device"].toString(), QString("agx-orin-64gb"));
        QCOMPARE(predictor["reference"].toObject()["runs"].toInt(), 40);

        const CliResult lonely = runRooftop(learn + QStringList{"--reference-device", "agx-orin-64gb"});
        QCOMPARE(lonely.exitCode, 1);
        QVERIFY2(lonely.err.contains("--reference-device names the board"), qPrintable(lonely.err));
        const CliResult unknown =
            runRooftop(learn + QStringList{"--reference-model", sample("resnet18"), "--reference-runs", agx,
                                           "--reference-device", "orin-nx-99gb"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("orin-nx-99gb"), qPrintable(unknown.err));
    }

    void profileRecordsTheOptimizer() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("train-runs.csv");
        const QStringList profile = {
            "profile",  sample("resnet18"), "--device", "agx-orin-64gb", "--runner", "sim", "--modes",
            "sample:8", "--batch",          "16",       "--phase",       "training", "-o",  runs};
        const CliResult sgd = runRooftop(profile + QStringList{"--optimizer", "sgd"});
        QVERIFY2(sgd.exitCode == 0, qPrintable(sgd.err));
        const CliResult adam = runRooftop(profile);
        QVERIFY2(adam.exitCode == 0 && adam.out.contains("runs: 8 ok, 0 failed, 0 already"),
                 qPrintable(adam.out));
        QFile file(runs);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts).mid(1);
        QCOMPARE(rows.size(), 16);
        QCOMPARE(rows.filter(QRegularExpression(",profile,sgd,,,,$")).size(), 8);
        QCOMPARE(rows.filter(QRegularExpression(",profile,adam,,,,$")).size(), 8);

        const QStringList learn = {
            "learn",   sample("resnet18"), "--device", "agx-orin-64gb",       "--runs", runs,
            "--phase", "training",         "-o",       dir.filePath("p.json")};
        const CliResult momentum = runRooftop(learn + QStringList{"--optimizer", "momentum"});
        QCOMPARE(momentum.exitCode, 1);
        QVERIFY2(momentum.err.contains("no ok training (momentum) run") &&
                     momentum.err.contains("8 are training (sgd): learn them with --optimizer sgd"),
                 qPrintable(momentum.err));
        const CliResult learnedSgd = runRooftop(learn + QStringList{"--optimizer", "sgd"});
        QVERIFY2(learnedSgd.exitCode == 0, qPrintable(learnedSgd.err));
        QVERIFY2(learnedSgd.out.contains("training steps (sgd)") &&
                     (learnedSgd.out + learnedSgd.err).contains("8 are training (adam)"),
                 qPrintable(learnedSgd.out + learnedSgd.err));

        const CliResult inferenceOptimizer =
            runRooftop({"profile", sample("resnet18"), "--device", "agx-orin-64gb", "--runner", "sim",
                        "--optimizer", "sgd", "-o", dir.filePath("x.csv")});
        QCOMPARE(inferenceOptimizer.exitCode, 1);
        QVERIFY2(inferenceOptimizer.err.contains("add --phase training"), qPrintable(inferenceOptimizer.err));

        const CliResult pick =
            runRooftop({"recommend",   sample("resnet18"),     "--device", "agx-orin-64gb", "--phase",
                        "training",    "--optimizer",          "sgd",      "--batch",       "16",
                        "--predictor", dir.filePath("p.json"), "--modes",  "sample:40",     "--power-cap",
                        "20",          "--objective",          "latency",  "--format",      "json"});
        QVERIFY2(pick.exitCode == 0, qPrintable(pick.err));
        const QJsonObject answer = QJsonDocument::fromJson(pick.out.toUtf8()).object();
        QCOMPARE(answer["pareto_axes"].toString(), QString("latency_power"));
        QCOMPARE(answer["phase"].toString(), QString("training"));
        // the front is exactly the modes no other mode beats in both time per step and power
        QMap<QString, QPair<double, double>> point;
        for (const QJsonValue& mode : answer["modes"].toArray()) {
            const QJsonObject m = mode.toObject();
            point[m["mode"].toString()] = {m["latency_ms"].toDouble(), m["power_w"].toDouble()};
        }
        QStringList front;
        for (const QJsonValue& point : answer["pareto"].toArray())
            front << point.toObject()["mode"].toString();
        QVERIFY(!front.isEmpty());
        for (auto a = point.cbegin(); a != point.cend(); ++a) {
            bool dominated = false;
            for (auto b = point.cbegin(); b != point.cend(); ++b)
                dominated |= b.value().first <= a.value().first && b.value().second <= a.value().second &&
                             b.value() != a.value();
            QVERIFY2(front.contains(a.key()) == !dominated, qPrintable(a.key()));
        }
    }
};

ROOFTOP_TEST_CLASS(TrainingLoopCli)
#include "test_training_loop_cli.moc"
