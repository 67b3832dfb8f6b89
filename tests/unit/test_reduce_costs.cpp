// SPDX-License-Identifier: GPL-3.0-or-later
// Reduction, arg-reduction, TopK and CumSum rules (core/cost/reduce_rules.cpp). Every case reduces
// x [2,64,32] (X = 4096) over its last axis to Y = 128 elements.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

// A model with one reduction of x over axis 2 (attribute form, opset 17).
LayerCount reduceOver(const std::string& op) {
    const Workload w = analyzeText(R"(
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[2,64,32] x) => (float[2,64] y) {
            y = )" + op + R"( <axes = [2], keepdims = 0> (x)
        })");
    if (w.layers.size() != 1) throw std::runtime_error("expected one layer");
    return w.layers.front();
}

} // namespace

class ReduceCosts : public QObject {
    Q_OBJECT
private slots:
    void reductions_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<qint64>("flops");
        QTest::addColumn<qint64>("sfu");
        QTest::newRow("ReduceMax") << "ReduceMax" << qint64(4096) << qint64(0);                 // X
        QTest::newRow("ReduceMin") << "ReduceMin" << qint64(4096) << qint64(0);                 // X
        QTest::newRow("ReduceProd") << "ReduceProd" << qint64(4096) << qint64(0);               // X
        QTest::newRow("ReduceMean") << "ReduceMean" << qint64(4224) << qint64(0);               // X + Y
        QTest::newRow("ReduceL1") << "ReduceL1" << qint64(8192) << qint64(0);                   // 2X
        QTest::newRow("ReduceSumSquare") << "ReduceSumSquare" << qint64(8192) << qint64(0);     // 2X
        QTest::newRow("ReduceL2") << "ReduceL2" << qint64(8320) << qint64(128);                 // 2X + Y sqrt
        QTest::newRow("ReduceLogSum") << "ReduceLogSum" << qint64(4224) << qint64(128);         // X + Y log
        QTest::newRow("ReduceLogSumExp") << "ReduceLogSumExp" << qint64(12416) << qint64(4224); // 3X + Y log
    }

    void reductions() {
        QFETCH(QString, op);
        QFETCH(qint64, flops);
        QFETCH(qint64, sfu);
        const LayerCount l = reduceOver(op.toStdString());
        QVERIFY(l.supported);
        QCOMPARE(l.kind, OpKind::Vector);
        QCOMPARE(l.macs, int64_t(0));
        QCOMPARE(l.flops, int64_t(flops));
        QCOMPARE(l.sfuOps, int64_t(sfu));
        QCOMPARE(l.inputBytes, int64_t(16384));
        QCOMPARE(l.outputBytes, int64_t(512));
    }

    void reduceSumWithAxesInput() {
        // Opset 13+ ReduceSum takes its axes as an input; the folded axes move no bytes.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,64,32] x) => (float[2,64] y) <int64[1] axes = {2}> {
                y = ReduceSum <keepdims = 0> (x, axes)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.flops, int64_t(4096));
        QCOMPARE(l.weightBytes, int64_t(0));
        QCOMPARE(l.inputBytes, int64_t(16384));
    }

    void argMaxArgMin() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,64,32] x) => (int64[2,64,1] a, int64[2,64,1] b) {
                a = ArgMax <axis = 2> (x)
                b = ArgMin <axis = 2> (x)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(4096)); // X compares
        QCOMPARE(w.layers.at(1).flops, int64_t(4096));
        QCOMPARE(w.layers.at(0).outputBytes, int64_t(1024));
    }

    void topK() {
        // K = 5: X x ceil(log2 5) = 4096 x 3 compares.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,64,32] x) => (float[2,64,5] v, int64[2,64,5] i) <int64[1] k = {5}> {
                v, i = TopK (x, k)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Vector);
        QCOMPARE(l.flops, int64_t(12288));
        QCOMPARE(l.outputBytes, int64_t(640 * 4 + 640 * 8));
    }

    void topKOfOneIsOneComparePerElement() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,64,32] x) => (float[2,64,1] v, int64[2,64,1] i) <int64[1] k = {1}> {
                v, i = TopK (x, k)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(4096));
    }

    void cumSum() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,64,32] x) => (float[2,64,32] y) <int64 axis = {2}> {
                y = CumSum (x, axis)
            })");
        QCOMPARE(w.layers.at(0).kind, OpKind::Vector);
        QCOMPARE(w.layers.at(0).flops, int64_t(4096)); // X adds
    }
};

ROOFTOP_TEST_CLASS(ReduceCosts)
#include "test_reduce_costs.moc"
