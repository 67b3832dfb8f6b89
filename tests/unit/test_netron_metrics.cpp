// SPDX-License-Identifier: GPL-3.0-or-later
// The Netron attachment (signature "netron:attachment", items {kind, target, name, value}) for ResNet-18.
#include "core/device/catalog.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/report/netron_metrics.h"
#include "core/roofline/prediction.h"
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <map>
#include <set>

using namespace rooftop;
using rooftop::test::resnet18MaxnPrediction;
using rooftop::test::resnet18Workload;

namespace {

QJsonObject parse(const std::string& text) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError) qWarning("%s", qPrintable(error.errorString()));
    return doc.object();
}

/// (kind, target) -> name -> value, as Netron's attachment container keys them.
using Entries = std::map<std::pair<QString, QString>, std::map<QString, QJsonValue>>;

Entries entries(const QJsonArray& items) {
    Entries out;
    for (const QJsonValue& item : items) {
        const QJsonObject o = item.toObject();
        out[{o.value("kind").toString(), o.value("target").toString()}][o.value("name").toString()] =
            o.value("value");
    }
    return out;
}

int nodeTargets(const Entries& e) {
    int n = 0;
    for (const auto& [key, values] : e)
        n += key.first == QStringLiteral("node");
    return n;
}

} // namespace

class TestNetronMetrics : public QObject {
    Q_OBJECT
private slots:
    void countsPerNode() {
        const QJsonObject root = parse(netronMetricsJson(resnet18Workload(), nullptr));
        QCOMPARE(root.value("signature").toString(), QStringLiteral("netron:attachment"));
        QVERIFY(root.value("metadata").isArray());
        const QJsonArray metrics = root.value("metrics").toArray();
        QCOMPARE(metrics.size(), (49 + 1) * 8); // 8 counts per node and for the model
        for (const QJsonValue& item : metrics) {
            const QJsonObject o = item.toObject();
            QCOMPARE(o.keys(), QStringList({"kind", "name", "target", "value"}));
        }
        const Entries e = entries(metrics);
        QCOMPARE(nodeTargets(e), 49);
        for (const LayerCount& l : resnet18Workload().layers) {
            const auto found = e.find({QStringLiteral("node"), QString::fromStdString(l.name)});
            QVERIFY2(found != e.end(), l.name.c_str());
            QCOMPARE(found->second.at("flops").toInteger(), qint64(l.flops));
            QCOMPARE(found->second.at("macs").toInteger(), qint64(l.macs));
            QCOMPARE(found->second.at("bytes").toInteger(), qint64(l.bytes()));
            QCOMPARE(found->second.at("weight_bytes").toInteger(), qint64(l.weightBytes));
            QCOMPARE(found->second.at("intensity").toDouble(), l.intensity());
            QVERIFY(!found->second.count("time_s"));
        }
        const auto& conv1 = e.at({QStringLiteral("node"), QStringLiteral("/conv1/Conv")});
        QCOMPARE(conv1.at("macs").toInteger(), qint64(118013952));
        QCOMPARE(conv1.at("flops").toInteger(),
                 qint64(test::layerNamed(resnet18Workload(), "/conv1/Conv").flops));
        const auto& model = e.at({QStringLiteral("model"), QString()});
        QCOMPARE(model.at("flops").toInteger(), qint64(resnet18Workload().totals.flops));
        QCOMPARE(model.at("macs").toInteger(), qint64(resnet18Workload().totals.macs));
    }

    void predictionAddsTimeEnergyBound() {
        const ModelPrediction p = resnet18MaxnPrediction();
        const QJsonObject root = parse(netronMetricsJson(resnet18Workload(), &p));
        const QJsonArray metrics = root.value("metrics").toArray();
        QCOMPARE(metrics.size(), 49 * 12 + 8 + 4);
        const Entries e = entries(metrics);
        QCOMPARE(nodeTargets(e), 49);
        for (size_t i = 0; i < resnet18Workload().layers.size(); ++i) {
            const auto& node =
                e.at({QStringLiteral("node"), QString::fromStdString(resnet18Workload().layers[i].name)});
            QCOMPARE(node.at("time_s").toDouble(), p.layers[i].seconds);
            QCOMPARE(node.at("energy_j").toDouble(), p.layers[i].joules);
            QCOMPARE(node.at("bound").toString(), QString::fromLatin1(boundName(p.layers[i].bound)));
        }
        const auto& model = e.at({QStringLiteral("model"), QString()});
        QCOMPARE(model.at("latency_s").toDouble(), p.latencySeconds);
        QCOMPARE(model.at("batch").toInteger(), qint64(1));
        const Entries meta = entries(root.value("metadata").toArray());
        const auto& modelMeta = meta.at({QStringLiteral("model"), QString()});
        QCOMPARE(modelMeta.at("power_mode").toString(), QStringLiteral("MAXN"));
        QCOMPARE(modelMeta.at("provenance").toString(), QString::fromLatin1(provenanceName(p.provenance)));
    }

    void misalignedPredictionIsLeftOut() {
        ModelPrediction p = resnet18MaxnPrediction();
        p.layers.pop_back();
        QCOMPARE(netronMetricsJson(resnet18Workload(), &p), netronMetricsJson(resnet18Workload(), nullptr));
    }

    void unsupportedNodeIsNoted() {
        const Workload w = test::analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.acme" : 1]>
            g (float[4] x) => (float[4] y) {
                y = com.acme.Frobnicate (x)
            })");
        const QJsonObject root = parse(netronMetricsJson(w, nullptr));
        const Entries meta = entries(root.value("metadata").toArray());
        const auto& node = meta.at({QStringLiteral("node"), QString::fromStdString(w.layers.at(0).name)});
        QVERIFY(node.at("rooftop").toString().startsWith(QStringLiteral("unsupported")));
        const Entries e = entries(root.value("metrics").toArray());
        QCOMPARE(e.at({QStringLiteral("node"), QString::fromStdString(w.layers.at(0).name)})
                     .at("flops")
                     .toInteger(),
                 qint64(0));
    }

    // rooftop analyze --format netron writes the same attachment for a file: per-node counts, no prediction
    void analyzeWritesTheAttachment() {
        const test::CliResult r = test::runRooftop(
            {"analyze", QString::fromStdString(test::samplePath("resnet18")), "--format", "netron"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject root = parse(r.out.toStdString());
        QCOMPARE(root.value("signature").toString(), QStringLiteral("netron:attachment"));
        const Entries e = entries(root.value("metrics").toArray());
        const Workload w = resnet18Workload();
        QCOMPARE(nodeTargets(e), int(w.layers.size()));
        const LayerCount& first = w.layers.front();
        QCOMPARE(e.at({"node", QString::fromStdString(first.name)}).at("flops").toInteger(), first.flops);
        QVERIFY(!e.at({"model", QString()}).count("latency_s"));
    }
};

ROOFTOP_TEST_CLASS(TestNetronMetrics)
#include "test_netron_metrics.moc"
