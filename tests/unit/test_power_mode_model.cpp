// SPDX-License-Identifier: GPL-3.0-or-later
// PowerModeTableModel and the ModeRow helpers on a real recommendation for ResNet-18 on AGX Orin 64 GB.
#include "core/advisor/advisor.h"
#include "core/device/catalog.h"
#include "core/device/measured_profile.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/mode_profiles.h"
#include "models/measured_points.h"
#include "models/mode_row.h"
#include "models/power_mode_table_model.h"
#include "models/recommendation_text.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::models;

namespace {

const DeviceSpec& agx() {
    return test::shippedAgxOrin();
}

const std::vector<BatchWorkload>& workloads() {
    static const std::vector<BatchWorkload> w = [] {
        std::vector<BatchWorkload> out;
        for (int64_t batch : {1, 4}) {
            AnalysisSettings settings;
            settings.dims.batch = batch;
            out.push_back({batch, test::analyzeSample("resnet18", settings)});
        }
        return out;
    }();
    return w;
}

std::vector<ModeProfile> stockProfiles() {
    return resolveModeProfiles(agx(), stockPowerModes(agx()), findRuntime("tensorrt"), nullptr);
}

Recommendation recommend(const Constraints& constraints) {
    return recommendMode(agx(), workloads(), stockProfiles(), constraints, Objective::Energy);
}

} // namespace

class TestPowerModeModel : public QObject {
    Q_OBJECT
private slots:
    // A negative saving reads as more energy, never "−70.1 % less energy" (the window's card and what-if
    // line).
    void energyChangeReadsAsASentence() {
        QCOMPARE(models::energyChangeText(12.34), QStringLiteral("12.3 % less energy"));
        QCOMPARE(models::energyChangeText(-70.1), QStringLiteral("70.1 % more energy"));
        QCOMPARE(models::energyChangeText(-0.01), QStringLiteral("the same energy"));
        // said against another mode: "the same energy as", never "the same energy than"
        QCOMPARE(models::energyComparedTo(-0.01, "MAXN"), QStringLiteral("the same energy as MAXN"));
        QCOMPARE(models::energyComparedTo(12.34, "MAXN"), QStringLiteral("12.3 % less energy than MAXN"));
    }

    void rowsFromRecommendation() {
        const Recommendation rec = recommend(Constraints{});
        QVERIFY(rec.recommended.has_value());
        const std::vector<ModeRow> rows = modeRowsFrom(rec);
        QCOMPARE(rows.size(), size_t(8)); // 4 stock modes x batches 1 and 4
        for (size_t i = 0; i < rows.size(); ++i) {
            const Candidate& c = rec.candidates[i];
            QCOMPARE(rows[i].name, QString::fromStdString(c.profile.mode.name));
            QCOMPARE(rows[i].batch, c.batch);
            QCOMPARE(rows[i].latencySeconds, c.summary.latencySeconds);
            QCOMPARE(rows[i].energyPerInferenceJoules, c.energyPerInference());
            QCOMPARE(rows[i].averageWatts, c.summary.averageWatts);
            QCOMPARE(rows[i].feasible, c.feasible);
            QCOMPARE(rows[i].pareto, c.pareto);
            QCOMPARE(rows[i].recommended, i == *rec.recommended);
        }
    }

