// SPDX-License-Identifier: GPL-3.0-or-later
// Our own shape rules for transformer operators (ai.onnx Attention, com.microsoft attention and fused
// layers) and quantized operators. ONNX 1.12 knows none of these, so whole models check them too.
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/shape_rules.h"
#include "support/shape_test_support.h"
#include "support/test_registry.h"

#include <QtTest>

using namespace rooftop;

using rooftop::test::dimsText;
using rooftop::test::graphOf;
using rooftop::test::ruleShape;
using rooftop::test::shapeOf;

class ShapeRulesContrib : public QObject {
    Q_OBJECT
private slots:
    void onnxAttentionThreeDimensional() {
        const Graph g = graphOf(R"(
            <ir_version: 10, opset_import: ["" : 23]>
            g (float[2,10,768] q, float[2,20,768] k, float[2,20,384] v) => (y, pk, pv, qk) {
                y, pk, pv, qk = Attention <q_num_heads = 12, kv_num_heads = 12> (q, k, v)
            })");
        QCOMPARE(shapeOf(g, "y"), QString("2x10x384"));
        QCOMPARE(shapeOf(g, "pk"), QString("2x12x20x64"));
        QCOMPARE(shapeOf(g, "pv"), QString("2x12x20x32"));
        QCOMPARE(shapeOf(g, "qk"), QString("2x12x10x20"));
    }

    void onnxAttentionGroupedWithPast() {
        const Graph g = graphOf(R"(
            <ir_version: 10, opset_import: ["" : 23]>
            g (float[1,5,512] q, float[1,5,128] k, float[1,5,128] v, float[1,2,7,64] pk, float[1,2,7,64] pv)
              => (y, nk, nv) {
                y, nk, nv = Attention <q_num_heads = 8, kv_num_heads = 2> (q, k, v, , pk, pv)
            })");
        QCOMPARE(shapeOf(g, "y"), QString("1x5x512"));
        QCOMPARE(shapeOf(g, "nk"), QString("1x2x12x64"));
        QCOMPARE(shapeOf(g, "nv"), QString("1x2x12x64"));
    }

    void onnxAttentionFourDimensional() {
        const Graph g = graphOf(R"(
            <ir_version: 10, opset_import: ["" : 23]>
            g (float[2,8,10,64] q, float[2,8,20,64] k, float[2,8,20,32] v) => (y) {
                y = Attention (q, k, v)
            })");
        QCOMPARE(shapeOf(g, "y"), QString("2x8x10x32"));
    }

