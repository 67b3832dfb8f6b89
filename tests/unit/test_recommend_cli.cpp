// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop recommend` end to end: JSON shape, feasibility, infeasible limits, bad input, several batch sizes.
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QtTest>

using rooftop::test::CliResult;
using rooftop::test::runRooftop;

namespace {

const QStringList modeFields{"mode",       "cores",     "cpu_khz", "gpu_hz",   "emc_hz",    "batch",
                             "latency_ms", "energy_mj", "power_w", "feasible", "provenance"};

QString resnet50() {
    return QString::fromStdString(rooftop::test::samplePath("resnet50"));
}

QJsonObject parseJson(const CliResult& r) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError) {
        qWarning("not JSON: %s", qPrintable(error.errorString()));
        return {};
    }
    return document.object();
}

void expectModeFields(const QJsonObject& mode) {
    for (const QString& field : modeFields)
        QVERIFY2(mode.contains(field), qPrintable("missing " + field));
    QVERIFY(mode["latency_ms"].toDouble() > 0);
    QVERIFY(mode["energy_mj"].toDouble() > 0);
    QVERIFY(mode["power_w"].toDouble() > 0);
}

void expectOk(const CliResult& r) {
    QVERIFY2(!r.crashed, qPrintable(r.err));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
}

} // namespace

