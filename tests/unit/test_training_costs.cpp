// SPDX-License-Identifier: GPL-3.0-or-later
// Training-step counts (core/cost/training_step.cpp, training_rules.cpp, optimizer_update.cpp), hand-derived
// per op family at fp32 (4 B an element). Backward bytes = output gradients read + saved tensors read back
// + weights read + input and weight gradients written (docs/training.md).
#include "core/common/errors.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeSample;
using rooftop::test::analyzeText;
using rooftop::test::layerNamed;

namespace {

AnalysisSettings training(Optimizer optimizer) {
    AnalysisSettings settings;
    settings.phase = Phase::Training;
    settings.optimizer = optimizer;
    return settings;
}

void comparePhase(const PhaseCount& p, int64_t macs, int64_t flops, int64_t sfuOps, int64_t bytes) {
    QCOMPARE(p.macs, macs);
    QCOMPARE(p.flops, flops);
    QCOMPARE(p.sfuOps, sfuOps);
    QCOMPARE(p.bytes, bytes);
}

// x [2,3,8,8] (384 el, 1536 B), w [4,3,3,3] (108 el, 432 B), b [4] (16 B), y [2,4,8,8] (512 el, 2048 B).
const char* convModel = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,8,8] x) => (float[2,4,8,8] y)
    <float[4,3,3,3] w = {1.0}, float[4] b = {0.0}> {
        y = Conv <pads = [1,1,1,1]> (x, w, b)
    })";

// x [2,4,3,3] (72 el, 288 B), C = 4; s, b, m, v [4] (16 B each).
const char* batchNormModel = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,4,3,3] x) => (float[2,4,3,3] y)
    <float[4] s = {1.0}, float[4] b = {0.0}, float[4] m = {0.0}, float[4] v = {1.0}> {
        y = BatchNormalization (x, s, b, m, v)
    })";

} // namespace

class TrainingCosts : public QObject {
    Q_OBJECT
private slots:
    // Forward: 512 outputs x 27 = 13,824 MACs + 512 bias adds = 28,160 FLOPs; 448 + 1536 + 2048 = 4032 B.
    // Backward: dX and dW 2 x 13,824 MACs + 512 bias-gradient adds = 55,808 FLOPs; reads dY 2048 + saved x
    // 1536 + w, b 448, writes dX 1536 + dW, db 448 = 6016 B. SGD on 112 parameters: 2/param = 224 FLOPs,
    // reads w, g and writes w: 3 x 448 = 1344 B.
    void convSgd() {
        const Workload w = analyzeText(convModel, training(Optimizer::Sgd));
        const LayerCount& l = w.layers.at(0);
        comparePhase(l.forward, 13824, 28160, 0, 4032);
        comparePhase(l.backward, 27648, 55808, 0, 6016);
        comparePhase(l.update, 0, 224, 0, 1344);
        QCOMPARE(l.savedBytes, int64_t(1536));
        QCOMPARE(l.trainableParams, int64_t(112));
        QCOMPARE(l.macs, int64_t(41472));
        QCOMPARE(l.flops, int64_t(28160 + 55808 + 224));
        QCOMPARE(l.bytes(), int64_t(4032 + 6016 + 1344));
        QCOMPARE(w.totals.flops, int64_t(84192));
        QCOMPARE(w.totals.bytes(), int64_t(11392));
        QCOMPARE(w.totals.trainableParams, int64_t(112));
    }

    // Momentum: 4/param = 448 FLOPs; reads w, g, v, writes w, v: 5 x 448 = 2240 B.
    // Adam: 12 vector + 1 sqrt per param = 1456 FLOPs (112 SFU); reads w, g, m, v, writes w, m, v: 7 x 448.
    void convMomentumAndAdam() {
        comparePhase(analyzeText(convModel, training(Optimizer::Momentum)).totals.update, 0, 448, 0, 2240);
        comparePhase(analyzeText(convModel, training(Optimizer::Adam)).totals.update, 0, 1456, 112, 3136);
        QCOMPARE(AnalysisSettings{}.optimizer, Optimizer::Adam);
    }

