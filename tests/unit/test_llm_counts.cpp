// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop llm's counting: decoders exported as optimum, merged optimum and onnxruntime-genai (built here with
// the ONNX protobuf API, weights external and absent) recognised, and their prefill, decode steps, KV cache
// and weights counted exactly against the hand formulas: 2 x parameters per token (MACs: 1 a weight a token)
// plus attention over the context, KV bytes = 2 x layers x kv heads x head dim x tokens x element size.
#include "core/common/errors.h"
#include "core/llm/decode_series.h"
#include "core/llm/llm_pass.h"
#include "core/llm/llm_session.h"
#include "core/llm/mode_sweep.h"
#include "core/session/analysis_session.h"
#include "support/device_fixtures.h"
#include "support/llm_fixtures.h"
#include "support/llm_formulas.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::test;

namespace {

// Weight bytes of the torch-style export at fp16: embedding, rotary tables, 4 scalars, the layers, the head.
int64_t optimumWeightBytes(const LlmShape& s) {
    const int64_t q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    const int64_t perLayer =
        2 * s.hidden + s.hidden * q + 2 * s.hidden * kv + q * s.hidden + 3 * s.hidden * s.intermediate;
    return 2 * (s.vocab * s.hidden + 2 * s.maxPositions * s.headDim + 4 + s.layers * perLayer + s.hidden +
                s.hidden * s.vocab);
}

// One MatMulNBits weight: packed values (bits a value) and fp16 scales per block, plus packed zero points.
int64_t nbitsBytes(int64_t k, int64_t n, const NBits& nb) {
    const int64_t blocks = (k + nb.blockSize - 1) / nb.blockSize;
    int64_t bytes = n * blocks * nb.blockSize * nb.bits / 8 + n * blocks * 2;
    if (nb.zeroPoints) bytes += n * ((blocks * nb.bits + 7) / 8);
    return bytes;
}

int64_t genaiWeightBytes(const LlmShape& s, const NBits& nb) {
    const int64_t q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    const int64_t perLayer = nbitsBytes(s.hidden, q + 2 * kv, nb) + nbitsBytes(q, s.hidden, nb) +
                             2 * nbitsBytes(s.hidden, s.intermediate, nb) +
                             nbitsBytes(s.intermediate, s.hidden, nb) + 2 * 2 * s.hidden;
    return 2 * s.vocab * s.hidden + 2 * 2 * s.maxPositions * (s.headDim / 2) + s.layers * perLayer +
           2 * s.hidden + 2 * s.hidden * s.vocab;
}

using Fixture = DecoderFile;

AnalysisSettings fusedSettings() {
    AnalysisSettings settings;
    settings.traffic = TrafficView::Fused;
    return settings;
}

/// `rooftop llm` of `path` on the AGX Orin 64GB: a prompt of `prompt` tokens, 64 generated, fused traffic.
LlmRequest orinRequest(const std::string& path, int64_t prompt) {
    LlmRequest request;
    request.modelPath = path;
    request.settings = fusedSettings();
    request.prompt = prompt;
    request.generate = 64;
    request.deviceId = "agx-orin-64gb";
    return request;
}

} // namespace

class LlmCounting : public QObject {
    Q_OBJECT

private slots:
    void theExportsAreRecognised_data() {
        QTest::addColumn<int>("style");
        QTest::addColumn<QString>("name");
        QTest::newRow("optimum") << int(LlmExport::Optimum) << "optimum";
        QTest::newRow("merged") << int(LlmExport::OptimumMerged) << "optimum-merged";
        QTest::newRow("genai") << int(LlmExport::GenAi) << "onnxruntime-genai";
    }
    void theExportsAreRecognised() {
        QFETCH(int, style);
        QFETCH(QString, name);
        const LlmShape shape;
        const Fixture model(shape, LlmExport(style));
        const LlmCounter counter(model.path(), fusedSettings());
        const LlmSignature& s = counter.signature();
        QCOMPARE(QString(llmExportStyleName(s.style)), name);
        QCOMPARE(int(s.caches.size()), shape.layers);
        QCOMPARE(s.kvHeads, shape.kvHeads);
        QCOMPARE(s.headDim, shape.headDim);
        QCOMPARE(s.roles.batch, std::string("batch_size"));
        QCOMPARE(s.roles.sequence, std::string("sequence_length"));
        QCOMPARE(s.roles.past, std::string("past_sequence_length"));
        QCOMPARE(s.roles.total, std::string("total_sequence_length"));
        QVERIFY(s.maxPositions.has_value());
        QCOMPARE(*s.maxPositions, shape.maxPositions);
        QCOMPARE(s.caches[1].pastValue, std::string("past_key_values.1.value"));
        QCOMPARE(s.caches[1].presentValue, std::string("present.1.value"));
    }

