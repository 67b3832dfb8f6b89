// SPDX-License-Identifier: GPL-3.0-or-later
// Control flow: If nodes with a constant condition are inlined (only the taken branch counts), Loop bodies
// are counted once per constant trip count, and anything not constant is counted once with a note.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>
#include <algorithm>

using namespace rooftop;
using rooftop::test::analyzeText;
using rooftop::test::firstLayerWithOp;
using rooftop::test::hasNote;
using rooftop::test::replaceFirst;

namespace {

// If whose condition c comes from @INITS@ or @NODES@; then-branch: one MatMul (512 MACs); else-branch:
// MatMul + Relu.
std::string ifModel(const std::string& inits, const std::string& nodes) {
    const std::string text = R"(
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[1,16] x) => (float[1,32] y) <float[16,32] wt = {0.0}, float[16,32] we = {0.0} @INITS@> {
            @NODES@
            y = If <then_branch = thenBranch () => (float[1,32] t) { t = MatMul (x, wt) },
                    else_branch = elseBranch () => (float[1,32] e) { m = MatMul (x, we)  e = Relu (m) }> (c)
        })";
    return replaceFirst(replaceFirst(text, "@INITS@", inits), "@NODES@", nodes);
}

// Loop over a [1,16] x [16,16] MatMul (256 MACs) whose trip count M comes from @INPUTS@, @INITS@ or @NODES@.
std::string loopModel(const std::string& inputs, const std::string& inits, const std::string& nodes) {
    const std::string text = R"(
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[1,16] x @INPUTS@) => (float[1,16] y) <bool cond = {1}, float[16,16] w = {0.0} @INITS@> {
            @NODES@
            y = Loop <body = body (int64 i, bool c, float[1,16] a) => (bool co, float[1,16] b) {
                co = Identity (c)
                b = MatMul (a, w)
            }> (M, cond, x)
        })";
    return replaceFirst(replaceFirst(replaceFirst(text, "@INPUTS@", inputs), "@INITS@", inits), "@NODES@",
                        nodes);
}

} // namespace

class ControlFlow : public QObject {
    Q_OBJECT
private slots:
    void ifWithConstantNodeConditionInlinesThenBranch() {
        const auto w = analyzeText(ifModel("", "c = Constant <value = bool {1}> ()"));
        QVERIFY(!firstLayerWithOp(w, "If"));
        QVERIFY(!firstLayerWithOp(w, "Relu"));
        QCOMPARE(int(w.layers.size()), 1);
        QCOMPARE(w.totals.macs, int64_t(512));
        QCOMPARE(w.totals.flops, int64_t(1024));
        QCOMPARE(w.totals.weightBytes, int64_t(2048)); // only the taken branch's weights are read
        QVERIFY(hasNote(w, "If node(s) with a constant condition inlined"));
    }

    void ifWithInitializerConditionInlinesElseBranch() {
        const auto w = analyzeText(ifModel(", bool c = {0}", ""));
        QVERIFY(!firstLayerWithOp(w, "If"));
        QVERIFY(firstLayerWithOp(w, "Relu"));
        QCOMPARE(w.totals.macs, int64_t(512));
        QCOMPARE(w.totals.flops, int64_t(1024 + 32));
        QVERIFY(hasNote(w, "inlined"));
    }

