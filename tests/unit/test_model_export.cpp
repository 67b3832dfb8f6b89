// SPDX-License-Identifier: GPL-3.0-or-later
// CSV and JSON export of what a view shows: the proxy's rows in its order, raw numbers, RFC 4180 quoting.
#include "core/device/catalog.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/prediction.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "models/model_export.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardItemModel>
#include <QtTest>

using namespace rooftop;
using rooftop::test::resnet18MaxnPrediction;
using rooftop::test::resnet18Workload;
using namespace rooftop::models;
using rooftop::test::resnet18Conv1Macs;

namespace {

const QString layerHeader =
    QStringLiteral("Name,Op,Kind,MACs,FLOPs,Weights (B),Inputs (B),Outputs (B),"
                   "Intensity (FLOP/B),Time (s),Energy (J),Bound,Share of time (%),"
                   "Measured layer (ms),Predicted layer (ms),Layer error (%),Achieved of roof (%)");

QStringList csvLines(const QString& csv) {
    QStringList lines = csv.split(QStringLiteral("\r\n"));
    if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
    return lines;
}

} // namespace

class TestModelExport : public QObject {
    Q_OBJECT
private slots:
    void csvOfFilteredSortedProxy() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        LayerFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setOpFilter(QStringLiteral("Conv"));
        proxy.sort(LayerTableModel::Macs, Qt::DescendingOrder);
        const QString csv = modelToCsv(proxy);
        QVERIFY(csv.endsWith(QStringLiteral("\r\n")));
        const QStringList lines = csvLines(csv);
        QCOMPARE(lines.size(), 1 + 20);
        QCOMPARE(lines.first(), layerHeader);
        const LayerCount& conv1 = *model.layerAt(proxy.sourceRow(0));
        QCOMPARE(conv1.name, std::string("/conv1/Conv"));
        const QStringList first = lines.at(1).split(QLatin1Char(','));
        QCOMPARE(first.size(), 17);
        QCOMPARE(first.at(0), QStringLiteral("/conv1/Conv"));
        QCOMPARE(first.at(1), QStringLiteral("Conv"));
        QCOMPARE(first.at(2), QStringLiteral("matrix"));
        QCOMPARE(first.at(3), QString::number(resnet18Conv1Macs));
        QCOMPARE(first.at(4), QString::number(conv1.flops));
        QCOMPARE(first.at(5), QString::number(conv1.weightBytes));
        QCOMPARE(first.at(8).toDouble(), conv1.intensity()); // shortest round-trip representation
        QCOMPARE(first.at(9), QString());                    // no prediction: empty predicted cells
        QCOMPARE(first.at(12), QString());
        for (int i = 2; i < lines.size(); ++i)
            QVERIFY(lines.at(i - 1).split(QLatin1Char(',')).at(3).toLongLong() >=
                    lines.at(i).split(QLatin1Char(',')).at(3).toLongLong());
    }

    void csvQuotesPerRfc4180() {
        QStandardItemModel model(2, 2);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHorizontalHeaderLabels({QStringLiteral("plain"), QStringLiteral("with, comma")});
        model.setItem(0, 0, new QStandardItem(QStringLiteral("say \"hi\"")));
        model.setItem(0, 1, new QStandardItem(QStringLiteral("two\nlines")));
        model.setItem(1, 0, new QStandardItem(QStringLiteral("x")));
        auto* number = new QStandardItem;
        number->setData(0.1, SortRole);
        model.setItem(1, 1, number);
        QCOMPARE(modelToCsv(model), QStringLiteral("plain,\"with, comma\"\r\n"
                                                   "\"say \"\"hi\"\"\",\"two\nlines\"\r\n"
                                                   "x,0.1\r\n"));
    }

    void jsonOfProxyWithPrediction() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        const ModelPrediction p = resnet18MaxnPrediction();
        model.setPrediction(&p);
        LayerFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setOpFilter(QStringLiteral("Conv"));
        proxy.sort(LayerTableModel::Macs, Qt::DescendingOrder);
        QJsonParseError error;
        const QJsonDocument doc =
            QJsonDocument::fromJson(modelToJson(proxy, "rooftop-window-layers/1"), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.object().value("schema").toString(), QStringLiteral("rooftop-window-layers/1"));
        const QJsonArray rows = doc.object().value("rows").toArray();
        QCOMPARE(rows.size(), 20);
        const QJsonObject first = rows.at(0).toObject();
        QCOMPARE(first.keys().size(), 17);
        // the vocabulary's names and units (docs/json.md), not the headers'
        for (const char* key :
             {"name", "op", "kind", "macs", "flops", "weight_bytes", "input_bytes", "output_bytes",
              "intensity", "time_ms", "energy_mj", "bound", "time_share_pct", "measured_time_ms",
              "predicted_time_ms", "error_pct", "roof_share_pct"})
            QVERIFY2(first.contains(key), key);
        QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("/conv1/Conv"));
        QVERIFY(first.value(QStringLiteral("macs")).isDouble());
        QCOMPARE(first.value(QStringLiteral("macs")).toInteger(), resnet18Conv1Macs);
        const int row = proxy.sourceRow(0);
        QCOMPARE(first.value(QStringLiteral("time_ms")).toDouble(), 1e3 * p.layers[size_t(row)].seconds);
        QCOMPARE(first.value(QStringLiteral("bound")).toString(),
                 QString::fromUtf8(boundName(p.layers[size_t(row)].bound)));
    }

    void jsonNullsMissingValues() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        const QJsonArray rows = QJsonDocument::fromJson(modelToJson(model, "rooftop-window-layers/1"))
                                    .object()
                                    .value("rows")
                                    .toArray();
        QCOMPARE(rows.size(), 49);
        QVERIFY(rows.at(0).toObject().value(QStringLiteral("time_ms")).isNull());
        QVERIFY(rows.at(0).toObject().value(QStringLiteral("energy_mj")).isNull());
        LayerTableModel empty;
        QCOMPARE(QJsonDocument::fromJson(modelToJson(empty, "rooftop-window-layers/1"))
                     .object()
                     .value("rows")
                     .toArray()
                     .size(),
                 0);
        QCOMPARE(modelToCsv(empty), layerHeader + QStringLiteral("\r\n"));
    }
};

ROOFTOP_TEST_CLASS(TestModelExport)
#include "test_model_export.moc"
