// SPDX-License-Identifier: GPL-3.0-or-later
// Unit oracles of shared/reference/counting.md section 6 for convolutions and matrix products.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;
using rooftop::test::layerNamed;

class ConvMatmulCosts : public QObject {
    Q_OBJECT
private slots:
    void conv3x3WithBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64,56,56] x) => (float[1,64,56,56] y)
            <float[64,64,3,3] w = {0.0}, float[64] b = {0.0}> {
                y = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w, b)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(115605504));
        QCOMPARE(l.flops, int64_t(231411712));
        QCOMPARE(l.bytes(), int64_t(1753344));
        QCOMPARE(l.weightBytes, int64_t(147712));
        QCOMPARE(qRound(l.intensity()), 132);
    }

    void depthwise() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,144,56,56] x) => (float[1,144,56,56] y)
            <float[144,1,3,3] w = {0.0}> {
                y = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], group = 144> (x, w)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(4064256));
        QCOMPARE(l.flops, int64_t(8128512));
        QCOMPARE(l.bytes(), int64_t(3617856));
    }

    void dilatedConvDoesNotChangeMacsPerOutput() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,8,32,32] x) => (float[1,16,28,28] y)
            <float[16,8,3,3] w = {0.0}> {
                y = Conv <kernel_shape = [3, 3], dilations = [2, 2]> (x, w)
            })");
        QCOMPARE(w.layers.at(0).macs, int64_t(16 * 28 * 28) * 8 * 9);
    }

    void convTransposeFromInputSize() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64,28,28] x) => (float[1,32,56,56] y)
            <float[64,32,4,4] w = {0.0}> {
                y = ConvTranspose <kernel_shape = [4, 4], strides = [2, 2], pads = [1, 1, 1, 1]> (x, w)
            })");
        QCOMPARE(w.layers.at(0).macs, int64_t(25690112));
        QCOMPARE(w.layers.at(0).flops, int64_t(51380224));
    }

    void batchedMatMul() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[12,128,64] a, float[12,64,128] b) => (float[12,128,128] y) {
                y = MatMul (a, b)
            })");
        QCOMPARE(w.layers.at(0).macs, int64_t(12582912));
        QCOMPARE(w.layers.at(0).flops, int64_t(25165824));
    }

    void matMulBroadcastsBatch() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,1,32,16] a, float[3,16,8] b) => (float[4,3,32,8] y) {
                y = MatMul (a, b)
            })");
        QCOMPARE(w.layers.at(0).macs, int64_t(4 * 3 * 32 * 8 * 16));
    }

    void gemmWithBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,2048] a) => (float[1,1000] y)
            <float[2048,1000] b = {0.0}, float[1000] c = {0.0}> {
                y = Gemm (a, b, c)
            })");
        QCOMPARE(w.layers.at(0).macs, int64_t(2048000));
        QCOMPARE(w.layers.at(0).flops, int64_t(4097000));
        QCOMPARE(w.totals.torchvisionMacs, int64_t(2048000));
    }
};

ROOFTOP_TEST_CLASS(ConvMatmulCosts)
#include "test_conv_matmul_costs.moc"
