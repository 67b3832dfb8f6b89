// SPDX-License-Identifier: GPL-3.0-or-later
// Bytes under --convention pagoda (core/cost/pagoda_traffic.cpp): the Pagoda study's per-op rule, exact
// counts on hand-written models and its estimator's totals on the bundled ResNet-50 and MobileNetV3-Large.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeSample;
using rooftop::test::analyzeText;

namespace {

AnalysisSettings pagoda(Precision precision = Precision::FP32) {
    AnalysisSettings settings;
    settings.convention = Convention::Pagoda;
    settings.precision = precision;
    return settings;
}

void compareBytes(const LayerCount& l, int64_t weight, int64_t input, int64_t output) {
    QCOMPARE(l.weightBytes, weight);
    QCOMPARE(l.inputBytes, input);
    QCOMPARE(l.outputBytes, output);
}

} // namespace

class PagodaBytes : public QObject {
    Q_OBJECT
private slots:
    void broadcastMulCountsBothOperandsAtOutputSize() {
        // The SE block's scale: Y = 16 x 8 x 8 = 1024 elements; the study charges 3 x 1024 x 4 B, the
        // [16,1,1] operand as if expanded. Ours reads it once: (1024 + 16) x 4 in.
        const std::string text = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16,8,8] x, float[1,16,1,1] s) => (float[1,16,8,8] y) {
                y = Mul(x, s)
            })";
        const auto l = analyzeText(text, pagoda()).layers.at(0);
        compareBytes(l, 0, 8192, 4096);
        QCOMPARE(l.flops, int64_t(1024));
        compareBytes(analyzeText(text).layers.at(0), 0, 4160, 4096);
        // At fp16, 2 B an element.
        compareBytes(analyzeText(text, pagoda(Precision::FP16)).layers.at(0), 0, 4096, 2048);
    }

    void convChargesTheWeightNotTheBias() {
        // W 4 x 3 x 3 x 3 = 108 -> 432 B (the bias, 16 B, is not charged); X 3 x 8 x 8 = 192 -> 768 B;
        // Y 4 x 8 x 8 = 256 -> 1024 B. FLOPs 2 x 256 x 27 + 256 = 14080.
        const std::string text = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,8,8] x) => (float[1,4,8,8] y)
            <float[4,3,3,3] w = {0.0}, float[4] b = {0.0}> {
                y = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w, b)
            })";
        const auto l = analyzeText(text, pagoda()).layers.at(0);
        compareBytes(l, 432, 768, 1024);
        QCOMPARE(l.flops, int64_t(14080));
        QCOMPARE(analyzeText(text).layers.at(0).weightBytes, int64_t(448));
    }

    void gemmChargesTheWeightNotTheBias() {
        // W 16 x 8 -> 512 B; A 2 x 8 -> 64 B; Y 2 x 16 -> 128 B; C (64 B) not charged.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,8] a) => (float[2,16] y)
            <float[16,8] w = {0.0}, float[16] c = {0.0}> {
                y = Gemm <transB = 1> (a, w, c)
            })",
                                   pagoda());
        compareBytes(w.layers.at(0), 512, 64, 128);
    }

    void activationsChargeTheOutputTwice() {
        // HardSwish on 16 x 8 x 8 = 1024 -> 4096 B in, 4096 B out; HardSigmoid on 16 x 1 x 1 -> 64 B, 64 B.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16,8,8] x, float[1,16,1,1] s) => (float[1,16,8,8] y, float[1,16,1,1] t) {
                y = HardSwish(x)
                t = HardSigmoid(s)
            })",
                                   pagoda());
        compareBytes(w.layers.at(0), 0, 4096, 4096);
        compareBytes(w.layers.at(1), 0, 64, 64);
    }

    void opsTheStudyDoesNotListMoveNothing() {
        // Sqrt and Reshape are not in the study's table: 0 B (ours: 4096 + 4096 B each). Sqrt keeps our
        // FLOPs: 1024 square roots.
        const std::string text = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16,8,8] x) => (float[1,1024] y)
            <int64[2] shape = {1, 1024}> {
                r = Sqrt(x)
                y = Reshape(r, shape)
            })";
        const auto theirs = analyzeText(text, pagoda());
        const auto ours = analyzeText(text);
        compareBytes(theirs.layers.at(0), 0, 0, 0);
        compareBytes(theirs.layers.at(1), 0, 0, 0);
        QCOMPARE(theirs.layers.at(0).flops, int64_t(1024));
        QCOMPARE(ours.layers.at(0).bytes(), int64_t(8192));
        QCOMPARE(ours.layers.at(1).bytes(), int64_t(8192));
    }

    void batchNormChargesScaleAndBiasOnly() {
        // 2C = 8 parameters -> 32 B (ours reads all four [4] tensors, 64 B); X = Y = 4 x 8 x 8 = 256 -> 1024
        // B.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,4,8,8] x) => (float[1,4,8,8] y)
            <float[4] scale = {1.0}, float[4] bias = {0.0}, float[4] mean = {0.0}, float[4] var = {1.0}> {
                y = BatchNormalization(x, scale, bias, mean, var)
            })",
                                   pagoda());
        compareBytes(w.layers.at(0), 32, 1024, 1024);
    }

    void matMulChargesBAsAKByNWeight() {
        // A 2 x 3 x 4 x 5 (120 -> 480 B), B 2 x 3 x 5 x 6, Y 2 x 3 x 4 x 6 (144 -> 576 B): B is charged as
        // K x N = 5 x 6 = 30 -> 120 B, not its 180 elements (ours: 300 x 4 = 1200 B in).
        const std::string text = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4,5] a, float[2,3,5,6] b) => (float[2,3,4,6] y) {
                y = MatMul(a, b)
            })";
        compareBytes(analyzeText(text, pagoda()).layers.at(0), 120, 480, 576);
        compareBytes(analyzeText(text).layers.at(0), 0, 1200, 576);
    }

    void poolingConcatAndConstantOfShape() {
        // MaxPool 2 x 4 x 4 -> 2 x 2 x 2: 128 B, 32 B. GlobalAveragePool 2 x 4 x 4 -> 2: 128 B, 8 B.
        // Concat [1,2,4] + [1,3,4]: 80 B in, 80 B out. ConstantOfShape [2,3]: 24 B out only.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,2,4,4] x, float[1,2,4] a, float[1,3,4] b)
                => (float[1,2,2,2] p, float[1,2,1,1] q, float[1,5,4] c, float[2,3] k)
            <int64[2] shape = {2, 3}> {
                p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)
                q = GlobalAveragePool(x)
                c = Concat <axis = 1> (a, b)
                k = ConstantOfShape(shape)
            })",
                                   pagoda());
        compareBytes(w.layers.at(0), 0, 128, 32);
        compareBytes(w.layers.at(1), 0, 128, 8);
        compareBytes(w.layers.at(2), 0, 80, 80);
        compareBytes(w.layers.at(3), 0, 0, 24);
    }

    void lstmChargesGateWeightsInputOutputAndStates() {
        // S 3, B 2, I 4, H 4, one direction. Weights 4(I.H + H.H) = 128 -> 512 B (the bias, 128 B, is not
        // charged); input S.B.I = 24 -> 96 B; output S.B.H + 2.B.H = 24 + 16 = 40 -> 160 B.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[3,2,4] x) => (float[3,1,2,4] y)
            <float[1,16,4] w = {0.0}, float[1,16,4] r = {0.0}, float[1,32] b = {0.0}> {
                y = LSTM <hidden_size = 4> (x, w, r, b)
            })",
                                   pagoda());
        compareBytes(w.layers.at(0), 512, 96, 160);
    }

    void fusedViewIsNotTheStudys() {
        // The study has no fusion: under --traffic fused the convention leaves the fused view's bytes alone.
        const std::string text = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,8,8] x) => (float[1,4,8,8] y)
            <float[4,3,3,3] w = {0.0}, float[4] b = {0.0}> {
                c = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w, b)
                y = Relu(c)
            })";
        AnalysisSettings fused;
        fused.traffic = TrafficView::Fused;
        AnalysisSettings fusedPagoda = pagoda(Precision::AsModel);
        fusedPagoda.traffic = TrafficView::Fused;
        QCOMPARE(analyzeText(text, fusedPagoda).totals.bytes(), analyzeText(text, fused).totals.bytes());
    }

    void studyEstimatorTotals_data() {
        // The study's estimator (dream-lab/pagoda src/analytical_model/estimates.py, LayerInfoCollectorONNX
        // with data_type_size 4), run unchanged on these very files with /usr/bin/python3 — cv2, onnxruntime
        // and torch stubbed (unused), onnx.load without external data (the weights are stripped; it reads
        // only dims) — summing 'FLOPs' and 'Memory Accesses' over layers as its model.py does, batch_size 1
        // and 64. They are also the study's own per-model constants (flops, mem_acc) in
        // src/analysis/roofline_batch_size_expt.ipynb.
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("studyFlops");
        QTest::addColumn<qint64>("studyBytes");
        QTest::newRow("ResNet-50 b1") << "resnet50" << qint64(1) << qint64(8206316544) << qint64(336671392);
        QTest::newRow("ResNet-50 b64")
            << "resnet50" << qint64(64) << qint64(525204258816) << qint64(15120235264);
        QTest::newRow("MobileNetV3-L b1")
            << "mobilenet_v3_large" << qint64(1) << qint64(449137560) << qint64(102976672);
        QTest::newRow("MobileNetV3-L b64")
            << "mobilenet_v3_large" << qint64(64) << qint64(28744803840) << qint64(5216786464);
    }

    void studyEstimatorTotals() {
        QFETCH(QString, model);
        QFETCH(qint64, batch);
        QFETCH(qint64, studyFlops);
        QFETCH(qint64, studyBytes);
        AnalysisSettings settings = pagoda();
        settings.dims.batch = batch;
        const Workload w = analyzeSample(model.toStdString(), settings);
        QCOMPARE(qint64(w.totals.flops), studyFlops);
        QCOMPARE(qint64(w.totals.bytes()), studyBytes);
    }
};

ROOFTOP_TEST_CLASS(PagodaBytes)
#include "test_pagoda_bytes.moc"
