// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop learn` as a process: runs of the simulated board (rooftop profile --runner sim) in, a predictor
// out, used by roofline and recommend with --predictor; bad runs files and a predictor of another board or
// model are one line and exit 1.
#include "core/measure/runs_file.h"
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace rooftop;
using rooftop::test::CliResult;
using rooftop::test::runRooftop;

namespace {

QString model(const char* name) {
    return QString::fromStdString(test::samplePath(name));
}

void verifyOneLineError(const CliResult& result, const QString& part) {
    QVERIFY2(!result.crashed, qPrintable(result.err));
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.startsWith("rooftop: error: ") && result.err.count('\n') == 1,
             qPrintable(result.err));
    QVERIFY2(result.err.contains(part), qPrintable(result.err));
}

/// A runs file of `count` rows in the given modes (cycled), ok or failed.
QString writeRuns(const QTemporaryDir& dir, const QString& name, const std::vector<std::string>& modes,
                  int count, bool ok, bool withPower = true, int trainingRows = 0) {
    const QString path = dir.filePath(name);
    RunsFileWriter writer(path.toStdString());
    for (int i = 0; i < count + trainingRows; ++i) {
        RunRow row;
        row.mode = modes[size_t(i) % modes.size()];
        row.phase = i < count ? Phase::Inference : Phase::Training;
        row.precision = Precision::FP32;
        row.runner = "hand";
        row.status = ok ? "ok" : "failed: no engine";
        if (ok) {
            row.latencyMs = 5.0 + i;
            if (withPower) row.powerW = 20.0 + i;
        }
        writer.append(row);
    }
    return path;
}

} // namespace

