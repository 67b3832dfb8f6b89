// SPDX-License-Identifier: GPL-3.0-or-later
// A node with a cost rule but unknown shapes is "shape unknown" (with the first node where shapes were lost),
// not "unsupported", which stays for ops without a rule; the table, CSV and JSON writers show both.
#include "core/report/workload_writers.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

// The Reshape's target shape is a runtime input, so r and the MatMul after it have no shape; the Relu on x
// is counted (16 FLOPs) and the custom op has no cost rule.
const char* const model = R"(
    <ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
    g (float[1,16] x, int64[2] sh) => (float y, float z, float q) <float[4,8] w = {0.0}> {
        r = Reshape (x, sh)
        y = MatMul (r, w)
        z = Relu (x)
        q = com.example.Frobnicate (x)
    })";

const LayerCount& layerWithOpOrThrow(const Workload& w, const std::string& op) {
    for (const auto& layer : w.layers)
        if (layer.op == op) return layer;
    throw std::runtime_error("no layer " + op);
}

} // namespace

class ShapeStatus : public QObject {
    Q_OBJECT
private slots:
    void ruleWithoutShapesIsShapeUnknown() {
        const Workload w = analyzeText(model);
        QCOMPARE(layerWithOpOrThrow(w, "MatMul").status(), std::string("shape unknown"));
        QCOMPARE(layerWithOpOrThrow(w, "Frobnicate").status(), std::string("unsupported"));
        QCOMPARE(layerWithOpOrThrow(w, "Relu").status(), std::string("counted"));
        QCOMPARE(w.totals.shapeUnknown, std::vector<std::string>{"MatMul"});
        QCOMPARE(w.totals.unsupported, std::vector<std::string>{"com.example.Frobnicate"});
        QCOMPARE(w.totals.flops, int64_t{16});
        QCOMPARE(w.totals.shapeLossNode, std::string("Reshape_0 (Reshape)"));
        QVERIFY(w.totals.shapeLossReason.find("x 1x16, sh 2") != std::string::npos);
    }

    void everyShapeKnownHasNoLoss() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,4] x) => (float y) <float[4,8] w = {0.0}> { y = MatMul (x, w) })");
        QVERIFY(w.totals.shapeUnknown.empty());
        QVERIFY(w.totals.shapeLossNode.empty());
        QCOMPARE(w.totals.macs, int64_t{32});
    }

    void writersShowTheStatus() {
        const Workload w = analyzeText(model);
        const std::string table = workloadToTable(w);
        QVERIFY(table.find("MatMul (?)") != std::string::npos);
        QVERIFY(table.find("Frobnicate (!)") != std::string::npos);
        QVERIFY(table.find("Shape unknown      MatMul") != std::string::npos);
        QVERIFY(table.find("Shapes lost at     Reshape_0 (Reshape)") != std::string::npos);

        const std::string csv = workloadToCsv(w);
        QVERIFY(csv.find(",repeat,note,status\n") != std::string::npos);
        QVERIFY(csv.find(",shape unknown\n") != std::string::npos);
        QVERIFY(csv.find(",unsupported\n") != std::string::npos);

        const QJsonObject json =
            QJsonDocument::fromJson(QByteArray::fromStdString(workloadToJson(w))).object();
        const QJsonObject totals = json["totals"].toObject();
        QCOMPARE(totals["shape_unknown"].toArray(), QJsonArray{"MatMul"});
        QCOMPARE(totals["unsupported"].toArray(), QJsonArray{"com.example.Frobnicate"});
        QCOMPARE(totals["shape_loss"].toObject()["node"].toString(), QString("Reshape_0 (Reshape)"));
        int shapeUnknownLayers = 0;
        for (const auto& layer : json["layers"].toArray())
            if (layer.toObject()["status"].toString() == "shape unknown") ++shapeUnknownLayers;
        QCOMPARE(shapeUnknownLayers, 1);
    }
};

ROOFTOP_TEST_CLASS(ShapeStatus)
#include "test_shape_status.moc"