    void aDecodeStepMatchesTheHandFormulas_data() {
        QTest::addColumn<int>("style");
        QTest::newRow("optimum") << int(LlmExport::Optimum);
        QTest::newRow("merged") << int(LlmExport::OptimumMerged);
        QTest::newRow("genai") << int(LlmExport::GenAi);
    }
    void aDecodeStepMatchesTheHandFormulas() {
        QFETCH(int, style);
        const LlmShape shape;
        const Fixture model(shape, LlmExport(style));
        const LlmCounter counter(model.path(), fusedSettings());
        for (const int64_t batch : {int64_t(1), int64_t(3)}) {
            const int64_t context = 40;
            const LlmPassCount step = counter.count({batch, 1, context - 1});
            QCOMPARE(step.workload.totals.macs,
                     batch * linearMacsPerToken(shape) + attentionMacs(shape, batch, 1, context));
            QCOMPARE(step.kv.read, batch * kvBytes(shape, context - 1));
            QCOMPARE(step.kv.write, batch * kvBytes(shape, 1));
            QVERIFY(step.workload.totals.unsupported.empty());
            QVERIFY(step.workload.totals.shapeUnknown.empty());
        }
        const LlmPassCount prefill = counter.count({2, 24, 0});
        QCOMPARE(prefill.workload.totals.macs,
                 2 * 24 * linearMacsPerToken(shape) + attentionMacs(shape, 2, 24, 24));
        QCOMPARE(prefill.kv.read, int64_t(0));
        QCOMPARE(prefill.kv.write, 2 * kvBytes(shape, 24));
        QCOMPARE(counter.kvBytesPerToken(), kvBytes(shape, 1));
    }

    void weightBytesAreExact() {
        const LlmShape shape;
        QCOMPARE(LlmCounter(Fixture(shape, LlmExport::Optimum).path(), fusedSettings()).weightBytes(),
                 optimumWeightBytes(shape));
        for (const NBits nb : {NBits{4, 32, false}, NBits{4, 16, true}, NBits{8, 32, true}}) {
            const Fixture model(shape, LlmExport::GenAi, nb);
            QCOMPARE(LlmCounter(model.path(), fusedSettings()).weightBytes(), genaiWeightBytes(shape, nb));
        }
    }

    // Parameters are the values the weights hold: a MatMulNBits weight's K x N however many a byte packs, its
    // scales and zero points none (as llama-bench counts a GGUF's); the fp16 tensors their elements.
    void parametersCountPackedValuesOnce() {
        const LlmShape s;
        const int64_t q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
        const int64_t perLayer = s.hidden * (q + 2 * kv) + q * s.hidden + 2 * s.hidden * s.intermediate +
                                 s.intermediate * s.hidden + 2 * s.hidden;
        const int64_t expected = s.vocab * s.hidden + 2 * s.maxPositions * (s.headDim / 2) +
                                 s.layers * perLayer + s.hidden + s.hidden * s.vocab;
        for (const NBits nb : {NBits{4, 32, false}, NBits{4, 16, true}, NBits{8, 32, true}}) {
            const Fixture model(s, LlmExport::GenAi, nb);
            const LlmCounter counter(model.path(), fusedSettings());
            QCOMPARE(counter.count({1, 8, 0}).workload.totals.params, expected);
        }
        // Edge-LLM's int4 AWQ plugin holds the values its fp16 export holds (two a byte, scales apart)
        const auto paramsOf = [&](EdgeWeights weights) {
            EdgeOptions edge;
            edge.weights = weights;
            const QTemporaryDir dir;
            const std::string path = dir.filePath("edge.onnx").toStdString();
            writeModel(makeLlmDecoder(s, LlmExport::EdgeLlm, {}, edge), path);
            return LlmCounter(path, fusedSettings()).count({1, 8, 0}).workload.totals.params;
        };
        QCOMPARE(paramsOf(EdgeWeights::Int4Awq), paramsOf(EdgeWeights::Fp16));
    }