    void microsoftAttention() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[2,16,768] x, float[768,2304] w, float[2304] b, float[768,2048] w2, float[2048] b2,
               float[2,2,12,5,64] past) => (y, y2, present) {
                y = com.microsoft.Attention <num_heads = 12> (x, w, b)
                y2, present = com.microsoft.Attention <num_heads = 12, qkv_hidden_sizes = [768, 768, 512]>
                    (x, w2, b2, , past)
            })");
        QCOMPARE(shapeOf(g, "y"), QString("2x16x768"));
        QCOMPARE(shapeOf(g, "y2"), QString("2x16x512"));
        QCOMPARE(shapeOf(g, "present"), QString("2x2x12x21x64"));
    }

    void multiHeadAttention() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[2,16,768] q, float[2,32,768] k, float[2,32,512] v, float[2,8,32,96] k4,
               float[2,8,32,64] v4, float[2,16,8,3,64] packed) => (a, pk, pv, b, c) {
                a, pk, pv = com.microsoft.MultiHeadAttention <num_heads = 8> (q, k, v)
                b = com.microsoft.MultiHeadAttention <num_heads = 8> (q, k4, v4)
                c = com.microsoft.MultiHeadAttention <num_heads = 8> (packed)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("2x16x512"));
        QCOMPARE(shapeOf(g, "pk"), QString("2x8x32x96"));
        QCOMPARE(shapeOf(g, "pv"), QString("2x8x32x64"));
        QCOMPARE(shapeOf(g, "b"), QString("2x16x512"));
        QCOMPARE(shapeOf(g, "c"), QString("2x16x512"));
    }

    void groupQueryAttention() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,7,2048] q, float[1,7,512] k, float[1,7,512] v, float[1,4,100,128] pk,
               float[1,4,100,128] pv, int32[1] seqlens, float[1,7,3072] packed) => (y, nk, nv, z, zk)
            <int32 total = {107}> {
                y, nk, nv = com.microsoft.GroupQueryAttention <num_heads = 16, kv_num_heads = 4>
                    (q, k, v, pk, pv, seqlens, total)
                z, zk = com.microsoft.GroupQueryAttention <num_heads = 16, kv_num_heads = 4> (packed)
            })");
        QCOMPARE(shapeOf(g, "y"), QString("1x7x2048"));
        QCOMPARE(shapeOf(g, "nk"), QString("1x4x107x128"));
        QCOMPARE(shapeOf(g, "nv"), QString("1x4x107x128"));
        QCOMPARE(shapeOf(g, "z"), QString("1x7x2048"));
        QCOMPARE(shapeOf(g, "zk"), QString("1x4x7x128"));
    }

    void fusedNormalizationLayers() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (int32[2,16] ids, int32[2,16] seg, float[30522,768] word, float[512,768] pos, float[2,768] types,
               float[768] gamma, float[768] beta, float[2,16,768] skip)
              => (e, mask, s, mean, inv, sum, ss) {
                e, mask = com.microsoft.EmbedLayerNormalization (ids, seg, word, pos, types, gamma, beta)
                s, mean, inv, sum = com.microsoft.SkipLayerNormalization (e, skip, gamma, beta)
                ss = com.microsoft.SkipSimplifiedLayerNormalization (s, skip, gamma)
            })");
        QCOMPARE(shapeOf(g, "e"), QString("2x16x768"));
        QCOMPARE(shapeOf(g, "mask"), QString("2"));
        QCOMPARE(shapeOf(g, "s"), QString("2x16x768"));
        QCOMPARE(shapeOf(g, "mean"), QString("2x16x1"));
        QCOMPARE(shapeOf(g, "inv"), QString("2x16x1"));
        QCOMPARE(shapeOf(g, "sum"), QString("2x16x768"));
        QCOMPARE(shapeOf(g, "ss"), QString("2x16x768"));
    }

    void activationsKeepShape() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[2,16,3072] x, float[3072] b, float[2,16,64] r, int64[2,16] p, float[512,32] c)
              => (a, bg, fg, q, rot) {
                a = com.microsoft.Gelu (x)
                bg = com.microsoft.BiasGelu (x, b)
                fg = com.microsoft.FastGelu (x, b)
                q = com.microsoft.QuickGelu <alpha = 1.702> (x)
                rot = com.microsoft.RotaryEmbedding (r, p, c, c)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("2x16x3072"));
        QCOMPARE(shapeOf(g, "bg"), QString("2x16x3072"));
        QCOMPARE(shapeOf(g, "fg"), QString("2x16x3072"));
        QCOMPARE(shapeOf(g, "q"), QString("2x16x3072"));
        QCOMPARE(shapeOf(g, "rot"), QString("2x16x64"));
    }

    void contribConvolutions() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,3,32,32] x, float[16,3,3,3] w, float[16] b, float[1,32,32,3] xh, uint8[1,3,32,32] xq,
               float xs, uint8 xz, uint8[8,3,3,3] wq, float ws, uint8 wz, float ys, uint8 yz) => (f, n, q) {
                f = com.microsoft.FusedConv <activation = "Relu", pads = [1, 1, 1, 1]> (x, w, b)
                n = com.microsoft.NhwcConv <strides = [2, 2]> (xh, w)
                q = QLinearConv (xq, xs, xz, wq, ws, wz, ys, yz)
            })");
        QCOMPARE(shapeOf(g, "f"), QString("1x16x32x32"));
        QCOMPARE(shapeOf(g, "n"), QString("1x15x15x16"));
        QCOMPARE(shapeOf(g, "q"), QString("1x8x30x30"));
        QCOMPARE(ruleShape(g, "q"), QString("1x8x30x30"));
    }

    void contribMatrixProducts() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (uint8[2,16,64] a, float as, uint8 az, uint8[64,32] b, float bs, uint8 bz, float ys, uint8 yz,
               float[1,7,4096] h, uint8[11008,128,16] packed, float[11008,128] scales, float[2,3,4] fa,
               float[2,5,4] fb, uint8[2,3,4] ia, int8[4,5] ib) => (q, nb, fm, mf) {
                q = com.microsoft.QLinearMatMul (a, as, az, b, bs, bz, ys, yz)
                nb = com.microsoft.MatMulNBits <K = 4096, N = 11008, bits = 4, block_size = 32> (h, packed, scales)
                fm = com.microsoft.FusedMatMul <transB = 1, alpha = 0.125> (fa, fb)
                mf = com.microsoft.MatMulIntegerToFloat (ia, ib, as, bs)
            })");
        DataType type = DataType::Undefined;
        QCOMPARE(ruleShape(g, "q", &type), QString("2x16x32"));
        QCOMPARE(type, DataType::UInt8);
        QCOMPARE(shapeOf(g, "nb"), QString("1x7x11008"));
        QCOMPARE(shapeOf(g, "fm"), QString("2x3x5"));
        QCOMPARE(ruleShape(g, "mf", &type), QString("2x3x5"));
        QCOMPARE(type, DataType::Float32);
    }

    void quantizedElementwiseAndPooling() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (uint8[1,64,1,1] a, float s, uint8 z, uint8[1,64,8,8] b, float[2,3] x, int8 z8,
               uint8[1,7,7,64] nhwc) => (add, mul, sig, qi, qu, dq, gp, gpl) {
                add = com.microsoft.QLinearAdd (a, s, z, b, s, z, s, z)
                mul = com.microsoft.QLinearMul (a, s, z, b, s, z, s, z)
                sig = com.microsoft.QLinearSigmoid (b, s, z, s, z)
                qi = QuantizeLinear (x, s, z8)
                qu = QuantizeLinear (x, s)
                dq = DequantizeLinear (qi, s, z8)
                gp = com.microsoft.QLinearGlobalAveragePool <channels_last = 0> (b, s, z, s, z)
                gpl = com.microsoft.QLinearGlobalAveragePool <channels_last = 1> (nhwc, s, z, s, z)
            })");
        DataType type = DataType::Undefined;
        QCOMPARE(shapeOf(g, "add"), QString("1x64x8x8"));
        QCOMPARE(shapeOf(g, "mul"), QString("1x64x8x8"));
        QCOMPARE(shapeOf(g, "sig"), QString("1x64x8x8"));
        QCOMPARE(ruleShape(g, "qi", &type), QString("2x3"));
        QCOMPARE(type, DataType::Int8);
        QCOMPARE(ruleShape(g, "qu", &type), QString("2x3"));
        QCOMPARE(type, DataType::UInt8);
        QCOMPARE(ruleShape(g, "dq", &type), QString("2x3"));
        QCOMPARE(type, DataType::Float32);
        QCOMPARE(shapeOf(g, "gp"), QString("1x64x1x1"));
        QCOMPARE(shapeOf(g, "gpl"), QString("1x1x1x64"));
    }

    // Standard ops after contrib ops resolve in the same round as the contrib ops themselves.
    void shapesFlowThroughAContribEncoderLayer() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[4,128,768] x, float[768,2304] wqkv, float[2304] bqkv, float[768,768] wo, float[768] bo,
               float[768] gamma, float[768] beta, float[768,3072] w1, float[3072] b1, float[3072,768] w2)
              => (out) <int64[3] heads = {0, 0, -1}> {
                att = com.microsoft.Attention <num_heads = 12> (x, wqkv, bqkv)
                proj = MatMul (att, wo)
                ln1 = com.microsoft.SkipLayerNormalization (proj, x, gamma, beta, bo)
                up = MatMul (ln1, w1)
                act = com.microsoft.BiasGelu (up, b1)
                down = MatMul (act, w2)
                flat = Reshape (down, heads)
                out = com.microsoft.SkipLayerNormalization (flat, ln1, gamma, beta, bo)
            })");
        for (const char* name : {"att", "proj", "ln1", "up", "act", "down", "flat", "out"})
            QVERIFY2(shapeOf(g, name) != "?", name);
        QCOMPARE(shapeOf(g, "act"), QString("4x128x3072"));
        QCOMPARE(shapeOf(g, "out"), QString("4x128x768"));
    }
};

ROOFTOP_TEST_CLASS(ShapeRulesContrib)
#include "test_shape_rules_contrib.moc"
