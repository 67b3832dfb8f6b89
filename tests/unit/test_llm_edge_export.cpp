// SPDX-License-Identifier: GPL-3.0-or-later
// TensorRT Edge-LLM's ONNX export (built here with the ONNX protobuf API, weights external and absent):
// inputs_embeds, one KV tensor per layer [batch, 2, kv heads, capacity, head] that trt_edgellm's
// AttentionPlugin updates in place, the head on the last token only (GatherND on last_token_ids); weights
// fp16, int4 AWQ (Int4GroupwiseGemmPlugin) or NVFP4 (FLOAT4E2M1 values, FP8 scales, two DequantizeLinear);
// an fp16 or FP8 cache. Counted exactly against the hand formulas.
#include "core/cost/traffic.h"
#include "core/llm/llm_pass.h"
#include "support/llm_formulas.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using namespace rooftop::test;

namespace {

// Every K a multiple of the int4 plugin's group of 128.
LlmShape edgeShape() {
    return {2, 256, 4, 2, 64, 512, 100, 256};
}

// Bytes of one linear layer's weights (K in, N out).
int64_t linearBytes(int64_t k, int64_t n, EdgeWeights weights) {
    switch (weights) {
    case EdgeWeights::Fp16:
        return 2 * k * n;
    case EdgeWeights::Int4Awq: // int8-packed nibbles, fp16 scales per 128 of K
        return n * k / 2 + 2 * (k / 128) * n;
    case EdgeWeights::Nvfp4: // E2M1 pairs, an E4M3 scale per 16, one fp16 global scale
        return n * k / 2 + n * k / 16 + 2;
    }
    return 0;
}

// No embedding (the export takes inputs_embeds): the layers, three norm weights a layer pair, the head, eps.
int64_t edgeWeightBytes(const LlmShape& s, EdgeWeights weights) {
    const int64_t q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    const int64_t perLayer = linearBytes(s.hidden, q + 2 * kv, weights) + linearBytes(q, s.hidden, weights) +
                             2 * linearBytes(s.hidden, s.intermediate, weights) +
                             linearBytes(s.intermediate, s.hidden, weights) + 2 * 2 * s.hidden;
    return s.layers * perLayer + 2 * s.hidden + 2 * s.hidden * s.vocab + 2;
}

AnalysisSettings settingsOf(TrafficView view) {
    AnalysisSettings settings;
    settings.traffic = view;
    return settings;
}

void addRows() {
    QTest::addColumn<int>("weights");
    QTest::addColumn<bool>("fp8Cache");
    QTest::newRow("fp16") << int(EdgeWeights::Fp16) << false;
    QTest::newRow("int4-awq") << int(EdgeWeights::Int4Awq) << false;
    QTest::newRow("nvfp4") << int(EdgeWeights::Nvfp4) << false;
    QTest::newRow("nvfp4, fp8 cache") << int(EdgeWeights::Nvfp4) << true;
}

} // namespace

class LlmEdgeExport : public QObject {
    Q_OBJECT

private slots:
    void theExportIsRecognised() {
        const LlmShape shape = edgeShape();
        for (const bool fp8 : {false, true}) {
            const DecoderFile model(shape, LlmExport::EdgeLlm, {}, {EdgeWeights::Int4Awq, fp8});
            const LlmCounter counter(model.path(), settingsOf(TrafficView::Fused));
            const LlmSignature& s = counter.signature();
            QCOMPARE(QString(llmExportStyleName(s.style)), QString("tensorrt-edge-llm"));
            QVERIFY(s.combinedKv);
            QCOMPARE(int(s.caches.size()), shape.layers);
            QCOMPARE(s.caches[1].pastKey, std::string("past_key_values_1"));
            QCOMPARE(s.caches[1].pastValue, std::string("past_key_values_1"));
            QCOMPARE(s.caches[1].presentValue, std::string("present_key_values_1"));
            QCOMPARE(s.tokenInput, std::string("inputs_embeds"));
            QCOMPARE(s.kvHeads, shape.kvHeads);
            QCOMPARE(s.headDim, shape.headDim);
            QCOMPARE(s.roles.batch, std::string("batch_size"));
            QCOMPARE(s.roles.sequence, std::string("seq_len"));
            QCOMPARE(s.roles.past, std::string("kv_cache_capacity"));
            QVERIFY(s.roles.total.empty());
            QVERIFY(s.maxPositions.has_value());
            QCOMPARE(*s.maxPositions, shape.maxPositions);
            QCOMPARE(s.positionsSource, std::string("rope_rotary_cos_sin"));
            QCOMPARE(int(s.kvType), int(fp8 ? DataType::Float8E4M3FN : DataType::Float16));
            QCOMPARE(counter.kvBytesPerToken(), kvBytes(shape, 1, fp8 ? 1 : 2));
        }
    }