    // A step reads every weight once, but of the embedding and GroupQueryAttention's cos and sin caches only
    // the rows of its tokens (each layer reads its own).
    void tablesAreReadAtTheStepsRows() {
        const LlmShape s;
        const NBits nb{4, 32, false};
        const Fixture model(s, LlmExport::GenAi, nb);
        const LlmCounter counter(model.path(), fusedSettings());
        const int64_t batch = 3;
        const int64_t embedding = 2 * s.vocab * s.hidden;
        const int64_t cosSin = 2 * 2 * s.maxPositions * (s.headDim / 2);
        const int64_t rowsRead = batch * 2 * s.hidden + s.layers * batch * 2 * 2 * (s.headDim / 2);
        const LlmPassCount step = counter.count({batch, 1, 39});
        QCOMPARE(step.workload.totals.weightBytes, genaiWeightBytes(s, nb) - embedding - cosSin + rowsRead);
    }

    // The runtimes' view moves the cache once; the graph's own (per-node) copies it through Concat and the
    // grouped-query Expand, and writes the whole present.
    void thePerNodeViewShowsTheGraphsCopies() {
        const LlmShape shape;
        const Fixture model(shape, LlmExport::Optimum);
        AnalysisSettings perNode;
        perNode.traffic = TrafficView::PerNode;
        const LlmPassCount graphView = LlmCounter(model.path(), perNode).count({1, 1, 99});
        const LlmPassCount fused = LlmCounter(model.path(), fusedSettings()).count({1, 1, 99});
        QCOMPARE(graphView.kv.read, kvBytes(shape, 99));
        QCOMPARE(graphView.kv.write, kvBytes(shape, 100));
        QCOMPARE(fused.kv.write, kvBytes(shape, 1));
        // Expand to 4 heads from 2 and reading it back: at least twice the cache more than the fused view.
        QVERIFY(graphView.workload.totals.bytes() - fused.workload.totals.bytes() >= 2 * kvBytes(shape, 100));
        QCOMPARE(graphView.workload.totals.macs, fused.workload.totals.macs);
    }

    // The merged decoder takes the branch of its phase: its counts are those of the plain export's.
    void theMergedDecoderCountsItsPhasesBranch() {
        const LlmShape shape;
        const Fixture merged(shape, LlmExport::OptimumMerged);
        const Fixture plain(shape, LlmExport::Optimum);
        const LlmCounter m(merged.path(), fusedSettings());
        const LlmCounter p(plain.path(), fusedSettings());
        for (const LlmPass pass : {LlmPass{1, 16, 0}, LlmPass{2, 1, 30}}) {
            const LlmPassCount a = m.count(pass);
            const LlmPassCount b = p.count(pass);
            QCOMPARE(a.workload.totals.macs, b.workload.totals.macs);
            QCOMPARE(a.workload.totals.flops, b.workload.totals.flops);
            QCOMPARE(a.kv.read, b.kv.read);
            QCOMPARE(a.kv.write, b.kv.write);
        }
    }

    // The generation's sum from three counted steps equals counting every step.
    void aGenerationSumsExactlyFromThreeSteps_data() {
        QTest::addColumn<int>("style");
        QTest::newRow("optimum") << int(LlmExport::Optimum);
        QTest::newRow("genai") << int(LlmExport::GenAi);
        QTest::newRow("edge-llm") << int(LlmExport::EdgeLlm);
    }
    void aGenerationSumsExactlyFromThreeSteps() {
        QFETCH(int, style);
        const LlmShape shape;
        const Fixture model(shape, LlmExport(style), {}, {EdgeWeights::Fp16, false});
        const LlmCounter counter(model.path(), fusedSettings());
        const int64_t prompt = 10, generate = 9;
        const DecodeSeries series = countDecodeSeries(counter, 2, prompt + 1, prompt + generate);
        QVERIFY(series.affine);
        QCOMPARE(int(series.points.size()), 3);
        rooftop::LlmCounts brute;
        for (int64_t c = prompt + 1; c <= prompt + generate; ++c) {
            const rooftop::LlmCounts step = countsOf(counter.count({2, 1, c - 1}));
            brute.macs += step.macs;
            brute.flops += step.flops;
            brute.bytes += step.bytes;
            brute.kvReadBytes += step.kvReadBytes;
            brute.kvWriteBytes += step.kvWriteBytes;
            // Any step in between is interpolated exactly.
            const rooftop::LlmCounts between = countsOf(decodeStepAt(counter, series, 2, c));
            QCOMPARE(between.flops, step.flops);
            QCOMPARE(between.bytes, step.bytes);
        }
        QCOMPARE(series.sum.macs, brute.macs);
        QCOMPARE(series.sum.flops, brute.flops);
        QCOMPARE(series.sum.bytes, brute.bytes);
        QCOMPARE(series.sum.kvReadBytes, brute.kvReadBytes);
        QCOMPARE(series.sum.kvWriteBytes, brute.kvWriteBytes);
    }

