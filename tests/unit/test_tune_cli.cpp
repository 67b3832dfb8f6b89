// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop tune` as a process on the simulated board: the JSON fields, the runs file and its resume, and
// bad input as one line with exit 1.
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

QStringList tuneArgs(const QString& runs) {
    return {"tune",          QString::fromStdString(test::samplePath("resnet18")),
            "--device",      "agx-orin-64gb",
            "--runner",      "sim",
            "--modes",       "stock",
            "--batch",       "1,2",
            "--latency-slo", "20",
            "--budget",      "5",
            "--runs",        runs};
}

void verifyOneLineError(const CliResult& result, const QString& part) {
    QVERIFY2(!result.crashed, qPrintable(result.err));
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.startsWith("rooftop: error: ") && result.err.count('\n') == 1,
             qPrintable(result.err));
    QVERIFY2(result.err.contains(part), qPrintable(result.err));
}

} // namespace

class TestTuneCli : public QObject {
    Q_OBJECT
private slots:
    void jsonHasTheIssuesFields() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult r = runRooftop(tuneArgs(runs) << "--format"
                                                      << "json");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const char* key : {"device", "model", "budget", "samples", "recommended", "baseline"})
            QVERIFY2(root.contains(key), key);
        QCOMPARE(root["device"].toString(), QString("agx-orin-64gb"));
        QCOMPARE(root["schema"].toString(), QString("rooftop-tune/4"));
        QVERIFY(root["prediction_basis"].toString().startsWith("Rooftop's roofline before any run"));
        QCOMPARE(root["model"].toString(), QString::fromStdString(test::samplePath("resnet18"))); // as given
        QVERIFY(root["origin"].toString().startsWith("tune:"));
        QCOMPARE(root["prior_runs"].toInt(), 0);
        QCOMPARE(root["budget"].toInt(), 5);
        const QJsonArray samples = root["samples"].toArray();
        QVERIFY(samples.size() >= 1 && samples.size() <= 5);
        for (const QJsonValue& v : samples)
            for (const char* key : {"index", "mode", "cores", "cpu_khz", "gpu_hz", "emc_hz", "batch",
                                    "precision", "latency_ms", "power_w", "energy_mj", "feasible", "reason"})
                QVERIFY2(v.toObject().contains(key), key);
        for (const QJsonValue& v : samples) { // the roofline's numbers before any run: estimates with bounds
            const QJsonObject sample = v.toObject();
            // a provenance word of the vocabulary (tune/2 wrote "simulated (runs file)"), resumed apart
            QVERIFY2(sample["provenance"].isNull() || sample["provenance"].toString() == "simulated",
                     qPrintable(sample["provenance"].toString()));
            QVERIFY(sample["resumed"].isBool());
            QCOMPARE(sample["predicted_provenance"].toString(), QString("estimate"));
            for (const char* key : {"predicted_latency_ms", "predicted_power_w", "predicted_energy_mj"}) {
                const QJsonArray bounds = sample[QString(key) + "_interval"].toArray();
                QCOMPARE(bounds.size(), 2);
                QVERIFY2(bounds[0].toDouble() < sample[key].toDouble() &&
                             sample[key].toDouble() < bounds[1].toDouble(),
                         key);
            }
        }
        QCOMPARE(root["confidence"].toDouble(), 0.9);
        const QJsonObject recommended = root["recommended"].toObject();
        QVERIFY(recommended["feasible"].toBool());
        QVERIFY(recommended["latency_ms"].toDouble() <= 20.0);
        QVERIFY(recommended.contains("saving_pct"));
        QVERIFY(recommended["nvpmodel"].toString().contains("nvpmodel"));
        QCOMPARE(root["baseline"].toObject()["mode"].toString(), QString("MAXN"));
        QCOMPARE(root["baseline"].toObject()["provenance"].toString(),
                 QString("simulated")); // sim, not measured
        // one progress line a run, numbered by its configuration: a repeat names the one it ran again and the
        // mean it joined
        const QRegularExpression line(QStringLiteral(R"(^(\d+)\. (\S+) batch (\d+) (\S+): )"),
                                      QRegularExpression::MultilineOption);
        int lines = 0, meanLines = 0;
        for (auto it = line.globalMatch(r.err); it.hasNext(); ++lines) {
            const QRegularExpressionMatch m = it.next();
            const int index = m.captured(1).toInt();
            QVERIFY(index >= 1 && index <= samples.size());
            const QJsonObject sample = samples[index - 1].toObject();
            QCOMPARE(m.captured(2), sample["mode"].toString());
            QCOMPARE(m.captured(3).toInt(), sample["batch"].toInt());
        }
        for (auto it = QRegularExpression(", mean of \\d+ runs").globalMatch(r.err); it.hasNext(); it.next())
            ++meanLines;
        QCOMPARE(lines, root["runs_made"].toInt());
        QCOMPARE(meanLines, root["repeats"].toInt());
        // every run is in the runs file, and a rerun resumes instead of running again
        const int rows = int(readRunsFile(runs.toStdString()).size());
        QCOMPARE(rows, root["runs_made"].toInt());
        QCOMPARE(rows, int(samples.size()) + root["repeats"].toInt());
        const CliResult again = runRooftop(tuneArgs(runs) << "--format"
                                                          << "json");
        QCOMPARE(again.exitCode, 0);
        const QJsonObject second = QJsonDocument::fromJson(again.out.toUtf8()).object();
        QCOMPARE(second["resumed"].toInt(), rows);
        QCOMPARE(second["runs_made"].toInt(), 0); // the budget (5) is spent by the file's runs
        QCOMPARE(second["samples"].toArray().size(), samples.size());
        // the search's belief where it chose a sample; null, never absent, for the rows it resumed
        int chosen = 0;
        for (const QJsonValue& v : samples)
            chosen += v.toObject()["expected_improvement"].isDouble() ? 1 : 0;
        QVERIFY(chosen >= 1);
        for (const QJsonValue& v : second["samples"].toArray()) {
            const QJsonObject sample = v.toObject();
            QVERIFY(sample["resumed"].toBool());
            for (const char* key : {"surrogate_latency_ms", "surrogate_energy_mj", "expected_improvement"})
                QVERIFY2(sample.contains(key) && sample[key].isNull(), key);
        }
    }

    void tableSaysWhenNothingMeetsTheLimits() {
        QTemporaryDir dir;
        QStringList args = tuneArgs(dir.filePath("runs.csv"));
        args[args.indexOf("--latency-slo") + 1] = "0.01";
        const CliResult r = runRooftop(args);
        QCOMPARE(r.exitCode, 0);
        // the simulated board's runs are never called measured
        QVERIFY2(r.out.contains("No simulated configuration met the limits"), qPrintable(r.out));
        QVERIFY(r.out.contains("Closest simulated"));
        QVERIFY(!r.out.contains("measured configuration"));
        // a runner whose every run fails: no empty "Closest" list
        QStringList failing = tuneArgs(dir.filePath("failing.csv"));
        failing[failing.indexOf("--runner") + 1] = "command:exit 1";
        failing[failing.indexOf("--modes") + 1] = "MAXN";
        failing << "--no-switch";
        const CliResult none = runRooftop(failing);
        QVERIFY2(none.out.contains("and no run succeeded: nothing to show as closest."),
                 qPrintable(none.out));
        QVERIFY2(!none.out.contains("Closest"), qPrintable(none.out));
        QCOMPARE(none.exitCode, 3); // as profile: every run failed
    }

    void anAnswerDearerThanTheBaselineSaysMoreNotANegativeSaving() {
        // MAXN, the baseline, breaks a 20 W cap on the simulated board: the answer costs more energy
        QTemporaryDir dir;
        QStringList args = tuneArgs(dir.filePath("runs.csv"));
        args[args.indexOf("--latency-slo") + 1] = "10";
        args[args.indexOf("--batch") + 1] = "1";
        args[args.indexOf("--budget") + 1] = "8";
        args << "--power-cap"
             << "20";
        const CliResult r = runRooftop(args);
        QCOMPARE(r.exitCode, 0);
        static const QRegularExpression more(QStringLiteral(
            "against the baseline \\(both simulated\\): \\d+\\.\\d % more energy per inference"));
        QVERIFY2(r.out.contains(more), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral("saving against the baseline (both simulated): -")),
                 qPrintable(r.out));
        // the prediction's errors in one format: a percentage to 0.1
        static const QRegularExpression off(QStringLiteral("\\((-?\\d+\\.\\d) % off\\)"));
        int offs = 0;
        for (auto it = off.globalMatch(r.out); it.hasNext(); it.next())
            ++offs;
        QCOMPARE(offs, 2);
    }

    void badInputIsOneLine() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        QStringList budget = tuneArgs(runs);
        budget[budget.indexOf("--budget") + 1] = "0";
        verifyOneLineError(runRooftop(budget), "--budget");
        QStringList noSlo = tuneArgs(runs);
        noSlo.removeAt(noSlo.indexOf("--latency-slo") + 1);
        noSlo.removeAt(noSlo.indexOf("--latency-slo"));
        verifyOneLineError(runRooftop(noSlo), "--latency-slo MS is required");
        verifyOneLineError(runRooftop(tuneArgs(runs) << "--search"
                                                     << "annealing"),
                           "--search must be cbo");
        QStringList badModes = tuneArgs(runs);
        badModes[badModes.indexOf("--modes") + 1] = "fastest";
        verifyOneLineError(runRooftop(badModes), "fastest");
        verifyOneLineError(runRooftop(tuneArgs(runs) << "--budget"
                                                     << "6"),
                           "--budget is given twice; give it once");
        verifyOneLineError(runRooftop(tuneArgs(runs) << "--precision"
                                                     << "fp64"),
                           "precision");
        verifyOneLineError(runRooftop(tuneArgs(runs) << "--optimizer"
                                                     << "sgd"),
                           "tune: --optimizer is the update of a training step; add --phase training");
        verifyOneLineError(runRooftop(tuneArgs(runs) << "--llm"
                                                     << "--tpot-slo"
                                                     << "2"),
                           "--tpot-slo and --latency-slo are the same limit; give one");
        // ResNet-18 at batch 16,384 holds far more than the 62 GiB an AGX Orin 64GB leaves: refused, not run
        QStringList tooLarge = tuneArgs(runs);
        tooLarge[tooLarge.indexOf("--batch") + 1] = "1,16384";
        verifyOneLineError(runRooftop(tooLarge), "batch 16384 at fp32 holds at least");
        QVERIFY(!QFile::exists(runs));
        QFile bad(runs);
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("mode,batch\nMAXN,1\n");
        bad.close();
        verifyOneLineError(runRooftop(tuneArgs(runs)), runs);
        QVERIFY(!QFile::exists(dir.filePath("journal")));
    }

    // a row no run of this board can have made (a power of 1e9 W) is refused as learn and calibrate refuse
    // it, with its line, and nothing runs
    void anImplausibleRowIsRefused() {
        QTemporaryDir dir;
        const QString runs = dir.filePath("runs.csv");
        const CliResult profiled =
            runRooftop({"profile", QString::fromStdString(test::samplePath("resnet18")), "--device",
                        "agx-orin-64gb", "--runner", "sim", "--modes", "MAXN", "-o", runs});
        QCOMPARE(profiled.exitCode, 0);
        QFile file(runs);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
        file.close();
        QStringList fields = lines[1].split(',');
        fields[10] = "1e9"; // power_w
        lines[1] = fields.join(',');
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(lines.join('\n').toUtf8());
        file.close();
        verifyOneLineError(
            runRooftop(tuneArgs(runs)),
            runs + ":2: not a run of agx-orin-64gb (power 1e+09 W is above 2 x the 60 W module maximum");
        QCOMPARE(QString::fromUtf8([&] {
                     QFile f(runs);
                     return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                 }())
                     .count('\n'),
                 2); // nothing appended
    }
};

ROOFTOP_TEST_CLASS(TestTuneCli)
#include "test_tune_cli.moc"