    // a [4,8] (128 B), W [16,8] transB (512 B), C [16] (64 B), y [4,16] (64 el, 256 B).
    // Forward 64 x 8 = 512 MACs + 64 bias adds = 1088 FLOPs, 960 B. Backward 1024 MACs + 64 = 2112 FLOPs;
    // dY 256 + a 128 + W, C 576 + dA 128 + dW, dC 576 = 1664 B. Adam on 144: 1872 FLOPs, 144 SFU, 4032 B.
    void gemmAdam() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,8] a) => (float[4,16] y)
            <float[16,8] W = {1.0}, float[16] C = {0.0}> {
                y = Gemm <transB = 1> (a, W, C)
            })",
                                       training(Optimizer::Adam));
        const LayerCount& l = w.layers.at(0);
        comparePhase(l.forward, 512, 1088, 0, 960);
        comparePhase(l.backward, 1024, 2112, 0, 1664);
        comparePhase(l.update, 0, 1872, 144, 4032);
    }

    // x [2,4,8] (256 B), W [8,5] (160 B), y [2,4,5] (40 el, 160 B). Forward 320 MACs = 640 FLOPs, 576 B.
    // Backward 640 MACs = 1280 FLOPs; dY 160 + x 256 + W 160 + dX 256 + dW 160 = 992 B. Momentum on 40
    // parameters: 160 FLOPs, 5 x 160 = 800 B.
    void matMulMomentum() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,4,8] x) => (float[2,4,5] y)
            <float[8,5] W = {1.0}> {
                y = MatMul (x, W)
            })",
                                       training(Optimizer::Momentum));
        const LayerCount& l = w.layers.at(0);
        comparePhase(l.forward, 320, 640, 0, 576);
        comparePhase(l.backward, 640, 1280, 0, 992);
        comparePhase(l.update, 0, 160, 0, 800);
    }

    // t = Mul(x, s), y = Relu(t); x, t, y [2,3,4,4] = 96 el, 384 B; s [1] 4 B.
    // Mul backward: dx = g s 96 + ds = sum(g x) 96 + 95 = 287 ops; x 384 + s 4 read, dx 384 + ds 4
    // written, dY 384 read: 1160 B. Relu backward: g (y > 0) 96 ops; y 384 + dY 384 read, dx 384: 1152 B.
    void reluAndScale() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4,4] x) => (float[2,3,4,4] y)
            <float[1] s = {2.0}> {
                t = Mul (x, s)
                y = Relu (t)
            })",
                                       training(Optimizer::Sgd));
        comparePhase(w.layers.at(0).backward, 0, 287, 0, 1160);
        QCOMPARE(w.layers.at(0).savedBytes, int64_t(384));
        comparePhase(w.layers.at(0).update, 0, 2, 0, 12);
        comparePhase(w.layers.at(1).forward, 0, 96, 0, 768);
        comparePhase(w.layers.at(1).backward, 0, 96, 0, 1152);
        QCOMPARE(w.layers.at(1).savedBytes, int64_t(384));
        QCOMPARE(w.layers.at(1).trainableParams, int64_t(0));
    }

    // Training forward: 7/elem x 72 + 6 running-statistics ops x 4 channels + 4 rsqrt = 504 + 24 + 4 = 532
    // FLOPs (inference's 144 + 384 + 4); bytes 64 + 288 + 288 + state (save_mean, save_invstd 32 B, running
    // mean and variance written 32 B) = 704. Backward: 9/elem x 72 + 6 x 4 = 672; x 288 + s, b 32 + dY 288
    // + saved statistics 32 read, dx 288 + ds, db 32 written = 960 B. Adam on s and b only (8 parameters;
    // m and v are statistics): 104 FLOPs, 8 SFU, 7 x 32 = 224 B.
    void batchNormalizationAdam() {
        const Workload w = analyzeText(batchNormModel, training(Optimizer::Adam));
        const LayerCount& l = w.layers.at(0);
        comparePhase(l.forward, 0, 532, 4, 704);
        QCOMPARE(l.stateBytes, int64_t(64));
        comparePhase(l.backward, 0, 672, 0, 960);
        QCOMPARE(l.savedBytes, int64_t(288 + 32));
        comparePhase(l.update, 0, 104, 8, 224);
        QCOMPARE(w.totals.trainableParams, int64_t(8));
        QCOMPARE(w.totals.params, int64_t(16));
    }

    // t = Mul(x, s) [1,2,4,4] (32 el, 128 B), y = MaxPool 2x2 stride 2 -> [1,2,2,2] (8 el, 32 B).
    // Forward 8 x 3 compares; 128 + 32 B + the int64 argmax of every output, 64 B. Backward: 1 add per output
    // into dx at its argmax = 8 ops; dY 32 + indices 64 read, dx 128 written = 224 B.
    void maxPool() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,2,4,4] x) => (float[1,2,2,2] y)
            <float[1] s = {2.0}> {
                t = Mul (x, s)
                y = MaxPool <kernel_shape = [2,2], strides = [2,2]> (t)
            })",
                                       training(Optimizer::Sgd));
        const LayerCount& l = w.layers.at(1);
        comparePhase(l.forward, 0, 24, 0, 224);
        comparePhase(l.backward, 0, 8, 0, 224);
        QCOMPARE(l.stateBytes, int64_t(64));
        QCOMPARE(l.savedBytes, int64_t(64));
    }

    // Softmax over [2,10] (20 el, 80 B): forward 4 + 1 exp per elem = 100 FLOPs; backward y (g - sum(g y))
    // 4/elem = 80; y 80 + dY 80 read, dx 80 written = 240 B.
    void softmax() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,10] x) => (float[2,10] y)
            <float[1] s = {2.0}> {
                t = Mul (x, s)
                y = Softmax (t)
            })",
                                       training(Optimizer::Sgd));
        const LayerCount& l = w.layers.at(1);
        comparePhase(l.forward, 0, 100, 20, 160);
        comparePhase(l.backward, 0, 80, 0, 240);
    }

    // LayerNormalization over the last 8 of [2,3,8]: 48 el (192 B), 6 rows; s, b [8] (64 B).
    // Forward 7/elem + 1 rsqrt/row = 342; 64 + 192 + 192 + row mean and rstd 6 x 8 = 48 B -> 496.
    // Backward 13/elem + 2/row = 636; x 192 + s, b 64 + dY 192 + statistics 48 read, dx 192 + ds, db 64
    // written = 752 B. SGD on 16.
    void layerNormalization() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,8] x) => (float[2,3,8] y)
            <float[8] s = {1.0}, float[8] b = {0.0}> {
                y = LayerNormalization (x, s, b)
            })",
                                       training(Optimizer::Sgd));
        const LayerCount& l = w.layers.at(0);
        comparePhase(l.forward, 0, 342, 6, 496);
        comparePhase(l.backward, 0, 636, 0, 752);
        comparePhase(l.update, 0, 32, 0, 192);
    }

    // t = Mul(x, s) feeds Relu and Add: its producer sums 2 partial gradients (16 adds) and reads both.
    // x, t [1,4,2,2] 16 el, 64 B. Mul: 16 + 16 + 15 + 16 = 63 ops; x 64 + s 4 + 2 x dY 128 read, dx 64 +
    // ds 4 written = 264 B. Add passes g through to both operands: nothing. Relu: 16 ops, 192 B.
    void gradientsAccumulateAtAFork() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,4,2,2] x) => (float[1,4,2,2] y)
            <float[1] s = {2.0}> {
                t = Mul (x, s)
                r = Relu (t)
                y = Add (t, r)
            })",
                                       training(Optimizer::Sgd));
        comparePhase(w.layers.at(0).backward, 0, 63, 0, 264);
        comparePhase(w.layers.at(1).backward, 0, 16, 0, 192);
        comparePhase(w.layers.at(2).backward, 0, 0, 0, 0);
    }

    // The Pagoda study's training factor: a step is 3 x inference in FLOPs and bytes, nothing apart.
    void pagodaIsThreeTimesInference() {
        AnalysisSettings pagoda;
        pagoda.convention = Convention::Pagoda;
        const Workload inference = analyzeText(convModel, pagoda);
        pagoda.phase = Phase::Training;
        const Workload step = analyzeText(convModel, pagoda);
        QCOMPARE(step.totals.flops, 3 * inference.totals.flops);
        QCOMPARE(step.totals.bytes(), 3 * inference.totals.bytes());
        QCOMPARE(step.totals.backward.flops, 2 * step.totals.forward.flops);
        comparePhase(step.totals.update, 0, 0, 0, 0);
    }

    void inferenceHasNoTrainingCounts() {
        const Workload w = analyzeText(convModel);
        comparePhase(w.totals.backward, 0, 0, 0, 0);
        QCOMPARE(w.totals.bytes(), int64_t(4032));
        QCOMPARE(w.totals.flops, int64_t(28160));
    }

    void noTrainableParametersIsAnError() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,10] x) => (float[2,10] y) {
                y = Softmax (x)
            })";
        QCOMPARE(analyzeText(model).layers.size(), size_t(1));
        QVERIFY_EXCEPTION_THROWN(analyzeText(model, training(Optimizer::Sgd)), InputError);
    }

    void fusedTrafficIsRefused() {
        AnalysisSettings settings = training(Optimizer::Sgd);
        settings.traffic = TrafficView::Fused;
        QVERIFY_EXCEPTION_THROWN(analyzeText(convModel, settings), InputError);
    }

    // LSTM, S = 3, B = 2, I = 4, H = 4, one direction, with B: units = 3 x 2 x 4 = 24. Forward: 24 x 4 gates
    // x (4 + 4) = 768 MACs; 24 x (13 + 8 bias) = 504 vector and 24 x 5 = 120 SFU ops: 2160 FLOPs. Backward
    // (BPTT): 2 x 768 MACs, the gate derivatives as the forward's 504 + 120: 3696 FLOPs. Bytes: dY of Y (24
    // el), Y_h and Y_c (8 el each) 160 + saved X 96 and outputs 160 + W, R 256 each and B 128 read, dX 96 and
    // dW, dR, dB 640 written = 1792. Adam on 64 + 64 + 32 = 160 parameters: 13/param = 2080 FLOPs, 1 SFU
    // each, 7 x 640 B.
    void lstmAdam() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[3,2,4] x) => (float[3,1,2,4] y, float[1,2,4] yh, float[1,2,4] yc)
            <float[1,16,4] W = {0.1}, float[1,16,4] R = {0.1}, float[1,32] B = {0.0}> {
                y, yh, yc = LSTM <hidden_size = 4> (x, W, R, B)
            })",
                                       training(Optimizer::Adam));
        const LayerCount& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(768 + 1536));
        comparePhase(l.backward, 1536, 3696, 120, 1792);
        QCOMPARE(l.savedBytes, int64_t(96 + 160));
        QCOMPARE(l.trainableParams, int64_t(160));
        comparePhase(l.update, 0, 160 * 13, 160, 7 * 640);
        QCOMPARE(l.forward.macs, int64_t(768));
        QCOMPARE(l.forward.flops, int64_t(2160));
    }

    // One attention head of a transformer block, T = 4 tokens, D = 8: Q = x Wq, K = x Wk, V = x Wv (3 x 4 x 8
    // x 8 = 768 MACs), S = Q K^T (4 x 4 x 8 = 128), P = Softmax(S) (16 scores), O = P V (128), y = O + x.
    // Backward MACs: 2 x the forward's 1024 = 2048; the softmax backward 4/score = 64 ops, the residual Add's
    // operands are dY itself (free), K^T's gradient a transpose (0 ops); SGD on 3 x 64 weights.
    void attentionHeadSgd() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,8] x) => (float[4,8] y)
            <float[8,8] Wq = {0.1}, float[8,8] Wk = {0.1}, float[8,8] Wv = {0.1}> {
                q = MatMul (x, Wq)
                k = MatMul (x, Wk)
                v = MatMul (x, Wv)
                kt = Transpose <perm = [1, 0]> (k)
                s = MatMul (q, kt)
                p = Softmax <axis = 1> (s)
                o = MatMul (p, v)
                y = Add (o, x)
            })",
                                       training(Optimizer::Sgd));
        const WorkloadTotals& t = w.totals;
        QCOMPARE(t.forward.macs, int64_t(1024));
        QCOMPARE(t.backward.macs, int64_t(2048));
        QCOMPARE(w.layers.size(), size_t(8)); // q k v kt s p o y, in order
        QCOMPARE(w.layers.at(5).backward.flops, int64_t(64));
        QCOMPARE(w.layers.at(3).backward.flops, int64_t(0));
        QCOMPARE(w.layers.at(7).backward.flops, int64_t(0));
        QCOMPARE(w.layers.at(4).backward.macs, int64_t(256));
        QCOMPARE(t.trainableParams, int64_t(192));
        QCOMPARE(t.update.flops, int64_t(2 * 192));
    }

    void resnet50SgdStepAtBatch32();
};