    void aDecodeStepAndThePrefillMatchTheHandFormulas_data() { addRows(); }
    void aDecodeStepAndThePrefillMatchTheHandFormulas() {
        QFETCH(int, weights);
        QFETCH(bool, fp8Cache);
        const LlmShape shape = edgeShape();
        const int64_t kvElement = fp8Cache ? 1 : 2;
        const DecoderFile model(shape, LlmExport::EdgeLlm, {}, {EdgeWeights(weights), fp8Cache});
        const LlmCounter counter(model.path(), settingsOf(TrafficView::Fused));
        for (const int64_t batch : {int64_t(1), int64_t(3)}) {
            const int64_t context = 40;
            const LlmPassCount step = counter.count({batch, 1, context - 1});
            QVERIFY2(step.workload.totals.unsupported.empty() && step.workload.totals.shapeUnknown.empty(),
                     step.workload.totals.shapeLossReason.c_str());
            QCOMPARE(step.workload.totals.macs,
                     batch * linearMacsPerToken(shape) + attentionMacs(shape, batch, 1, context));
            QCOMPARE(step.kv.read, batch * kvBytes(shape, context - 1, kvElement));
            QCOMPARE(step.kv.write, batch * kvBytes(shape, 1, kvElement));
        }
        // The head runs on each sequence's last token only.
        const LlmPassCount prefill = counter.count({2, 24, 0});
        QCOMPARE(prefill.workload.totals.macs, 2 * 24 * layerMacsPerToken(shape) +
                                                   2 * shape.hidden * shape.vocab +
                                                   attentionMacs(shape, 2, 24, 24));
        QCOMPARE(prefill.kv.read, int64_t(0));
        QCOMPARE(prefill.kv.write, 2 * kvBytes(shape, 24, kvElement));
    }

    // The weights' bytes are exact (packed values and their scales), and a decode step reads each once: the
    // NVFP4 weights' DequantizeLinear and Transpose run inside the GEMM, nothing dequantised is written.
    void weightsAreExactAndReadOnceAStep_data() { addRows(); }
    void weightsAreExactAndReadOnceAStep() {
        QFETCH(int, weights);
        QFETCH(bool, fp8Cache);
        const LlmShape shape = edgeShape();
        const DecoderFile model(shape, LlmExport::EdgeLlm, {}, {EdgeWeights(weights), fp8Cache});
        const LlmCounter counter(model.path(), settingsOf(TrafficView::Fused));
        QCOMPARE(counter.weightBytes(), edgeWeightBytes(shape, EdgeWeights(weights)));
        const LlmPassCount step = counter.count({1, 1, 63});
        // eps (2 bytes) is read by every norm: 2 per layer and the final one, counted once in the weights.
        QCOMPARE(step.workload.totals.weightBytes, counter.weightBytes() + 2 * (2 * shape.layers));
        // Activations of one token: far below a single dequantised fp16 weight matrix.
        const int64_t smallestMatrix = 2 * shape.hidden * shape.hidden;
        QVERIFY(step.workload.totals.outputBytes - step.kv.write < smallestMatrix);
    }

    // The per-node view keeps what the graph describes: with the cache updated in place it moves the same KV
    // bytes; only the NVFP4 dequantisation writes its fp16 weights there.
    void theCacheIsUpdatedInPlaceInBothViews() {
        const LlmShape shape = edgeShape();
        const DecoderFile model(shape, LlmExport::EdgeLlm, {}, {EdgeWeights::Nvfp4, false});
        const LlmPassCount fused = LlmCounter(model.path(), settingsOf(TrafficView::Fused)).count({2, 1, 99});
        const LlmPassCount perNode =
            LlmCounter(model.path(), settingsOf(TrafficView::PerNode)).count({2, 1, 99});
        QCOMPARE(perNode.kv.read, fused.kv.read);
        QCOMPARE(perNode.kv.write, fused.kv.write);
        QCOMPARE(perNode.workload.totals.macs, fused.workload.totals.macs);
        const int64_t q = shape.heads * shape.headDim, kv = shape.kvHeads * shape.headDim;
        const int64_t dequantised =
            2 * shape.layers *
            (shape.hidden * (q + 2 * kv) + q * shape.hidden + 3 * shape.hidden * shape.intermediate);
        QVERIFY(perNode.workload.totals.bytes() - fused.workload.totals.bytes() >= 2 * dequantised);
    }