    // A sliding window caps what a step attends to and reads: past it, a step costs the same at any context;
    // a generation across the window's edge is not affine, and is summed from evenly spaced steps instead.
    void aSlidingWindowCapsTheSteps() {
        LlmShape shape;
        shape.slidingWindow = 16;
        const Fixture model(shape, LlmExport::GenAi);
        const LlmCounter counter(model.path(), fusedSettings());
        for (const int64_t context : {int64_t(10), int64_t(40), int64_t(90)}) {
            const LlmPassCount step = counter.count({2, 1, context - 1});
            const int64_t attended = std::min<int64_t>(context, 16);
            QCOMPARE(step.workload.totals.macs,
                     2 * linearMacsPerToken(shape) + attentionMacs(shape, 2, 1, attended));
            QCOMPARE(step.kv.read, 2 * kvBytes(shape, std::min<int64_t>(context - 1, 16)));
        }
        const DecodeSeries series = countDecodeSeries(counter, 1, 5, 60);
        QVERIFY(!series.affine);
        QVERIFY(series.points.size() > 3);
        int64_t brute = 0;
        for (int64_t c = 5; c <= 60; ++c)
            brute += countsOf(counter.count({1, 1, c - 1})).macs;
        QVERIFY(std::abs(double(series.sum.macs) / double(brute) - 1.0) < 0.01);
    }

    void realSizesCountExactly() {
        const LlmShape llama2 = llama2_7b();
        const Fixture fp16(llama2, LlmExport::Optimum);
        const LlmCounter counter(fp16.path(), fusedSettings());
        QCOMPARE(counter.weightBytes(), optimumWeightBytes(llama2));
        QCOMPARE(counter.kvBytesPerToken(), int64_t(524288)); // 2 x 32 layers x 32 heads x 128 x 2 B
        const LlmPassCount step = counter.count({1, 1, 1023});
        QCOMPARE(step.workload.totals.macs, linearMacsPerToken(llama2) + attentionMacs(llama2, 1, 1, 1024));

        const LlmShape llama3 = llama31_8b();
        const NBits int4{4, 32, false};
        const Fixture genai(llama3, LlmExport::GenAi, int4);
        const LlmCounter g(genai.path(), fusedSettings());
        QCOMPARE(g.weightBytes(), genaiWeightBytes(llama3, int4));
        QCOMPARE(g.kvBytesPerToken(), int64_t(131072)); // 2 x 32 x 8 KV heads x 128 x 2 B
        const LlmPassCount decode = g.count({1, 1, 2047});
        QCOMPARE(decode.workload.totals.macs, linearMacsPerToken(llama3) + attentionMacs(llama3, 1, 1, 2048));
        QCOMPARE(decode.kv.read, kvBytes(llama3, 2047));

        const LlmShape qwen = qwen25_05b();
        const Fixture small(qwen, LlmExport::OptimumMerged);
        const LlmCounter q(small.path(), fusedSettings());
        QCOMPARE(q.kvBytesPerToken(), kvBytes(qwen, 1));
        QCOMPARE(q.count({1, 1, 511}).workload.totals.macs,
                 linearMacsPerToken(qwen) + attentionMacs(qwen, 1, 1, 512));
    }

    // A decoder of half a megabyte of weights waits for kernel launches and the host, not for DRAM: its
    // decode is overhead-bound in every mode (kernels held at their minimum time and the fixed cost count as
    // overhead), where Llama-2-7B's is bandwidth-bound (below).
    void aTinyDecoderIsOverheadBound() {
        const LlmResult result = runLlmAnalysis(orinRequest(test::samplePath("tiny_llama"), 128));
        QCOMPARE(int(result.modes.size()), 4);
        for (const LlmModeAnswer& mode : result.modes)
            QVERIFY2(mode.decodeBound == Bound::Overhead, mode.profile.mode.name.c_str());
    }