// ResNet-50 (BatchNorm folded into the convolutions, so every Conv has a bias) at batch 32 with SGD, against
// the architecture counted by hand (per image; stages of (mid, out, side, blocks) (64, 256, 56, 3),
// (128, 512, 28, 4), (256, 1024, 14, 6), (512, 2048, 7, 3); stride on the 3x3):
//   forward MACs 4,089,184,256 (the torchvision count, test_sample_networks); backward 2x that;
//   conv outputs (one bias-gradient add each) 11,113,984: stem 802,816 + 4,415,488 + 3,110,912 +
//     2,157,568 + 627,200;
//   Relu elements = conv outputs - downsample outputs (802,816 + 401,408 + 200,704 + 100,352) = 9,608,704;
//   MaxPool outputs 64 x 56 x 56 = 200,704; GlobalAveragePool inputs 2048 x 49 = 100,352; Gemm bias 1000;
//   every block input feeds two nodes (conv1 and the downsample or the Add): 200,704 + 3 x 802,816 +
//     4 x 401,408 + 6 x 200,704 + 2 x 100,352 = 5,619,712 gradient-accumulation adds;
//   the Adds pass the gradient through.
// Parameters: torchvision's 25,557,032 - 53,120 BatchNorm scales and shifts + 26,560 folded biases.
void TrainingCosts::resnet50SgdStepAtBatch32() {
    AnalysisSettings settings = training(Optimizer::Sgd);
    settings.dims.batch = 32;
    const Workload step = analyzeSample("resnet50", settings);
    AnalysisSettings inferenceSettings;
    inferenceSettings.dims.batch = 32;
    const Workload inference = analyzeSample("resnet50", inferenceSettings);
    const int64_t n = 32;
    const int64_t forwardMacs = n * 4089184256;
    const int64_t otherBackward = n * (11113984 + 9608704 + 200704 + 100352 + 1000 + 5619712);
    const int64_t params = 25530472;
    const int64_t maxPoolIndices = n * 200704 * 8;

    const WorkloadTotals& t = step.totals;
    QCOMPARE(t.forward.macs, forwardMacs);
    QCOMPARE(t.forward.flops, inference.totals.flops);
    QCOMPARE(t.forward.bytes, inference.totals.bytes() + maxPoolIndices);
    QCOMPARE(t.backward.macs, 2 * forwardMacs);
    QCOMPARE(t.backward.flops, 2 * 2 * forwardMacs + otherBackward); // 524,268,207,360
    QCOMPARE(t.trainableParams, params);
    QCOMPARE(t.params, params);
    comparePhase(t.update, 0, 2 * params, 0, 3 * 4 * params);
    QCOMPARE(t.flops, t.forward.flops + t.backward.flops + t.update.flops);
    QCOMPARE(t.bytes(), t.forward.bytes + t.backward.bytes + t.update.bytes);

    // Backward bytes, rule by rule from the inference's per-layer traffic (fp32): a Conv or Gemm reads dY,
    // x and its weights and writes dx and dW (out + 2 in + 2 weights); Relu reads y and dY, writes dx
    // (3 out); MaxPool reads dY and the indices, writes dx; GlobalAveragePool and Flatten read dY, write dx;
    // Add nothing. A block input's producer reads two gradients, one more output's worth.
    int64_t backwardBytes = 0;
    for (const LayerCount& l : inference.layers) {
        if (l.op == "Conv" || l.op == "Gemm")
            backwardBytes += l.outputBytes + 2 * l.inputBytes + 2 * l.weightBytes;
        else if (l.op == "Relu")
            backwardBytes += 3 * l.outputBytes;
        else if (l.op == "MaxPool")
            backwardBytes += l.outputBytes + l.outputBytes * 2 + l.inputBytes;
        else if (l.op == "GlobalAveragePool" || l.op == "Flatten")
            backwardBytes += l.outputBytes + l.inputBytes;
        else
            QCOMPARE(l.op, std::string("Add"));
    }
    backwardBytes += n * 5619712 * 4;
    QCOMPARE(t.backward.bytes, backwardBytes);
    qInfo("ResNet-50 batch 32 SGD step: forward %.3f GFLOP %.3f GB, backward %.3f GFLOP %.3f GB, update %.3f "
          "GFLOP %.3f GB",
          t.forward.flops / 1e9, t.forward.bytes / 1e9, t.backward.flops / 1e9, t.backward.bytes / 1e9,
          t.update.flops / 1e9, t.update.bytes / 1e9);
}

ROOFTOP_TEST_CLASS(TrainingCosts)
#include "test_training_costs.moc"