class RecommendCli : public QObject {
    Q_OBJECT
private slots:
    void jsonUnderALatencySlo() {
        const CliResult r = runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb", "--latency-slo",
                                        "50", "--format", "json"});
        expectOk(r);
        const QJsonObject root = parseJson(r);
        QCOMPARE(root["device"].toString(), QStringLiteral("agx-orin-64gb"));
        QCOMPARE(root["schema"].toString(), QStringLiteral("rooftop-recommend/3"));
        QCOMPARE(root["model"].toString(),
                 resnet50()); // the file as given, as roofline and calibrate name it
        QCOMPARE(root["objective"].toString(), QStringLiteral("energy"));
        QCOMPARE(root["limits"].toObject()["latency_slo_ms"].toDouble(), 50.0);
        expectModeFields(root["baseline"].toObject());
        QCOMPARE(root["baseline"].toObject()["mode"].toString(), QStringLiteral("MAXN"));

        const QJsonObject recommended = root["recommended"].toObject();
        QVERIFY(!recommended.isEmpty());
        expectModeFields(recommended);
        for (const char* field : {"saving_pct", "explanation", "nvpmodel"})
            QVERIFY2(recommended.contains(QLatin1String(field)), field);
        QVERIFY(recommended["feasible"].toBool());
        QVERIFY(recommended["latency_ms"].toDouble() <= 50.0);
        QVERIFY(recommended["nvpmodel"].toString().contains("nvpmodel -m"));
        QVERIFY(recommended["explanation"].toString().contains("memory-bound"));
        QVERIFY(recommended["explanation"].toString().contains("datasheet-derived"));

        const QJsonArray modes = root["modes"].toArray();
        QCOMPARE(modes.size(), 4); // the stock modes of AGX Orin 64GB
        QSet<QString> names;
        double bestFeasibleEnergy = 1e300;
        for (const auto& value : modes) {
            const QJsonObject mode = value.toObject();
            expectModeFields(mode);
            names.insert(mode["mode"].toString());
            // a limit is met by the upper bound at the confidence (0.9 by default), the prior's error without
            // a predictor
            const QJsonArray interval = mode["latency_ms_interval"].toArray();
            QCOMPARE(interval.size(), 2);
            QVERIFY(interval[0].toDouble() < mode["latency_ms"].toDouble());
            QVERIFY(interval[1].toDouble() > mode["latency_ms"].toDouble());
            QCOMPARE(mode["power_w_interval"].toArray().size(), 2);
            QCOMPARE(mode["energy_mj_interval"].toArray().size(), 2);
            if (mode["feasible"].toBool()) {
                QVERIFY(interval[1].toDouble() <= 50.0);
                bestFeasibleEnergy = std::min(bestFeasibleEnergy, mode["energy_mj"].toDouble());
            } else {
                QVERIFY(interval[1].toDouble() > 50.0);
            }
        }
        QCOMPARE(recommended["energy_mj"].toDouble(), bestFeasibleEnergy); // the default objective: energy
        const QJsonArray pareto = root["pareto"].toArray();
        QVERIFY(!pareto.isEmpty());
        for (const auto& point : pareto) {
            QVERIFY(names.contains(point.toObject()["mode"].toString()));
            QCOMPARE(point.toObject()["batch"].toInt(), 1);
        }
        QVERIFY(!root.contains("closest"));
        QCOMPARE(root["confidence"].toDouble(), 0.9);
        QVERIFY(root["interval_basis"].toString().contains("the prior's own error"));
        QVERIFY(recommended["explanation"].toString().contains("at 90 %)"));
    }

    // --confidence 0.5 meets the limits with the predictions themselves (the answer before bounds)
    void confidenceOneHalfComparesThePredictions() {
        const CliResult r = runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb", "--latency-slo",
                                        "50", "--confidence", "0.5", "--format", "json"});
        expectOk(r);
        const QJsonObject root = parseJson(r);
        QCOMPARE(root["confidence"].toDouble(), 0.5);
        for (const auto& value : root["modes"].toArray()) {
            const QJsonObject mode = value.toObject();
            QCOMPARE(mode["latency_ms_interval"].toArray()[1].toDouble(), mode["latency_ms"].toDouble());
            QCOMPARE(mode["feasible"].toBool(), mode["latency_ms"].toDouble() <= 50.0);
        }
        const CliResult table =
            runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb", "--latency-slo", "50"});
        expectOk(table);
        QVERIFY2(table.out.contains("(met at 90 % confidence)"), qPrintable(table.out));
        QVERIFY2(table.out.contains("ms at 90 %)"), qPrintable(table.out));
        QVERIFY2(table.out.contains("The limits are met at 90 % confidence"), qPrintable(table.out));
        // without a limit nothing was met: the sentence says what the bounds are, not that limits held
        const CliResult free = runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb"});
        expectOk(free);
        QVERIFY2(!free.out.contains("The limits are met"), qPrintable(free.out));
        QVERIFY2(free.out.contains("No latency or power limit was set; the bounds (≤) hold at 90 %"),
                 qPrintable(free.out));
        // nor when no mode meets them: the rule, not a claim
        const CliResult none = runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb",
                                           "--latency-slo", "0.5", "--power-cap", "5"});
        expectOk(none);
        QVERIFY2(!none.out.contains("The limits are met"), qPrintable(none.out));
        QVERIFY2(none.out.contains("A mode meets the limits at 90 % confidence"), qPrintable(none.out));
    }

    void impossibleSloIsAnAnswerNotAnError() {
        const CliResult r = runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb", "--latency-slo",
                                        "0.001", "--format", "json"});
        expectOk(r);
        const QJsonObject root = parseJson(r);
        QVERIFY(root.contains("recommended"));
        QVERIFY(root["recommended"].isNull());
        const QJsonArray closest = root["closest"].toArray();
        QVERIFY(!closest.isEmpty());
        for (const auto& value : closest) {
            expectModeFields(value.toObject());
            QVERIFY(!value.toObject()["feasible"].toBool());
        }
        QVERIFY(root["message"].toString().contains("cannot be met"));
        for (const auto& value : root["modes"].toArray())
            QVERIFY(!value.toObject()["feasible"].toBool());

        const CliResult table =
            runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb", "--latency-slo", "0.001"});
        expectOk(table);
        QVERIFY(table.out.contains("cannot be met"));
        QVERIFY(table.out.contains("closest"));
    }

    // A decoder recommended as one pass says which dims it assumed and where its generation is answered; a
    // model whose only symbol is the batch (which --batch sets) says nothing.
    void aDecoderWithoutLlmSaysWhatItAssumed() {
        const CliResult decoder =
            runRooftop({"recommend", QString::fromStdString(rooftop::test::samplePath("tiny_llama")),
                        "--device", "agx-orin-64gb"});
        expectOk(decoder);
        QVERIFY2(decoder.out.startsWith("Model: tiny_llama.onnx, as-model, inference\nAssumed (unbound) "
                                        "dims: past_sequence_length=1") &&
                     decoder.out.contains("rooftop llm, or recommend --llm"),
                 qPrintable(decoder.out));
        const CliResult resnet = runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb"});
        expectOk(resnet);
        QVERIFY2(!resnet.out.contains("Assumed"), qPrintable(resnet.out));
    }

    void unknownDeviceListsTheKnownOnes() {
        const CliResult r = runRooftop({"recommend", resnet50(), "--device", "nope"});
        QVERIFY(!r.crashed);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nope") && r.err.contains("agx-orin-64gb") && r.err.contains("orin-nano-8gb"),
                 qPrintable(r.err));
        QVERIFY(!r.err.trimmed().contains('\n'));
        const CliResult typo = runRooftop({"recommend", resnet50(), "--device", "agx-orin64gb"});
        QCOMPARE(typo.exitCode, 1);
        QVERIFY2(typo.err.contains("unknown device 'agx-orin64gb' (did you mean agx-orin-64gb?)"),
                 qPrintable(typo.err));
        QVERIFY(!r.err.contains("did you mean")); // 'nope' is near no board
    }

    void malformedOptionsExitOne() {
        const QList<QStringList> bad{{"--latency-slo", "-5"},
                                     {"--latency-slo", "fast"},
                                     {"--power-cap", "0"},
                                     {"--max-slowdown", "-1"},
                                     {"--batch", ""},
                                     {"--batch", "0"},
                                     {"--batch", "1,,4"},
                                     {"--batch", "2,x"},
                                     {"--objective", "power"},
                                     {"--modes", "some"},
                                     {"--format", "csv"},
                                     {"--runtime", "nope"},
                                     {"--confidence", "0.3"},
                                     {"--confidence", "1"},
                                     {"--confidence", "x"},
                                     {"--latency-slo", "0x10"},
                                     {"--power-cap", " 20"},
                                     {"--latency-slo", "nan"},
                                     {"--latency-slo", "5", "--latency-slo", "50"}};
        for (const QStringList& option : bad) {
            const CliResult r =
                runRooftop(QStringList{"recommend", resnet50(), "--device", "agx-orin-64gb"} + option);
            QVERIFY2(!r.crashed, qPrintable(option.join(' ')));
            QVERIFY2(r.exitCode == 1, qPrintable(option.join(' ') + ": " + r.err));
            QVERIFY2(r.err.startsWith("rooftop: error: ") && !r.err.trimmed().contains('\n'),
                     qPrintable(r.err));
        }
        const CliResult noDevice = runRooftop({"recommend", resnet50()});
        QCOMPARE(noDevice.exitCode, 1);
        QVERIFY(noDevice.err.contains("--device"));
    }

    void severalBatchSizes() {
        const CliResult r = runRooftop({"recommend", resnet50(), "--device", "agx-orin-64gb", "--batch",
                                        "1,4", "--objective", "efficiency", "--format", "json"});
        expectOk(r);
        const QJsonObject root = parseJson(r);
        int perBatch[5] = {};
        for (const auto& value : root["modes"].toArray()) {
            const int batch = value.toObject()["batch"].toInt();
            QVERIFY(batch == 1 || batch == 4);
            ++perBatch[batch];
        }
        QCOMPARE(perBatch[1], 4);
        QCOMPARE(perBatch[4], 4);
        QCOMPARE(root["baseline"].toObject()["batch"].toInt(), 1); // the first batch size
        expectModeFields(root["recommended"].toObject());
    }

    void gridTableShowsTheFrontOnly() {
        const CliResult r = runRooftop(
            {"recommend", resnet50(), "--device", "agx-orin-64gb", "--modes", "grid", "--power-cap", "15"});
        expectOk(r);
        QVERIFY(r.out.contains("RECOMMENDED"));
        QVERIFY(r.out.contains("baseline"));
        QVERIFY(r.out.contains("Pareto front"));
        QVERIFY(r.out.contains("< POWER_MODEL ID="));
        QVERIFY(r.out.contains("Check the PARAM names against your /etc/nvpmodel.conf"));
        QVERIFY(r.out.count('\n') < 400); // not 4,368 rows
        // a cap met by the prior's estimated power says how far such estimates have been off
        QVERIFY(r.out.contains("The power cap is met by an estimated power"));
    }

    void helpStatesTheUnits() {
        const CliResult r = runRooftop({"recommend", "--help"});
        expectOk(r);
        QVERIFY(r.out.contains("energy_mj"));
        QVERIFY(r.out.contains("per inference"));
    }
};

ROOFTOP_TEST_CLASS(RecommendCli)
#include "test_recommend_cli.moc"
