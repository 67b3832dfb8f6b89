// SPDX-License-Identifier: GPL-3.0-or-later
// Recurrent costs (core/cost/recurrent_rules.cpp), hand-computed. units = dirs x S x B x H;
// MACs = units x gates x (I + H); per unit LSTM 13 vector + 5 SFU (+8 with B), GRU 11 + 3 (+6 with B),
// RNN 0 + 1 (+2 with B).
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

// One forward LSTM with bias: X (S, 2, 32), H 16.
std::string lstmModel(int steps) {
    std::string text = R"(
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[STEPS,2,32] x) => (float[STEPS,1,2,16] y)
        <float[1,64,32] w = {0.0}, float[1,64,16] r = {0.0}, float[1,128] b = {0.0}> {
            y = LSTM <hidden_size = 16> (x, w, r, b)
        })";
    for (size_t at = text.find("STEPS"); at != std::string::npos; at = text.find("STEPS"))
        text.replace(at, 5, std::to_string(steps));
    return text;
}

} // namespace

class RecurrentCosts : public QObject {
    Q_OBJECT
private slots:
    // units 320: MACs 320 x 4 x 48 = 61,440; vector 320 x 21; SFU 320 x 5.
    void lstmWithBias() {
        const auto w = analyzeText(lstmModel(10));
        const auto& l = w.layers.at(0);
        QVERIFY(l.supported);
        QCOMPARE(l.kind, OpKind::Matrix);
        QCOMPARE(l.macs, int64_t(61440));
        QCOMPARE(l.sfuOps, int64_t(1600));
        QCOMPARE(l.flops, int64_t(2 * 61440 + 6720 + 1600)); // 131,200
        QCOMPARE(w.totals.torchvisionMacs, int64_t(0));      // torchvision counts no recurrent layers
    }

    void lstmScalesWithSequenceLength() {
        const auto once = analyzeText(lstmModel(10));
        const auto twice = analyzeText(lstmModel(20));
        QCOMPARE(twice.layers.at(0).macs, 2 * once.layers.at(0).macs);
        QCOMPARE(twice.layers.at(0).flops, 2 * once.layers.at(0).flops);
        QCOMPARE(twice.layers.at(0).sfuOps, 2 * once.layers.at(0).sfuOps);
    }

    // Bidirectional, no bias: units 640; MACs 640 x 4 x 48; vector 640 x 13; SFU 640 x 5.
    void lstmBidirectional() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[10,2,32] x) => (float[10,2,2,16] y)
            <float[2,64,32] w = {0.0}, float[2,64,16] r = {0.0}> {
                y = LSTM <hidden_size = 16, direction = "bidirectional"> (x, w, r)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(122880));
        QCOMPARE(l.sfuOps, int64_t(3200));
        QCOMPARE(l.flops, int64_t(2 * 122880 + 8320 + 3200));
    }

    // layout = 1: X is (B, S, I) = (2, 10, 32), the same work as lstmWithBias.
    void lstmBatchFirstLayout() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,10,32] x) => (float[2,10,1,16] y)
            <float[1,64,32] w = {0.0}, float[1,64,16] r = {0.0}, float[1,128] b = {0.0}> {
                y = LSTM <hidden_size = 16, layout = 1> (x, w, r, b)
            })");
        QCOMPARE(w.layers.at(0).macs, int64_t(61440));
        QCOMPARE(w.layers.at(0).flops, int64_t(131200));
    }

    // Peepholes P add 6 vector ops per unit: 320 x (13 + 6).
    void lstmPeepholes() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[10,2,32] x) => (float[10,1,2,16] y)
            <float[1,64,32] w = {0.0}, float[1,64,16] r = {0.0}, float[1,48] p = {0.0}> {
                y = LSTM <hidden_size = 16> (x, w, r, , , , , p)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(2 * 61440 + 320 * 19 + 1600));
    }

    // GRU with bias: X (5, 3, 8), H 4: units 60; MACs 60 x 3 x 12; vector 60 x 17; SFU 60 x 3.
    void gruWithBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[5,3,8] x) => (float[5,1,3,4] y)
            <float[1,12,8] w = {0.0}, float[1,12,4] r = {0.0}, float[1,24] b = {0.0}> {
                y = GRU <hidden_size = 4> (x, w, r, b)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Matrix);
        QCOMPARE(l.macs, int64_t(2160));
        QCOMPARE(l.sfuOps, int64_t(180));
        QCOMPARE(l.flops, int64_t(2 * 2160 + 1020 + 180));
    }

    // RNN without bias: X (7, 1, 10), H 20: units 140; MACs 140 x 30; 1 tanh per unit.
    void rnnWithoutBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[7,1,10] x) => (float[7,1,1,20] y)
            <float[1,20,10] w = {0.0}, float[1,20,20] r = {0.0}> {
                y = RNN <hidden_size = 20> (x, w, r)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(4200));
        QCOMPARE(l.sfuOps, int64_t(140));
        QCOMPARE(l.flops, int64_t(8400 + 140));
    }

    // Bidirectional RNN with bias: units 280; vector 2 x 280.
    void rnnBidirectionalWithBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[7,1,10] x) => (float[7,2,1,20] y)
            <float[2,20,10] w = {0.0}, float[2,20,20] r = {0.0}, float[2,40] b = {0.0}> {
                y = RNN <hidden_size = 20, direction = "bidirectional"> (x, w, r, b)
            })");
        QCOMPARE(w.layers.at(0).macs, int64_t(8400));
        QCOMPARE(w.layers.at(0).flops, int64_t(16800 + 560 + 280));
    }
};

ROOFTOP_TEST_CLASS(RecurrentCosts)
#include "test_recurrent_costs.moc"