    // 64 GB hold 65 million tokens of tiny_llama's cache, but its position table has 512 rows: the largest
    // context is the table's, and says so
    void theLargestContextIsTheModelsPositionTableWhenMemoryAllowsMore() {
        const LlmResult result = runLlmAnalysis(orinRequest(test::samplePath("tiny_llama"), 128));
        QCOMPARE(result.signature.maxPositions.value_or(0), int64_t(512));
        QCOMPARE(result.memory.largestContext, int64_t(512));
        QVERIFY(result.memory.contextByPositions);
        const LlmMemory bare = llmMemory(result.memory.weightBytes, result.memory.kvBytesPerToken,
                                         result.memory.activationBytes, 1, 256, result.device, 2.0);
        QVERIFY(bare.largestContext > 1000000); // what the memory alone would allow
        QVERIFY(!bare.contextByPositions);
    }

    // The largest batch is the one that fits: its KV cache and its activations, which grow with the batch, on
    // top of the weights; asked at batch 4 or at the answer itself, the same answer (the activations were
    // held at the batch asked, so batch 4 said 775 sequences where 634 fit).
    void theLargestBatchFitsAndOneMoreDoesNot() {
        const DeviceSpec& thor = test::shippedDevice("agx-thor-t5000");
        const int64_t weights = int64_t(5) << 30, kvPerToken = 128 * 1024, perSequence = 40 << 20;
        const int64_t context = 1280;
        const LlmMemory at4 = llmMemory(weights, kvPerToken, 4 * perSequence, 4, context, thor, 2.0);
        QVERIFY(at4.fits && at4.largestBatch > 4);
        const int64_t largest = at4.largestBatch;
        const LlmMemory atLargest =
            llmMemory(weights, kvPerToken, largest * perSequence, largest, context, thor, 2.0);
        QVERIFY(atLargest.fits);
        QCOMPARE(atLargest.largestBatch, largest);
        const LlmMemory oneMore =
            llmMemory(weights, kvPerToken, (largest + 1) * perSequence, largest + 1, context, thor, 2.0);
        QVERIFY(!oneMore.fits);
        QCOMPARE(oneMore.largestBatch, largest);
    }

    // Decode is bandwidth-bound at batch 1 on an AGX Orin, and no mode predicts a step faster than its bytes
    // over the mode's bandwidth; prefill is compute-bound.
    void everyModeRespectsTheBandwidthRoof() {
        const LlmShape shape = llama2_7b();
        const Fixture model(shape, LlmExport::GenAi);
        const LlmResult result = runLlmAnalysis(orinRequest(model.path(), 512));
        QCOMPARE(int(result.modes.size()), 4);
        QVERIFY(result.memory.fits);
        const double stepBytes = double(countsOf(result.decodeSteps.front()).bytes);
        for (const LlmModeAnswer& mode : result.modes) {
            QCOMPARE(int(mode.decodeBound), int(Bound::Memory));
            QCOMPARE(int(mode.prefillBound), int(Bound::Compute));
            QVERIFY2(mode.tpotFirstSeconds >= stepBytes / mode.profile.ceilings.bandwidth.value,
                     mode.profile.mode.name.c_str());
            QVERIFY(mode.tpotLastSeconds >= mode.tpotFirstSeconds);
            QVERIFY(mode.tpotSeconds >= mode.tpotFirstSeconds && mode.tpotSeconds <= mode.tpotLastSeconds);
            QCOMPARE(mode.decodeTokensPerSecond, 1.0 / mode.tpotSeconds);
            QVERIFY(qAbs(mode.tokensPerJoule * mode.energyPerTokenJoules - 1.0) < 1e-12);
            QVERIFY(mode.endToEndSeconds > mode.ttftSeconds);
        }
    }

    // Merging a decoder's repeated layers changes no mode's numbers.
    void theCompactSweepGivesTheFullSweepsNumbers() {
        const Fixture model(llama31_8b(), LlmExport::Optimum);
        const LlmCounter counter(model.path(), fusedSettings());
        AnalysisRequest board;
        board.deviceId = "agx-orin-64gb";
        board.modes = "sample:40";
        const std::vector<ModeProfile> profiles = runAnalysis(board).modeProfiles;
        for (const LlmPass pass : {LlmPass{1, 300, 0}, LlmPass{4, 1, 999}}) {
            const Workload workload = counter.count(pass).workload;
            const CompactWorkload compact = compactForSweep(workload);
            QVERIFY(compact.workload.layers.size() * 10 < workload.layers.size());
            const std::vector<ModeSummary> full = sweepModes(workload, profiles);
            const std::vector<ModeSummary> fast = sweepCompact(compact, profiles);
            for (size_t m = 0; m < profiles.size(); ++m) {
                QVERIFY(qAbs(fast[m].latencySeconds / full[m].latencySeconds - 1) < 1e-9);
                QVERIFY(qAbs(fast[m].energyJoules / full[m].energyJoules - 1) < 1e-9);
            }
        }
        // two copies of one shape whose bytes differ (0 = 0 FLOP ratios): one under the kernel floor, one
        // over it, so they stay apart
        LayerCount small;
        small.op = "Transpose";
        small.kind = OpKind::DataMovement;
        small.outputShapes = {"1x8"};
        small.inputBytes = small.outputBytes = 32;
        LayerCount large = small;
        large.inputBytes = 4000000;
        Workload moves;
        moves.layers = {small, large};
        QCOMPARE(compactForSweep(moves).workload.layers.size(), size_t(2));
        const std::vector<ModeSummary> full = sweepModes(moves, profiles);
        const std::vector<ModeSummary> fast = sweepCompact(compactForSweep(moves), profiles);
        for (size_t m = 0; m < profiles.size(); ++m)
            QVERIFY(qAbs(fast[m].latencySeconds / full[m].latencySeconds - 1) < 1e-12);
    }

