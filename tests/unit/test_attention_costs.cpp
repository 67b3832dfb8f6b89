// SPDX-License-Identifier: GPL-3.0-or-later
// Attention and rotary embedding costs (core/cost/attention_rules.cpp), hand-computed.
// scores = B x Hq x Sq x Skv; MACs = scores x (Dqk + Dv); vector = scores x (4 softmax + 1 scale + extras);
// SFU = scores x (1 exp + softcap tanh). Output shapes are declared because ONNX 1.12 cannot infer them.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

class AttentionCosts : public QObject {
    Q_OBJECT
private slots:
    // counting.md section 6 oracle: SDPA B1 H12 S64 D64 (QK + AV) = 6,291,456 MACs.
    void sdpaOracleThroughAttention23() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[1,12,64,64] q, float[1,12,64,64] k, float[1,12,64,64] v) => (float[1,12,64,64] y) {
                y = Attention (q, k, v)
            })");
        const auto& l = w.layers.at(0);
        QVERIFY(l.supported);
        QCOMPARE(l.kind, OpKind::Matrix);
        QCOMPARE(l.macs, int64_t(6291456));
        // scores 49,152: 5 vector (4 softmax + scale) and 1 exp each.
        QCOMPARE(l.sfuOps, int64_t(49152));
        QCOMPARE(l.flops, int64_t(12582912 + 49152 * 5 + 49152));
        QCOMPARE(w.totals.torchvisionMacs, int64_t(6291456));
    }

    // 3-D inputs, GQA (8 query heads over 4 KV heads) and a mask: B2 Hq8 Sq16 Skv32 D64.
    void threeDimensionalGroupedWithMask() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[2,16,512] q, float[2,32,256] k, float[2,32,256] v, float[16,32] m)
              => (float[2,16,512] y) {
                y = Attention <q_num_heads = 8, kv_num_heads = 4> (q, k, v, m)
            })");
        const auto& l = w.layers.at(0);
        const int64_t scores = 2 * 8 * 16 * 32; // 8,192
        QCOMPARE(l.macs, scores * (64 + 64));   // 1,048,576
        QCOMPARE(l.sfuOps, scores);
        QCOMPARE(l.flops, int64_t(2097152 + 8192 * 6 + 8192)); // 2,154,496
    }

    // Decoding one token against 127 past positions, causal, Dv != Dqk: Skv = 128.
    void pastKeyValueLengthensKeys() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[1,8,1,64] q, float[1,2,1,64] k, float[1,2,1,32] v,
               float[1,2,127,64] pk, float[1,2,127,32] pv)
              => (float[1,8,1,32] y, float[1,2,128,64] present_k, float[1,2,128,32] present_v) {
                y, present_k, present_v = Attention <is_causal = 1> (q, k, v, , pk, pv)
            })");
        const auto& l = w.layers.at(0);
        const int64_t scores = 8 * 1 * 128;   // 1,024
        QCOMPARE(l.macs, scores * (64 + 32)); // 98,304
        QCOMPARE(l.sfuOps, scores);
        QCOMPARE(l.flops, int64_t(196608 + 1024 * 6 + 1024));
    }

    void softcapAddsTanhPerScore() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[1,2,4,8] q, float[1,2,4,8] k, float[1,2,4,8] v) => (float[1,2,4,8] y) {
                y = Attention <softcap = 30.0> (q, k, v)
            })");
        const auto& l = w.layers.at(0);
        const int64_t scores = 2 * 4 * 4; // 32
        QCOMPARE(l.macs, scores * 16);
        QCOMPARE(l.sfuOps, scores * 2);                               // exp + tanh
        QCOMPARE(l.flops, 2 * scores * 16 + scores * 7 + scores * 2); // 4 + scale + 2 softcap
    }

    void threeDimensionalWithoutHeadCountIsUnsupported() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[1,4,64] q, float[1,4,64] k, float[1,4,64] v) => (float[1,4,64] y) {
                y = Attention (q, k, v)
            })");
        QVERIFY(!w.layers.at(0).supported);
        QCOMPARE(w.layers.at(0).flops, int64_t(0));
    }

    // com.microsoft Attention includes the QKV projection: (2 x 8 x 32) x (32 x 96), bias, unidirectional.
    void contribAttentionWithProjection() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[2,8,32] x) => (float[2,8,32] y)
            <float[32,96] wqkv = {0.0}, float[96] bqkv = {0.0}> {
                y = com.microsoft.Attention <num_heads = 4, unidirectional = 1> (x, wqkv, bqkv)
            })");
        const auto& l = w.layers.at(0);
        QVERIFY(l.supported);
        QCOMPARE(l.kind, OpKind::Matrix);
        const int64_t projection = 2 * 8 * 32 * 96; // 49,152
        const int64_t scores = 2 * 4 * 8 * 8;       // 512, head size 8
        QCOMPARE(l.macs, projection + scores * 16); // 57,344
        QCOMPARE(l.sfuOps, scores);
        // 6 per score (softmax 4, scale, causal mask) + 1 bias add per projected value (16 x 96).
        QCOMPARE(l.flops, int64_t(2 * 57344 + 512 * 6 + 1536 + 512)); // 119,808
    }

    // qkv_hidden_sizes [32, 32, 16]: Dqk 8, Dv 4; no bias.
    void contribAttentionUnevenHiddenSizes() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,4,32] x) => (float[1,4,16] y)
            <float[32,80] wqkv = {0.0}> {
                y = com.microsoft.Attention <num_heads = 4, qkv_hidden_sizes = [32, 32, 16]> (x, wqkv)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(4 * 32 * 80 + 64 * 12)); // 11,008
        QCOMPARE(l.sfuOps, int64_t(64));
        QCOMPARE(l.flops, int64_t(2 * 11008 + 64 * 5 + 64));
    }

    // MultiHeadAttention (no projections): B1 N4 S16 L32 H16, with the Q/K/V bias.
    void multiHeadAttentionWithBias() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,16,64] q, float[1,32,64] k, float[1,32,64] v) => (float[1,16,64] y)
            <float[192] b = {0.0}> {
                y = com.microsoft.MultiHeadAttention <num_heads = 4> (q, k, v, b)
            })");
        const auto& l = w.layers.at(0);
        const int64_t scores = 4 * 16 * 32; // 2,048
        QCOMPARE(l.macs, scores * 32);      // 65,536
        QCOMPARE(l.sfuOps, scores);
        // Bias: 1,024 query + 2,048 key + 2,048 value elements.
        QCOMPARE(l.flops, int64_t(2 * 65536 + 2048 * 5 + 5120 + 2048));
    }

    // Packed QKV (B, S, N, 3, H) = (2, 10, 4, 3, 8).
    void multiHeadAttentionPackedQkv() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[2,10,4,3,8] qkv) => (float[2,10,32] y) {
                y = com.microsoft.MultiHeadAttention <num_heads = 4> (qkv)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(800 * 16)); // scores 2 x 4 x 10 x 10
        QCOMPARE(l.sfuOps, int64_t(800));
        QCOMPARE(l.flops, int64_t(2 * 12800 + 800 * 5 + 800));
    }

    // GQA: 8 query heads, 2 KV heads, H32, S4, past 12 -> Skv 16; always causal; softcap.
    void groupQueryAttentionWithPastAndSoftcap() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,4,256] q, float[1,4,64] k, float[1,4,64] v, float[1,2,12,32] pk, float[1,2,12,32] pv,
               int32[1] seqlens, int32 total)
              => (float[1,4,256] y, float[1,2,16,32] present_k, float[1,2,16,32] present_v) {
                y, present_k, present_v = com.microsoft.GroupQueryAttention
                    <num_heads = 8, kv_num_heads = 2, softcap = 30.0> (q, k, v, pk, pv, seqlens, total)
            })");
        const auto& l = w.layers.at(0);
        QVERIFY(l.supported);
        const int64_t scores = 8 * 4 * 16; // 512
        QCOMPARE(l.macs, scores * 64);     // 32,768
        QCOMPARE(l.sfuOps, scores * 2);
        // 4 softmax + scale + causal + 2 softcap = 8 vector per score.
        QCOMPARE(l.flops, int64_t(2 * 32768 + 512 * 8 + 1024));
    }

    // A constant total_sequence_length (20) wins over past + new (16); rotary adds 3 ops per Q/K element.
    void groupQueryAttentionConstantTotalAndRotary() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,4,256] q, float[1,4,64] k, float[1,4,64] v, float[1,2,12,32] pk, float[1,2,12,32] pv,
               int32[1] seqlens) => (float[1,4,256] y, float[1,2,20,32] present_k, float[1,2,20,32] present_v)
            <int32 total = {20}, float[64,16] cosc = {0.0}, float[64,16] sinc = {0.0}> {
                y, present_k, present_v = com.microsoft.GroupQueryAttention
                    <num_heads = 8, kv_num_heads = 2, do_rotary = 1>
                    (q, k, v, pk, pv, seqlens, total, cosc, sinc)
            })");
        const auto& l = w.layers.at(0);
        const int64_t scores = 8 * 4 * 20; // 640
        QCOMPARE(l.macs, scores * 64);     // 40,960
        QCOMPARE(l.sfuOps, scores);
        const int64_t rotary = 4 * (8 + 2) * 32 * 3; // 3,840
        QCOMPARE(l.flops, int64_t(2 * 40960 + 640 * 6 + rotary + 640));
    }

    // Packed QKV for GQA: (8 + 2 x 2) x 32 = 384 hidden.
    void groupQueryAttentionPacked() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,4,384] qkv, int32[1] seqlens, int32 total) => (float[1,4,256] y) {
                y = com.microsoft.GroupQueryAttention <num_heads = 8, kv_num_heads = 2>
                    (qkv, , , , , seqlens, total)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.macs, int64_t(8 * 4 * 4 * 64)); // scores 128
        QCOMPARE(l.flops, int64_t(2 * 8192 + 128 * 6 + 128));
    }

    // ai.onnx RotaryEmbedding, 4-D (1, 8, 16, 64), rotary dim 2 x 16 = 32 of 64: half of the elements rotate.
    void rotaryEmbeddingPartial() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[1,8,16,64] x, int64[1,16] pos) => (float[1,8,16,64] y)
            <float[16,16] cosc = {0.0}, float[16,16] sinc = {0.0}> {
                y = RotaryEmbedding (x, cosc, sinc, pos)
            })");
        const auto& l = w.layers.at(0);
        QVERIFY(l.supported);
        QCOMPARE(l.kind, OpKind::Vector);
        QCOMPARE(l.macs, int64_t(0));
        QCOMPARE(l.flops, int64_t(4096 * 3));
    }

    // 3-D (2, 16, 256) with 4 heads of 64, cos cache covers the whole head.
    void rotaryEmbeddingThreeDimensional() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 23]>
            g (float[2,16,256] x, int64[2,16] pos) => (float[2,16,256] y)
            <float[16,32] cosc = {0.0}, float[16,32] sinc = {0.0}> {
                y = RotaryEmbedding <num_heads = 4> (x, cosc, sinc, pos)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(8192 * 3));
        QCOMPARE(w.layers.at(0).sfuOps, int64_t(0));
    }

    // com.microsoft RotaryEmbedding (input, position_ids, cos, sin): rotary dim 32 of head 64.
    void contribRotaryEmbedding() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
            g (float[1,16,256] x, int64[1,16] pos) => (float[1,16,256] y)
            <float[32,16] cosc = {0.0}, float[32,16] sinc = {0.0}> {
                y = com.microsoft.RotaryEmbedding <num_heads = 4> (x, pos, cosc, sinc)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(2048 * 3));
    }
};

ROOFTOP_TEST_CLASS(AttentionCosts)
#include "test_attention_costs.moc"