    void tableShowsRows() {
        const Recommendation rec = recommend(Constraints{});
        PowerModeTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(modeRowsFrom(rec));
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(model.columnCount(), 16);
        QCOMPARE(model.recommendedRow(), int(*rec.recommended));

        const int maxn = model.rowOfMode(QStringLiteral("MAXN"), 1);
        QVERIFY(maxn >= 0);
        QCOMPARE(model.rowOfMode(QStringLiteral("MAXN"), 4), maxn + 4); // batch-major candidate order
        QCOMPARE(model.rowOfMode(QStringLiteral("nope")), -1);
        QCOMPARE(model.index(maxn, PowerModeTableModel::GpuClock).data(SortRole).toLongLong(), 1300500000LL);
        QCOMPARE(model.index(maxn, PowerModeTableModel::GpuClock).data().toString(),
                 QStringLiteral("1300.5 MHz"));
        QCOMPARE(model.index(maxn, PowerModeTableModel::CpuClock).data().toString(),
                 QStringLiteral("2201.6 MHz"));
        QCOMPARE(model.index(maxn, PowerModeTableModel::EmcClock).data(SortRole).toLongLong(), 3199000000LL);
        QCOMPARE(model.index(maxn, PowerModeTableModel::CpuCores).data(SortRole).toInt(), 12);
        QCOMPARE(model.index(maxn, PowerModeTableModel::CpuClock).data(SortRole).toLongLong(), 2201600000LL);
        QCOMPARE(model.index(maxn, PowerModeTableModel::Batch).data(SortRole).toLongLong(), 1LL);

        for (int row = 0; row < model.rowCount(); ++row) {
            const Candidate& c = rec.candidates[size_t(row)];
            QCOMPARE(model.index(row, PowerModeTableModel::Latency).data(SortRole).toDouble(),
                     c.summary.latencySeconds);
            QCOMPARE(model.index(row, PowerModeTableModel::EnergyPerInference).data(SortRole).toDouble(),
                     c.energyPerInference());
            QCOMPARE(model.index(row, PowerModeTableModel::InferencesPerJoule).data(SortRole).toDouble(),
                     1.0 / c.energyPerInference());
            QCOMPARE(model.index(row, PowerModeTableModel::ProvenanceColumn).data().toString(),
                     QString::fromUtf8(provenanceName(c.provenance)));
            QCOMPARE(model.index(row, PowerModeTableModel::Pareto).data(SortRole).toBool(), c.pareto);
            QCOMPARE(model.index(row, PowerModeTableModel::Feasible).data().toString(),
                     c.feasible ? QStringLiteral("yes") : QStringLiteral("no"));
            const bool bold =
                model.index(row, PowerModeTableModel::Mode).data(Qt::FontRole).value<QFont>().bold();
            QCOMPARE(bold, row == model.recommendedRow());
            QCOMPARE(model.index(row, PowerModeTableModel::Latency).data(Qt::TextAlignmentRole).toInt(),
                     int(Qt::AlignRight | Qt::AlignVCenter));
        }
        QVERIFY(model.rowAt(-1) == nullptr);
        QVERIFY(model.rowAt(8) == nullptr);
        QCOMPARE(model.rowAt(maxn)->profile.mode.name, std::string("MAXN"));
    }

    // Runs of the simulated board are headed "Simulated", never "Measured"; a real runner's keep "Measured".
    void simulatedRunsAreNotHeadedMeasured() {
        PowerModeTableModel model;
        std::vector<ModeRow> rows = modeRowsFrom(recommend(Constraints{}));
        const auto header = [&](int column) {
            return model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        };
        model.setRows(rows);
        QCOMPARE(header(PowerModeTableModel::MeasuredLatency), QStringLiteral("Measured latency"));
        models::MeasuredPoint point;
        point.runner = QStringLiteral("sim:0");
        point.runs = 1;
        point.latencyMs = 2.0;
        point.simulated = true;
        rows[0].measured = point;
        model.setRows(rows);
        QCOMPARE(header(PowerModeTableModel::MeasuredLatency), QStringLiteral("Simulated latency"));
        QCOMPARE(header(PowerModeTableModel::MeasuredPower), QStringLiteral("Simulated power"));
        QCOMPARE(
            model.headerData(PowerModeTableModel::MeasuredPower, Qt::Horizontal, ExportHeaderRole).toString(),
            QStringLiteral("Simulated power (W)"));
        point.simulated = false;
        point.runner = QStringLiteral("trtexec");
        rows[1].measured = point;
        model.setRows(rows);
        QCOMPARE(header(PowerModeTableModel::MeasuredLatency), QStringLiteral("Measured latency"));
    }

    void proxySortsByRawLatency() {
        PowerModeTableModel model;
        model.setRows(modeRowsFrom(recommend(Constraints{})));
        QSortFilterProxyModel proxy;
        proxy.setSortRole(SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(PowerModeTableModel::Latency, Qt::AscendingOrder);
        QCOMPARE(proxy.rowCount(), 8);
        for (int row = 1; row < proxy.rowCount(); ++row)
            QVERIFY(proxy.index(row - 1, PowerModeTableModel::Latency).data(SortRole).toDouble() <=
                    proxy.index(row, PowerModeTableModel::Latency).data(SortRole).toDouble());
        proxy.sort(PowerModeTableModel::GpuClock, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, PowerModeTableModel::GpuClock).data(SortRole).toLongLong(), 1300500000LL);
    }