    // A real exporter's file (torch.onnx, resources/models/export_llm_samples.py): the causal mask from Range
    // over the past and total lengths, the GQA repeat through Shape/ConstantOfShape/Where/Expand, fp32.
    void theTorchExportCountsLikeTheFormulas() {
        const LlmShape shape{2, 64, 4, 2, 16, 172, 256, 512};
        const LlmCounter counter(samplePath("tiny_llama"), fusedSettings());
        QCOMPARE(QString(llmExportStyleName(counter.signature().style)), QString("optimum"));
        QCOMPARE(*counter.signature().maxPositions, int64_t(512));
        const int64_t fp32Kv = 2 * 2 * shape.kvHeads * shape.headDim * 4; // a token, both layers, K and V
        QCOMPARE(counter.kvBytesPerToken(), fp32Kv);
        for (const LlmPass pass : {LlmPass{1, 1, 99}, LlmPass{3, 1, 20}, LlmPass{2, 17, 0}}) {
            const LlmPassCount counted = counter.count(pass);
            QVERIFY2(counted.workload.totals.shapeUnknown.empty() &&
                         counted.workload.totals.unsupported.empty(),
                     counted.workload.totals.shapeLossReason.c_str());
            QCOMPARE(counted.workload.totals.macs,
                     pass.batch * pass.sequence * linearMacsPerToken(shape) +
                         attentionMacs(shape, pass.batch, pass.sequence, pass.context()));
            QCOMPARE(counted.kv.read, pass.batch * pass.past * fp32Kv);
            QCOMPARE(counted.kv.write, pass.batch * pass.sequence * fp32Kv);
        }
    }

    void badDecodersAreRefused() {
        QTemporaryDir dir;
        const LlmShape shape;
        onnx::ModelProto model = makeLlmDecoder(shape, LlmExport::Optimum);
        model.mutable_graph()->mutable_output()->DeleteSubrange(2, 1); // present.0.value
        const std::string unmatched = dir.filePath("unmatched.onnx").toStdString();
        writeModel(model, unmatched);
        QVERIFY(errorOf([&] { LlmCounter(unmatched, fusedSettings()); }).contains("cannot be matched"));
        QVERIFY(errorOf([&] {
                    LlmCounter(samplePath("resnet18"), fusedSettings());
                }).contains("not a decoder with a KV cache"));

        const Fixture good(shape, LlmExport::Optimum);
        AnalysisSettings contradictory = fusedSettings();
        contradictory.dims.named["sequence_length"] = 5;
        QVERIFY(errorOf([&] { LlmCounter(good.path(), contradictory); }).contains("contradicts the phases"));

        LlmRequest request;
        request.modelPath = good.path();
        request.prompt = 200;
        request.generate = 100; // 300 > 256 positions
        QVERIFY(errorOf([&] { runLlmAnalysis(request); }).contains("beyond the model's 256 positions"));
        QVERIFY(errorOf([&] { runLlmAnalysis(request); }).contains("shorten --prompt or --generate"));
        // the option asking for the largest context is named
        request.generate = 10;
        request.contexts = {300};
        QVERIFY(errorOf([&] { runLlmAnalysis(request); }).contains("shorten --context"));
        request.contexts.clear();
        request.sweepFrom = 64;
        request.sweepTo = 1024;
        QVERIFY(errorOf([&] { runLlmAnalysis(request); }).contains("end --context-sweep lower"));
    }
};

ROOFTOP_TEST_CLASS(LlmCounting)
#include "test_llm_counts.moc"