    // The trt domain's form, Q, K and V apart before the cache, counts as the packed one (but for the normed
    // input, which its three projections read each), and its rope table, two inputs after the cache there,
    // still bounds the context.
    void theSplitFormCountsLikeThePackedOne() {
        const LlmShape shape = edgeShape();
        const DecoderFile packed(shape, LlmExport::EdgeLlm, {}, {EdgeWeights::Fp16, false, false});
        const DecoderFile split(shape, LlmExport::EdgeLlm, {}, {EdgeWeights::Fp16, false, true});
        const LlmCounter a(packed.path(), settingsOf(TrafficView::Fused));
        const LlmCounter b(split.path(), settingsOf(TrafficView::Fused));
        QCOMPARE(*b.signature().maxPositions, shape.maxPositions);
        for (const LlmPass pass : {LlmPass{2, 1, 39}, LlmPass{1, 16, 0}}) {
            const LlmPassCount x = a.count(pass);
            const LlmPassCount y = b.count(pass);
            QVERIFY(y.workload.totals.unsupported.empty() && y.workload.totals.shapeUnknown.empty());
            QCOMPARE(y.workload.totals.macs, x.workload.totals.macs);
            QCOMPARE(y.workload.totals.flops, x.workload.totals.flops);
            const int64_t twoMoreReads = 2 * shape.layers * pass.batch * pass.sequence * shape.hidden * 2;
            QCOMPARE(y.workload.totals.bytes(), x.workload.totals.bytes() + twoMoreReads);
            QCOMPARE(y.kv.read, x.kv.read);
            QCOMPARE(y.kv.write, x.kv.write);
        }
    }

    // NVFP4's dequantisation and transposes are folded into the products: no work and no kernels of their
    // own, so a step does the fp16 export's arithmetic.
    void theNvfp4TransformsAreFolded() {
        const LlmShape shape = edgeShape();
        const DecoderFile fp16(shape, LlmExport::EdgeLlm, {}, {EdgeWeights::Fp16, false});
        const DecoderFile fp4(shape, LlmExport::EdgeLlm, {}, {EdgeWeights::Nvfp4, false});
        const LlmPassCount a = LlmCounter(fp16.path(), settingsOf(TrafficView::Fused)).count({1, 1, 63});
        const LlmPassCount b = LlmCounter(fp4.path(), settingsOf(TrafficView::Fused)).count({1, 1, 63});
        QCOMPARE(b.workload.totals.flops, a.workload.totals.flops);
        int folded = 0;
        for (const LayerCount& layer : b.workload.layers)
            if (layer.op == "DequantizeLinear" || layer.op == "Transpose") {
                QCOMPARE(layer.kind, OpKind::Alias);
                QCOMPARE(layer.flops, int64_t(0));
                ++folded;
            }
        QCOMPARE(folded, 3 * 5 * shape.layers); // two DequantizeLinear and a Transpose per linear layer
    }

    // Llama-3.1-8B as Edge-LLM exports it for Thor (NVFP4) and Orin (int4 AWQ).
    void realSizesCountExactly() {
        const LlmShape llama3 = llama31_8b();
        for (const EdgeWeights weights : {EdgeWeights::Nvfp4, EdgeWeights::Int4Awq}) {
            const DecoderFile model(llama3, LlmExport::EdgeLlm, {}, {weights, false});
            const LlmCounter counter(model.path(), settingsOf(TrafficView::Fused));
            QCOMPARE(counter.weightBytes(), edgeWeightBytes(llama3, weights));
            QCOMPARE(counter.kvBytesPerToken(), int64_t(131072)); // 2 x 32 x 8 KV heads x 128 x 2 B
            const LlmPassCount decode = counter.count({1, 1, 2047});
            QCOMPARE(decode.workload.totals.macs,
                     linearMacsPerToken(llama3) + attentionMacs(llama3, 1, 1, 2048));
            QCOMPARE(decode.kv.read, kvBytes(llama3, 2047));
        }
    }

    void layoutsItCannotReadAreRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("paged.onnx").toStdString();
        onnx::ModelProto paged = makeLlmDecoder(edgeShape(), LlmExport::EdgeLlm);
        // A paged pool [2, pages, tokens a page, kv heads, head] instead of the linear cache.
        for (auto* list : {paged.mutable_graph()->mutable_input(), paged.mutable_graph()->mutable_output()})
            for (auto& value : *list) {
                if (value.name().find("key_values_") == std::string::npos) continue;
                auto* shape = value.mutable_type()->mutable_tensor_type()->mutable_shape();
                shape->mutable_dim(0)->set_dim_value(2);
                shape->mutable_dim(1)->set_dim_param("pages");
                shape->mutable_dim(2)->set_dim_value(128);
                shape->mutable_dim(3)->set_dim_value(2);
            }
        writeModel(paged, path);
        QVERIFY(errorOf([&] {
                    LlmCounter(path, settingsOf(TrafficView::Fused));
                }).contains("a paged KV pool or another combined layout is not read"));

        onnx::ModelProto fixed = makeLlmDecoder(edgeShape(), LlmExport::EdgeLlm);
        fixed.mutable_graph()
            ->mutable_input(5)
            ->mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape()
            ->mutable_dim(3)
            ->set_dim_value(4096);
        writeModel(fixed, path);
        const QString error = errorOf([&] { LlmCounter(path, settingsOf(TrafficView::Fused)); });
        QVERIFY2(error.contains("fixed cache capacity of 4096"), qPrintable(error));
    }
};

ROOFTOP_TEST_CLASS(LlmEdgeExport)
#include "test_llm_edge_export.moc"