    void infeasibleLimitsGreyEveryRow() {
        Constraints impossible;
        impossible.latencySloSeconds = 1e-9;
        const Recommendation rec = recommend(impossible);
        QVERIFY(!rec.recommended.has_value());
        PowerModeTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(modeRowsFrom(rec));
        QCOMPARE(model.recommendedRow(), -1);
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.index(row, PowerModeTableModel::Feasible).data(SortRole).toBool(), false);
            QCOMPARE(model.index(row, PowerModeTableModel::Mode).data(Qt::ForegroundRole).value<QColor>(),
                     QColor(Qt::gray));
            QVERIFY(!model.index(row, PowerModeTableModel::Mode).data(Qt::FontRole).isValid());
        }
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    // A custom mode reads by its clocks in the table; its canonical name stays in the sort role, which the
    // CSV and JSON exports write.
    void aCustomModeReadsByItsClocks() {
        const PowerMode custom = resolvePowerMode(agx(), "c2-cpu1651.2-gpu624.75-emc2133");
        ModeRow row;
        row.name = QString::fromStdString(custom.name);
        row.profile.mode = custom;
        PowerModeTableModel model;
        model.setRows({row});
        QCOMPARE(model.index(0, PowerModeTableModel::Mode).data(Qt::DisplayRole).toString(),
                 QStringLiteral("GPU 625 \u00b7 EMC 2133 \u00b7 2 \u00d7 1651 MHz"));
        QCOMPARE(model.index(0, PowerModeTableModel::Mode).data(SortRole).toString(),
                 QStringLiteral("c2-cpu1651.2-gpu624.75-emc2133"));
        QVERIFY(model.index(0, PowerModeTableModel::Mode)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("c2-cpu1651.2-gpu624.75-emc2133")));
    }

    void rowFromPrediction() {
        const ModelPrediction p = predict(workloads()[1].workload, stockProfiles().front());
        const ModeRow row = modeRowFrom(p);
        QCOMPARE(row.name, QStringLiteral("MAXN"));
        QCOMPARE(row.batch, int64_t(4));
        QCOMPARE(row.latencySeconds, p.latencySeconds);
        QCOMPARE(row.energyPerInferenceJoules, p.energyJoules / 4.0);
        QCOMPARE(row.averageWatts, p.averageWatts);
        QCOMPARE(row.provenance, p.provenance);
        QVERIFY(row.feasible);
        QVERIFY(!row.pareto);
        QVERIFY(!row.recommended);
    }

    void headers() {
        PowerModeTableModel model;
        QStringList display, exported;
        for (int c = 0; c < model.columnCount(); ++c) {
            display << model.headerData(c, Qt::Horizontal).toString();
            exported << model.headerData(c, Qt::Horizontal, ExportHeaderRole).toString();
            QVERIFY(!model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        }
        QCOMPARE(display,
                 QStringList({"Mode", "Batch", "GPU clock", "EMC clock", "CPU cores", "CPU clock", "Latency",
                              "Measured latency", "Energy/inference", "Avg power", "Measured power",
                              "Measured by", "Inferences/J", "Provenance", "Pareto", "Feasible"}));
        QCOMPARE(exported.at(PowerModeTableModel::Latency), QStringLiteral("Latency (s)"));
        QCOMPARE(exported.at(PowerModeTableModel::GpuClock), QStringLiteral("GPU clock (Hz)"));
        // a training step's energies are per sample, and so are their heads
        model.setTraining(true);
        QCOMPARE(model.headerData(PowerModeTableModel::EnergyPerInference, Qt::Horizontal).toString(),
                 QStringLiteral("Energy/sample"));
        QCOMPARE(model.headerData(PowerModeTableModel::InferencesPerJoule, Qt::Horizontal).toString(),
                 QStringLiteral("Samples/J"));
        QVERIFY(model.headerData(PowerModeTableModel::EnergyPerInference, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("energy of one sample")));
    }
};

ROOFTOP_TEST_CLASS(TestPowerModeModel)
#include "test_power_mode_model.moc"
