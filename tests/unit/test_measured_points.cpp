// SPDX-License-Identifier: GPL-3.0-or-later
// Runs-file rows to measured points: which rows count, the medians, provenance, and the table's measured
// columns.
#include "core/measure/runs_file.h"
#include "models/measured_points.h"
#include "models/mode_row.h"
#include "models/power_mode_table_model.h"
#include "support/test_registry.h"

#include <QtTest>

using namespace rooftop;
using namespace rooftop::models;

namespace {

RunRow run(const std::string& mode, int64_t batch, Precision precision, std::optional<double> latency,
           std::optional<double> power = std::nullopt, std::optional<double> energy = std::nullopt,
           const std::string& runner = "trtexec") {
    RunRow row;
    row.mode = mode;
    row.batch = batch;
    row.precision = precision;
    row.phase = Phase::Inference;
    row.latencyMs = latency;
    row.powerW = power;
    row.energyMj = energy;
    row.status = latency ? "ok" : "failed: exit 1";
    row.runner = runner;
    return row;
}

std::vector<RunRow> sampleRuns() {
    std::vector<RunRow> rows = {
        run("MAXN", 1, Precision::FP32, 2.0, 10.0, 20.0),
        run("MAXN", 1, Precision::FP32, 4.0, 30.0, 60.0),
        run("MAXN", 1, Precision::FP32, 3.0, 20.0, 40.0),
        run("MAXN", 1, Precision::FP32, std::nullopt),     // failed
        run("MAXN", 4, Precision::FP32, 8.0, 25.0, 200.0), // other batch
        run("MAXN", 1, Precision::FP16, 1.5, 18.0, 27.0),  // other precision
        run("MODE_30W", 1, Precision::FP32, 5.0, 12.0, 60.0, "sim:0"),
        run("MODE_30W", 1, Precision::FP32, 7.0, 14.0, 98.0, "sim:0"),
        run("c8-cpu1728-gpu612-emc3199", 1, Precision::FP32, 9.0), // trtexec: no power
    };
    RunRow training = run("MAXN", 1, Precision::FP32, 30.0, 40.0, 1200.0);
    training.phase = Phase::Training;
    rows.push_back(training);
    return rows;
}

} // namespace

class TestMeasuredPoints : public QObject {
    Q_OBJECT
private slots:
    void okRowsOfTheBatchAndPrecisionOnePointPerModeWithMedians() {
        const std::vector<MeasuredPoint> points = measuredPointsFrom(sampleRuns(), 1, Precision::FP32);
        QCOMPARE(int(points.size()), 3);
        QCOMPARE(points[0].mode, QStringLiteral("MAXN"));
        QCOMPARE(points[0].runs, 3);
        QCOMPARE(points[0].latencyMs, 3.0);
        QCOMPARE(*points[0].powerW, 20.0);
        QCOMPARE(*points[0].energyPerInferenceMj, 40.0);
        QVERIFY(!points[0].simulated);
        QCOMPARE(points[1].mode, QStringLiteral("MODE_30W"));
        QCOMPARE(points[1].runs, 2);
        QCOMPARE(points[1].latencyMs, 6.0); // an even count: the mean of the middle two
        QCOMPARE(*points[1].powerW, 13.0);
        QVERIFY(points[1].simulated);
        QCOMPARE(points[2].runs, 1);
        QVERIFY(!points[2].powerW);
        QVERIFY(!points[2].energyPerInferenceMj);
    }

    void energyIsPerInferenceAndOtherFiltersSelectOtherRows() {
        const std::vector<MeasuredPoint> batch4 = measuredPointsFrom(sampleRuns(), 4, Precision::FP32);
        QCOMPARE(int(batch4.size()), 1);
        QCOMPARE(batch4[0].latencyMs, 8.0);
        QCOMPARE(*batch4[0].energyPerInferenceMj, 50.0);
        QCOMPARE(int(measuredPointsFrom(sampleRuns(), 1, Precision::FP16).size()), 1);
        QCOMPARE(int(measuredPointsFrom(sampleRuns(), 1, Precision::INT8).size()), 0);
        QCOMPARE(int(measuredPointsFrom(sampleRuns(), 1, Precision::FP32, {}, Phase::Training).size()), 1);
        QCOMPARE(int(measuredPointsFrom({}, 1, Precision::FP32).size()), 0);
    }

    void runnersAreKeptApartAndNamedInTheProvenance() {
        std::vector<RunRow> rows = sampleRuns();
        rows.push_back(run("MAXN", 1, Precision::FP32, 2.5, std::nullopt, std::nullopt, "sim:3"));
        const std::vector<MeasuredPoint> points = measuredPointsFrom(rows, 1, Precision::FP32);
        QCOMPARE(int(points.size()), 4);
        QCOMPARE(measuredProvenance(points[0]), QStringLiteral("measured (trtexec, 3 runs)"));
        QCOMPARE(measuredProvenance(points[3]), QStringLiteral("simulated board (sim:3, 1 run)"));
    }

    void tableShowsTheMeasurementBesideThePrediction() {
        std::vector<ModeRow> rows(2);
        rows[0].name = QStringLiteral("MAXN");
        rows[0].latencySeconds = 0.0025;
        rows[1].name = QStringLiteral("MODE_15W");
        attachMeasured(rows, measuredPointsFrom(sampleRuns(), 1, Precision::FP32));
        QVERIFY(rows[0].measured.has_value());
        QVERIFY(!rows[1].measured.has_value());
        PowerModeTableModel model;
        model.setRows(rows);
        QCOMPARE(model.index(0, PowerModeTableModel::MeasuredLatency).data(SortRole).toDouble(), 0.003);
        QCOMPARE(model.index(0, PowerModeTableModel::Latency).data(SortRole).toDouble(), 0.0025);
        QCOMPARE(model.index(0, PowerModeTableModel::MeasuredPower).data(SortRole).toDouble(), 20.0);
        QCOMPARE(model.index(0, PowerModeTableModel::MeasuredBy).data().toString(),
                 QStringLiteral("measured (trtexec, 3 runs)"));
        QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("predicted")));
        QVERIFY(
            model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("measured (trtexec")));
        QVERIFY(model.index(1, PowerModeTableModel::MeasuredLatency).data().toString().isEmpty());
        QVERIFY(!model.index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("measured")));
    }
};

ROOFTOP_TEST_CLASS(TestMeasuredPoints)
#include "test_measured_points.moc"
