// SPDX-License-Identifier: GPL-3.0-or-later
// Normalization and softmax costs (core/cost/normalization_rules.cpp), hand-computed.
// X = input elements; one SFU op (rsqrt / sqrt / log) per normalized row.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

class NormalizationCosts : public QObject {
    Q_OBJECT
private slots:
    // 2/elem, pointwise (folds into a convolution's epilogue).
    void batchNormalization() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64,56,56] x) => (float[1,64,56,56] y)
            <float[64] s = {1.0}, float[64] b = {0.0}, float[64] m = {0.0}, float[64] v = {1.0}> {
                y = BatchNormalization (x, s, b, m, v)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Pointwise);
        QCOMPARE(l.macs, int64_t(0));
        QCOMPARE(l.flops, int64_t(200704 * 2));
        QCOMPARE(l.sfuOps, int64_t(0));
    }

    // 7/elem with bias + 1 rsqrt per row of 768: X = 196,608, 256 rows.
    void layerNormalizationWithBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,128,768] x) => (float[2,128,768] y)
            <float[768] s = {1.0}, float[768] b = {0.0}> {
                y = LayerNormalization (x, s, b)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Vector);
        QCOMPARE(l.sfuOps, int64_t(256));
        QCOMPARE(l.flops, int64_t(196608 * 7 + 256)); // 1,376,512
    }

    // No bias: 6/elem; axis = 1 normalizes (128, 768) together: 2 rows.
    void layerNormalizationAxisWithoutBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,128,768] x) => (float[2,128,768] y)
            <float[128,768] s = {1.0}> {
                y = LayerNormalization <axis = 1> (x, s)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.sfuOps, int64_t(2));
        QCOMPARE(l.flops, int64_t(196608 * 6 + 2));
    }

    // RMSNormalization (opset 23): 4/elem + 1 rsqrt per row.
    void rmsNormalization() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[1,32,4096] x) => (float[1,32,4096] y)
            <float[4096] s = {1.0}> {
                y = RMSNormalization (x, s)
            })");
        const auto& l = w.layers.at(0);
        QVERIFY(l.supported);
        QCOMPARE(l.sfuOps, int64_t(32));
        QCOMPARE(l.flops, int64_t(131072 * 4 + 32)); // 524,320
    }

    void simplifiedLayerNormalizationIsRms() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,32,4096] x) => (float[1,32,4096] y)
            <float[4096] s = {1.0}> {
                y = com.microsoft.SimplifiedLayerNormalization (x, s)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(131072 * 4 + 32));
        QCOMPARE(w.layers.at(0).sfuOps, int64_t(32));
    }

    // SkipLayerNormalization with beta and bias: 7 (layer norm) + 1 skip + 1 bias = 9/elem.
    void skipLayerNormalization() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[2,128,768] x, float[2,128,768] skip) => (float[2,128,768] y)
            <float[768] gamma = {1.0}, float[768] beta = {0.0}, float[768] bias = {0.0}> {
                y = com.microsoft.SkipLayerNormalization (x, skip, gamma, beta, bias)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.sfuOps, int64_t(256));
        QCOMPARE(l.flops, int64_t(196608 * 9 + 256));
    }

    // SkipSimplifiedLayerNormalization: 4 (RMS) + 1 skip = 5/elem; + 1 with bias.
    void skipSimplifiedLayerNormalization() {
        const auto plain = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,8,64] x, float[1,8,64] skip) => (float[1,8,64] y)
            <float[64] gamma = {1.0}> {
                y = com.microsoft.SkipSimplifiedLayerNormalization (x, skip, gamma)
            })");
        QCOMPARE(plain.layers.at(0).flops, int64_t(512 * 5 + 8));
        const auto biased = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,8,64] x, float[1,8,64] skip) => (float[1,8,64] y)
            <float[64] gamma = {1.0}, float[64] bias = {0.0}> {
                y = com.microsoft.SkipSimplifiedLayerNormalization (x, skip, gamma, bias)
            })");
        QCOMPARE(biased.layers.at(0).flops, int64_t(512 * 6 + 8));
    }

    // GroupNormalization: 7/elem + 1 rsqrt per (sample, group) = 2 x 8.
    void groupNormalization() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 18]>
            g (float[2,32,16,16] x) => (float[2,32,16,16] y)
            <float[8] s = {1.0}, float[8] b = {0.0}> {
                y = GroupNormalization <num_groups = 8> (x, s, b)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.sfuOps, int64_t(16));
        QCOMPARE(l.flops, int64_t(16384 * 7 + 16)); // 114,704
    }

    // com.microsoft GroupNorm (NHWC) with SiLU: 7 + 4 vector and 1 exp per element, 1 rsqrt per group.
    void contribGroupNormWithSilu() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,8,8,32] x) => (float[1,8,8,32] y)
            <float[32] gamma = {1.0}, float[32] beta = {0.0}> {
                y = com.microsoft.GroupNorm <groups = 4, activation = 1, epsilon = 0.00001> (x, gamma, beta)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.sfuOps, int64_t(2048 + 4));
        QCOMPARE(l.flops, int64_t(2048 * 11 + 2052));
    }

    // InstanceNormalization: 7/elem + 1 rsqrt per (N, C) = 32.
    void instanceNormalization() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,16,8,8] x) => (float[2,16,8,8] y)
            <float[16] s = {1.0}, float[16] b = {0.0}> {
                y = InstanceNormalization (x, s, b)
            })");
        QCOMPARE(w.layers.at(0).sfuOps, int64_t(32));
        QCOMPARE(w.layers.at(0).flops, int64_t(2048 * 7 + 32));
    }

    // LpNormalization along axis 1 of (4, 10): p=2: 3/elem + 1 sqrt per row; p=1: 3/elem.
    void lpNormalization() {
        const auto l2 = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,10] x) => (float[4,10] y) {
                y = LpNormalization <axis = 1, p = 2> (x)
            })");
        QCOMPARE(l2.layers.at(0).sfuOps, int64_t(4));
        QCOMPARE(l2.layers.at(0).flops, int64_t(40 * 3 + 4));
        const auto l1 = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,10] x) => (float[4,10] y) {
                y = LpNormalization <axis = 1, p = 1> (x)
            })");
        QCOMPARE(l1.layers.at(0).sfuOps, int64_t(0));
        QCOMPARE(l1.layers.at(0).flops, int64_t(40 * 3));
    }

    // MeanVarianceNormalization over default axes [0, 2, 3] of (2, 3, 4, 5): 6/elem + 1 sqrt per channel.
    void meanVarianceNormalization() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4,5] x) => (float[2,3,4,5] y) {
                y = MeanVarianceNormalization (x)
            })");
        QCOMPARE(w.layers.at(0).sfuOps, int64_t(3));
        QCOMPARE(w.layers.at(0).flops, int64_t(120 * 6 + 3));
    }

    // Softmax: 4 vector + 1 exp per element.
    void softmax() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,12,64,64] x) => (float[1,12,64,64] y) {
                y = Softmax (x)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Vector);
        QCOMPARE(l.sfuOps, int64_t(49152));
        QCOMPARE(l.flops, int64_t(49152 * 5)); // 245,760
    }

    // LogSoftmax: 4 vector + 1 exp per element + 1 log per row.
    void logSoftmaxRows() {
        const auto last = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[8,100] x) => (float[8,100] y) {
                y = LogSoftmax (x)
            })");
        QCOMPARE(last.layers.at(0).sfuOps, int64_t(800 + 8));
        QCOMPARE(last.layers.at(0).flops, int64_t(800 * 4 + 808));
        // Opset 13+: rows along axis 1 of (2, 3, 4) = 24 / 3 = 8.
        const auto along = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4] x) => (float[2,3,4] y) {
                y = LogSoftmax <axis = 1> (x)
            })");
        QCOMPARE(along.layers.at(0).sfuOps, int64_t(24 + 8));
        // Opset 11: axis 1 (the default) flattens (3, 4) into one row: 2 rows.
        const auto legacy = analyzeText(R"(
            <ir_version: 6, opset_import: ["" : 11]>
            g (float[2,3,4] x) => (float[2,3,4] y) {
                y = LogSoftmax (x)
            })");
        QCOMPARE(legacy.layers.at(0).sfuOps, int64_t(24 + 2));
    }

    void hardmax() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[8,100] x) => (float[8,100] y) {
                y = Hardmax (x)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(1600));
        QCOMPARE(w.layers.at(0).sfuOps, int64_t(0));
    }

    void outOfRangeAxisIsUnsupported() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[4,10] x) => (float[4,10] y)
            <float[10] s = {1.0}> {
                y = RMSNormalization <axis = 5> (x, s)
            })");
        QVERIFY(!w.layers.at(0).supported);
    }
};

ROOFTOP_TEST_CLASS(NormalizationCosts)
#include "test_normalization_costs.moc"