    void ifWithDynamicConditionCountsThenBranchOnceWithNote() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16] x, bool c) => (float[1,32] y) <float[16,32] wt = {0.0}, float[16,32] we = {0.0}> {
                y = If <then_branch = thenBranch () => (float[1,32] t) { t = MatMul (x, wt) },
                        else_branch = elseBranch () => (float[1,32] e) { e = MatMul (x, we) }> (c)
            })");
        const LayerCount* node = firstLayerWithOp(w, "If");
        QVERIFY(node);
        QCOMPARE(node->kind, OpKind::Control);
        QCOMPARE(node->flops, int64_t(0));
        QCOMPARE(node->bytes(), int64_t(0));
        QVERIFY(!node->note.empty());
        QCOMPARE(w.totals.macs, int64_t(512));
        QVERIFY(!hasNote(w, "inlined"));
    }

    void loopWithConstantTripCountRepeatsItsBody() {
        const auto w = analyzeText(loopModel("", ", int64 M = {3}", ""));
        const LayerCount* loop = firstLayerWithOp(w, "Loop");
        QVERIFY(loop);
        QCOMPARE(loop->kind, OpKind::Control);
        QCOMPARE(loop->flops, int64_t(0));
        QCOMPARE(loop->bytes(), int64_t(0));
        QVERIFY(loop->note.find("3 times") != std::string::npos);
        const LayerCount* body = firstLayerWithOp(w, "MatMul");
        QVERIFY(body);
        QCOMPARE(body->repeat, int64_t(3));
        QCOMPARE(body->macs, int64_t(768));
        QCOMPARE(body->flops, int64_t(1536));
        QCOMPARE(body->weightBytes, int64_t(3 * 1024));
        QCOMPARE(body->inputBytes, int64_t(3 * 64));
        QCOMPARE(body->outputBytes, int64_t(3 * 64));
        QCOMPARE(w.totals.macs, int64_t(768));
    }

    void loopWithConstantNodeTripCount() {
        const auto w = analyzeText(loopModel("", "", "M = Constant <value = int64 {4}> ()"));
        QCOMPARE(firstLayerWithOp(w, "MatMul")->repeat, int64_t(4));
        QCOMPARE(w.totals.macs, int64_t(1024));
    }

    void loopWithDynamicTripCountCountsBodyOnceWithNote() {
        const auto w = analyzeText(loopModel(", int64 M", "", ""));
        const LayerCount* loop = firstLayerWithOp(w, "Loop");
        QVERIFY(loop);
        QVERIFY(loop->note.find("not constant") != std::string::npos);
        QCOMPARE(firstLayerWithOp(w, "MatMul")->repeat, int64_t(1));
        QCOMPARE(w.totals.macs, int64_t(256));
    }

    void whileLoopWithUnboundedTripCountCountsBodyOnce() {
        // Exporters write while loops as Loop with M = INT64_MAX and a dynamic condition.
        const auto w = analyzeText(loopModel("", ", int64 M = {9223372036854775807}", ""));
        const LayerCount* loop = firstLayerWithOp(w, "Loop");
        QVERIFY(loop);
        QVERIFY(!loop->note.empty());
        QCOMPARE(firstLayerWithOp(w, "MatMul")->repeat, int64_t(1));
        QCOMPARE(w.totals.macs, int64_t(256));
    }

    void loopWithZeroTripsCountsNothing() {
        const auto w = analyzeText(loopModel("", ", int64 M = {0}", ""));
        QCOMPARE(firstLayerWithOp(w, "MatMul")->repeat, int64_t(0));
        QCOMPARE(w.totals.macs, int64_t(0));
        QCOMPARE(w.totals.bytes(), int64_t(0));
    }

    void nestedLoopsMultiplyTripCounts() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16] x) => (float[1,16] y) <int64 M = {3}, int64 N = {2}, bool cond = {1}, float[16,16] w = {0.0}> {
                y = Loop <body = outer (int64 i, bool c, float[1,16] a) => (bool co, float[1,16] b) {
                    co = Identity (c)
                    b = Loop <body = inner (int64 j, bool d, float[1,16] p) => (bool dout, float[1,16] q) {
                        dout = Identity (d)
                        q = MatMul (p, w)
                    }> (N, c, a)
                }> (M, cond, x)
            })");
        const LayerCount* body = firstLayerWithOp(w, "MatMul");
        QVERIFY(body);
        QCOMPARE(body->repeat, int64_t(6));
        QCOMPARE(w.totals.macs, int64_t(6 * 256));
    }
};

ROOFTOP_TEST_CLASS(ControlFlow)
#include "test_control_flow.moc"