class TestLearnCli : public QObject {
    Q_OBJECT

private slots:
    void learnsAndPredictsEveryMode() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv"), predictor = dir.filePath("p.json");
        const CliResult profiled = runRooftop({"profile", model("resnet18"), "--device", "agx-orin-64gb",
                                               "--runner", "sim", "--modes", "sample:20", "-o", runs});
        QVERIFY2(profiled.exitCode == 0, qPrintable(profiled.err));
        const CliResult learned = runRooftop(
            {"learn", model("resnet18"), "--device", "agx-orin-64gb", "--runs", runs, "-o", predictor});
        QVERIFY2(learned.exitCode == 0, qPrintable(learned.err));
        QVERIFY2(
            learned.out.contains("from 20 runs of the simulated board, not measurements (20 with power)"),
            qPrintable(learned.out));
        QVERIFY2(learned.out.contains("Cross-validated (5-fold) MAPE: time "), qPrintable(learned.out));
        QVERIFY2(learned.out.contains("Range: cores "), qPrintable(learned.out));
        QFile file(predictor);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"schema\": \"rooftop-predictor/4\""));

        const CliResult roofline = runRooftop(
            {"roofline", model("resnet18"), "--device", "agx-orin-64gb", "--predictor", predictor});
        QVERIFY2(roofline.exitCode == 0, qPrintable(roofline.err));
        QVERIFY2(roofline.out.contains("predicted, learned from 20 runs of resnet18.onnx (CV time "),
                 qPrintable(roofline.out));
        // each mode's bound shares are of the roofline's own time and add up to 100 % (to their rounding),
        // though the predictor's total replaces the latency printed above them
        const QRegularExpression bounds(QStringLiteral(
            R"(layers: \d+ compute-bound \((\d+) % of the roofline's time\), \d+ memory-bound \((\d+) %\), )"
            R"(\d+ overhead-bound \((\d+) %\)(, fixed cost per inference (\d+) %)?)"));
        int modesWithShares = 0;
        for (auto it = bounds.globalMatch(roofline.out); it.hasNext(); ++modesWithShares) {
            const QRegularExpressionMatch m = it.next();
            const int sum =
                m.captured(1).toInt() + m.captured(2).toInt() + m.captured(3).toInt() + m.captured(5).toInt();
            QVERIFY2(sum >= 98 && sum <= 102, qPrintable(m.captured(0)));
        }
        QCOMPARE(modesWithShares, 4);
        QVERIFY2(roofline.out.contains(QRegularExpression("\\nMAXN +predicted ")), qPrintable(roofline.out));
        const CliResult json = runRooftop({"roofline", model("resnet18"), "--device", "agx-orin-64gb",
                                           "--predictor", predictor, "--format", "json"});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QCOMPARE(json.out.count("\"extrapolated\": "), 4);
        QVERIFY(json.out.contains("\"prediction_basis\": \"learned from 20 runs of resnet18.onnx"));
        // each predicted number has its interval beside it, the predictor's own: narrower than the prior's
        const CliResult priorJson =
            runRooftop({"roofline", model("resnet18"), "--device", "agx-orin-64gb", "--format", "json"});
        QVERIFY2(priorJson.exitCode == 0, qPrintable(priorJson.err));
        const QJsonObject learnedRoot = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonObject priorRoot = QJsonDocument::fromJson(priorJson.out.toUtf8()).object();
        QVERIFY2(learnedRoot.value("interval_basis").toString().startsWith("the predictor's own error"),
                 qPrintable(learnedRoot.value("interval_basis").toString()));
        QVERIFY2(priorRoot.value("interval_basis").toString().startsWith("the prior's own error"),
                 qPrintable(priorRoot.value("interval_basis").toString()));
        const QJsonArray learnedModes = learnedRoot.value("modes").toArray();
        const QJsonArray priorModes = priorRoot.value("modes").toArray();
        QCOMPARE(learnedModes.size(), 4);
        QCOMPARE(priorModes.size(), 4);
        for (int i = 0; i < 4; ++i)
            for (const char* key : {"latency_ms", "power_w", "energy_mj"}) {
                // the upper bound over the value; 0 when the bounds do not hold the value between them
                const auto relativeHigh = [&](const QJsonObject& mode) {
                    const double value = mode.value(key).toDouble();
                    const QJsonArray bounds = mode.value(QString(key) + "_interval").toArray();
                    const bool around =
                        bounds.size() == 2 && bounds[0].toDouble() < value && value < bounds[1].toDouble();
                    return around ? bounds[1].toDouble() / value : 0.0;
                };
                const double learnedHigh = relativeHigh(learnedModes[i].toObject());
                const double priorHigh = relativeHigh(priorModes[i].toObject());
                QVERIFY2(learnedHigh > 1.0 && priorHigh > 1.0, key);
                QVERIFY2(learnedHigh < priorHigh, key);
            }
        QVERIFY2(
            roofline.out.contains("[low–high]: in the number's unit, each bound holding at 90 % (recommend's "
                                  "default confidence), from the predictor's own error"),
            qPrintable(roofline.out));
        QVERIFY2(
            roofline.out.contains(QRegularExpression(
                R"(total: [0-9.]+ ms \(≤ [0-9.]+ ms\), [0-9.]+ mJ \(≤ [0-9.]+ mJ\), [0-9.]+ W \(≤ [0-9.]+ W\) )"
                R"(average \(predicted, ≤: at 90 %\))")),
            qPrintable(roofline.out));
        const CliResult recommend = runRooftop(
            {"recommend", model("resnet18"), "--device", "agx-orin-64gb", "--predictor", predictor});
        QVERIFY2(recommend.exitCode == 0, qPrintable(recommend.err));
        QVERIFY2(recommend.out.contains("learned from 20 runs of resnet18.onnx"), qPrintable(recommend.out));
        // a precision the runs did not run is said to be the predictor's extrapolation
        const QJsonObject atFp16 =
            QJsonDocument::fromJson(
                runRooftop({"recommend", model("resnet18"), "--device", "agx-orin-64gb", "--predictor",
                            predictor, "--precision", "fp16", "--format", "json"})
                    .out.toUtf8())
                .object();
        QCOMPARE(atFp16.value("precision").toString(), QString("fp16"));
        QVERIFY2(atFp16.value("prediction_basis")
                     .toString()
                     .contains("fp16 lies outside the predictor's runs (fp32)"),
                 qPrintable(atFp16.value("prediction_basis").toString()));
        QVERIFY(!recommend.out.contains("lies outside the predictor's runs")); // as-model counts fp32 here
        // the roofline's JSON and recommend's name the same modes extrapolated (fp16: outside every fp32 run)
        for (const QString& precision : {QString("as-model"), QString("fp16")}) {
            const QStringList common = {model("resnet18"), "--device", "agx-orin-64gb",
                                        "--predictor",     predictor,  "--precision",
                                        precision,         "--format", "json"};
            const QJsonObject rooflineRoot =
                QJsonDocument::fromJson(runRooftop(QStringList{"roofline"} + common).out.toUtf8()).object();
            const QJsonObject recommendRoot =
                QJsonDocument::fromJson(runRooftop(QStringList{"recommend"} + common).out.toUtf8()).object();
            std::map<QString, bool> byMode;
            for (const QJsonValue& mode : rooflineRoot.value("modes").toArray())
                byMode[mode["mode"].toString()] = mode["extrapolated"].toBool();
            const QJsonArray candidates = recommendRoot.value("modes").toArray();
            QCOMPARE(candidates.size(), 4);
            for (const QJsonValue& c : candidates) {
                QVERIFY(c.toObject().contains("extrapolated"));
                QCOMPARE(c["extrapolated"].toBool(), byMode.at(c["mode"].toString()));
                if (precision == "fp16") QVERIFY(c["extrapolated"].toBool());
            }
        }

        const QString html = dir.filePath("r.html");
        const CliResult report = runRooftop(
            {"report", model("resnet18"), "--device", "agx-orin-64gb", "--predictor", predictor, "-o", html});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        QVERIFY(page.readAll().contains("predicted, learned from 20 runs of resnet18.onnx"));

        const CliResult modes =
            runRooftop({"modes", model("resnet18"), "--device", "agx-orin-64gb", "--predictor", predictor});
        QVERIFY2(modes.exitCode == 0, qPrintable(modes.err));
        QVERIFY2(modes.out.contains("at batch 1: predicted, learned from 20 runs of resnet18.onnx"),
                 qPrintable(modes.out));
        QVERIFY2(modes.out.contains(QRegularExpression("\\n0 +MAXN .* predicted ")), qPrintable(modes.out));
        const CliResult modesJson = runRooftop({"modes", model("resnet18"), "--device", "agx-orin-64gb",
                                                "--predictor", predictor, "--format", "json"});
        QVERIFY2(modesJson.exitCode == 0, qPrintable(modesJson.err));
        const QJsonObject modesRoot = QJsonDocument::fromJson(modesJson.out.toUtf8()).object();
        QCOMPARE(modesRoot.value("schema").toString(), QString("rooftop-modes/8"));
        // the default mode by name and nvpmodel id, as devices gives it
        QCOMPARE(modesRoot.value("default_mode").toString(), QString("MODE_30W"));
        QCOMPARE(modesRoot.value("default_stock_id").toInt(), 2);
        QVERIFY2(modesRoot.value("prediction_basis")
                     .toString()
                     .startsWith("learned from 20 runs of resnet18.onnx"),
                 qPrintable(modesRoot.value("prediction_basis").toString())); // recommend's name and words
        QCOMPARE(modesRoot.value("confidence").toDouble(), 0.9);
        // the workload the numbers are of
        QCOMPARE(modesRoot.value("model").toString(), model("resnet18"));
        QCOMPARE(modesRoot.value("precision").toString(), QString("as-model"));
        QCOMPARE(modesRoot.value("phase").toString(), QString("inference"));
        QVERIFY(modesRoot.value("dims").isObject());
        for (const QJsonValue& value : modesRoot.value("modes").toArray()) {
            const QJsonObject mode = value.toObject();
            QVERIFY(!mode.contains("model")); // /2's name of the model's numbers in the mode
            const QJsonObject peaks = mode.value("peak_flops").toObject();
            QVERIFY(peaks.contains("tensor_fp16") && !peaks.contains("tensor-fp16")); // snake_case keys
            const QJsonObject prediction = mode.value("prediction").toObject();
            QCOMPARE(prediction.value("provenance").toString(), QString("predicted"));
            const QJsonArray bounds = prediction.value("latency_ms_interval").toArray();
            const double latency = prediction.value("latency_ms").toDouble();
            QVERIFY2(bounds.size() == 2 && bounds[0].toDouble() < latency && latency < bounds[1].toDouble(),
                     qPrintable(mode.value("mode").toString()));
        }
        // --confidence widens the bounds modes and roofline print, and says so
        const CliResult wider =
            runRooftop({"modes", model("resnet18"), "--device", "agx-orin-64gb", "--predictor", predictor,
                        "--confidence", "0.99", "--format", "json"});
        QVERIFY2(wider.exitCode == 0, qPrintable(wider.err));
        const QJsonObject widerRoot = QJsonDocument::fromJson(wider.out.toUtf8()).object();
        QCOMPARE(widerRoot.value("confidence").toDouble(), 0.99);
        const QJsonObject at90 =
            modesRoot.value("modes").toArray()[0].toObject().value("prediction").toObject();
        const QJsonObject at99 =
            widerRoot.value("modes").toArray()[0].toObject().value("prediction").toObject();
        QCOMPARE(at99.value("latency_ms").toDouble(), at90.value("latency_ms").toDouble());
        QVERIFY(at99.value("latency_ms_interval").toArray()[1].toDouble() >
                at90.value("latency_ms_interval").toArray()[1].toDouble());
        QVERIFY(at99.value("latency_ms_interval").toArray()[0].toDouble() <
                at90.value("latency_ms_interval").toArray()[0].toDouble());
        const CliResult at95 = runRooftop({"roofline", model("resnet18"), "--device", "agx-orin-64gb",
                                           "--predictor", predictor, "--confidence", "0.95"});
        QVERIFY2(at95.exitCode == 0, qPrintable(at95.err));
        QVERIFY2(at95.out.contains("each bound holding at 95 %, from"), qPrintable(at95.out));
        QVERIFY2(!at95.out.contains("at 90 %"), qPrintable(at95.out));
        // the CSVs name the confidence of their bounds in their last column
        for (const char* command : {"roofline", "modes"}) {
            const CliResult csv =
                runRooftop({command, model("resnet18"), "--device", "agx-orin-64gb", "--predictor", predictor,
                            "--confidence", "0.95", "--format", "csv"});
            QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
            const QStringList lines = csv.out.trimmed().split('\n');
            QVERIFY2(lines.size() > 1 && lines[0].endsWith(",bounds_confidence"), qPrintable(lines[0]));
            QCOMPARE(lines[1].split(',').size(), lines[0].split(',').size());
            QCOMPARE(lines[1].split(',').last(), QString("0.95"));
        }
        // at 0.5 the predictions themselves: no bounds, no "≤", no legend of bounds
        for (const char* command : {"roofline", "modes"}) {
            const CliResult at50 = runRooftop({command, model("resnet18"), "--device", "agx-orin-64gb",
                                               "--predictor", predictor, "--confidence", "0.5"});
            QVERIFY2(at50.exitCode == 0, qPrintable(at50.err));
            QVERIFY2(!at50.out.contains(QString::fromUtf8("–")) &&
                         !at50.out.contains(QString::fromUtf8("≤")) &&
                         !at50.out.contains("each bound holding"),
                     qPrintable(at50.out));
        }
        verifyOneLineError(
            runRooftop({"modes", model("resnet18"), "--device", "agx-orin-64gb", "--confidence", "1.5"}),
            "--confidence must be a probability from 0.5 to 0.999, got 1.5");
        // the predictor's inputs are a runtime's roofline: another runtime would change them (an LLM's TPOT
        // doubled with a calibrated runtime beside its predictor)
        verifyOneLineError(runRooftop({"recommend", model("resnet18"), "--device", "agx-orin-64gb",
                                       "--predictor", predictor, "--runtime", "pytorch-eager"}),
                           "the predictor learned its inputs from the roofline of runtime tensorrt, not "
                           "pytorch-eager");
        QVERIFY(QJsonDocument::fromJson([&] {
                    QFile file(predictor);
                    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
                }())
                    .object()
                    .value("runtime")
                    .toString() == "tensorrt");
        verifyOneLineError(runRooftop({"modes", "--device", "agx-orin-64gb", "--confidence", "0.95"}),
                           "modes --confidence sets the bounds of a model's numbers");
        const CliResult gridCsv = runRooftop({"modes", model("resnet18"), "--device", "agx-orin-64gb",
                                              "--grid", "--predictor", predictor, "--format", "csv"});
        QVERIFY2(gridCsv.exitCode == 0, qPrintable(gridCsv.err));
        QCOMPARE(gridCsv.out.count(",predicted,"), 4368);
        verifyOneLineError(runRooftop({"modes", "--device", "agx-orin-64gb", "--predictor", predictor}),
                           "modes --predictor needs the model it was learned for");

        verifyOneLineError(runRooftop({"roofline", model("resnet18"), "--device", "orin-nano-8gb",
                                       "--predictor", predictor}),
                           "learned on board agx-orin-64gb, not orin-nano-8gb");
        verifyOneLineError(runRooftop({"roofline", model("resnet50"), "--device", "agx-orin-64gb",
                                       "--predictor", predictor}),
                           "learned for model resnet18.onnx");
    }

    // One workload identity: a predictor of fp16 runs answers as-model at fp16 (the model's own fp32 types
    // did not run), the same answer as --precision fp16, and says so.
    void asModelCountsAtThePredictorsPrecision() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv"), predictor = dir.filePath("p.json");
        const CliResult profiled =
            runRooftop({"profile", model("resnet18"), "--device", "agx-orin-64gb", "--runner", "sim",
                        "--modes", "sample:12", "--precision", "fp16", "-o", runs});
        QVERIFY2(profiled.exitCode == 0, qPrintable(profiled.err));
        QVERIFY2(runRooftop({"learn", model("resnet18"), "--device", "agx-orin-64gb", "--runs", runs, "-o",
                             predictor})
                         .exitCode == 0,
                 "learn failed");
        const QStringList common = {model("resnet18"), "--device", "agx-orin-64gb", "--predictor",
                                    predictor,         "--format", "json"};
        const QJsonObject asModel =
            QJsonDocument::fromJson(runRooftop(QStringList{"recommend"} + common).out.toUtf8()).object();
        const QJsonObject fp16 = QJsonDocument::fromJson(runRooftop(QStringList{"recommend"} + common +
                                                                    QStringList{"--precision", "fp16"})
                                                             .out.toUtf8())
                                     .object();
        QCOMPARE(asModel.value("precision").toString(), QString("fp16"));
        QVERIFY2(asModel.value("prediction_basis")
                     .toString()
                     .contains("precision fp16, as the predictor's runs ran"),
                 qPrintable(asModel.value("prediction_basis").toString()));
        QVERIFY(!fp16.value("prediction_basis").toString().contains("counted at"));
        const QJsonArray a = asModel.value("modes").toArray(), b = fp16.value("modes").toArray();
        QCOMPARE(a.size(), 4);
        QCOMPARE(a.size(), b.size());
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i]["mode"].toString(), b[i]["mode"].toString());
            QCOMPARE(a[i]["latency_ms"].toDouble(), b[i]["latency_ms"].toDouble());
            QCOMPARE(a[i]["energy_mj"].toDouble(), b[i]["energy_mj"].toDouble());
            QCOMPARE(a[i]["extrapolated"].toBool(), b[i]["extrapolated"].toBool());
        }
        // and a plan at a precision the inference predictor's runs did not run is refused in one line
        verifyOneLineError(
            runRooftop({"plan", "--inference", model("resnet18"), "--training", model("resnet18"), "--device",
                        "agx-orin-64gb", "--arrival", "uniform:30", "--latency-slo", "100", "--modes",
                        "stock", "--predictor", predictor}),
            "the predictor's runs ran fp16, and the plan counts at fp32 (give --precision fp16");
    }

    void runsWithoutPowerOrOfTrainingAreNoted() {
        QTemporaryDir dir;
        const QString runs = writeRuns(dir, "time.csv", {"MAXN", "MODE_15W", "MODE_30W"}, 9, true, false, 2);
        const CliResult learned = runRooftop({"learn", model("resnet18"), "--device", "agx-orin-64gb",
                                              "--runs", runs, "-o", dir.filePath("p.json")});
        QVERIFY2(learned.exitCode == 0, qPrintable(learned.err));
        QVERIFY2(learned.out.contains("power not learned (0 runs with power, 5 needed)"),
                 qPrintable(learned.out));
        QVERIFY2(learned.out.contains("2 ok training runs skipped: this learns inference"),
                 qPrintable(learned.out));
        const CliResult modes = runRooftop({"modes", model("resnet18"), "--device", "agx-orin-64gb",
                                            "--predictor", dir.filePath("p.json"), "--format", "csv"});
        QVERIFY2(modes.exitCode == 0, qPrintable(modes.err));
        // latency learned, power Rooftop's: the weaker provenance, before the extrapolated flag, the six
        // bounds and their confidence
        QCOMPARE(modes.out.count(QRegularExpression(",estimate,[01](,[0-9.]+){6},0\\.9\n")), 4);
        QCOMPARE(modes.out.count(",predicted,"), 0);
        const CliResult recommend = runRooftop({"recommend", model("resnet18"), "--device", "agx-orin-64gb",
                                                "--predictor", dir.filePath("p.json")});
        QVERIFY2(recommend.exitCode == 0, qPrintable(recommend.err));
        QVERIFY2(
            recommend.out.contains("power not learned (0 of the runs measured power, 5 needed): Rooftop's "
                                   "estimate"),
            qPrintable(recommend.out));
    }

    void badRunsFilesAreOneLine() {
        QTemporaryDir dir;
        auto learn = [&](const QString& runs) {
            return runRooftop({"learn", model("resnet18"), "--device", "agx-orin-64gb", "--runs", runs});
        };
        verifyOneLineError(learn(writeRuns(dir, "few.csv", {"MAXN", "MODE_15W"}, 3, true)),
                           "at least 5 ok runs, got 3");
        verifyOneLineError(learn(writeRuns(dir, "one.csv", {"MAXN"}, 6, true)),
                           "all 6 runs are in one mode (MAXN)");
        verifyOneLineError(learn(writeRuns(dir, "failed.csv", {"MAXN", "MODE_15W"}, 4, false)),
                           "no ok inference run to learn from (4 of 4 runs failed, 0 are training)");
        verifyOneLineError(learn(dir.filePath("missing.csv")), "missing.csv: cannot open (");
        QFile empty(dir.filePath("empty.csv"));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        verifyOneLineError(learn(empty.fileName()), "empty.csv: no runs");
        verifyOneLineError(learn(dir.path()), ": a folder, not a runs file");
        // calibrate --llm reads the runs file the same way
        verifyOneLineError(runRooftop({"calibrate", model("resnet18"), "--llm", "--device", "agx-orin-64gb",
                                       "--runs", dir.filePath("missing.csv")}),
                           "missing.csv: cannot open (");
        // a runs file names the model of each run: another model's runs are neither learned from nor resumed
        const QString resnetRuns = dir.filePath("resnet18-runs.csv");
        const CliResult profiled = runRooftop({"profile", model("resnet18"), "--device", "agx-orin-64gb",
                                               "--runner", "sim", "--modes", "sample:6", "-o", resnetRuns});
        QVERIFY2(profiled.exitCode == 0, qPrintable(profiled.err));
        verifyOneLineError(
            runRooftop({"learn", model("mobilenet_v2"), "--device", "agx-orin-64gb", "--runs", resnetRuns}),
            ": a run of resnet18.onnx@");
        verifyOneLineError(runRooftop({"profile", model("mobilenet_v2"), "--device", "agx-orin-64gb",
                                       "--runner", "sim", "--modes", "sample:6", "-o", resnetRuns}),
                           "not of mobilenet_v2.onnx@");
    }
};

ROOFTOP_TEST_CLASS(TestLearnCli)
#include "test_learn_cli.moc"
