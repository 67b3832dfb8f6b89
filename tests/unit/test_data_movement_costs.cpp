// SPDX-License-Identifier: GPL-3.0-or-later
// Copy and alias rules (core/cost/data_movement_rules.cpp): 0 FLOPs, the bytes they move, embedding lookups
// that read only their rows, and aliases that move nothing once fused.
#include "core/roofline/prediction.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>
#include <map>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

AnalysisSettings fusedView() {
    AnalysisSettings settings;
    settings.traffic = TrafficView::Fused;
    return settings;
}

const char* reshapeModel = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,64,7,7] x) => (float[1,3136] y) <int64[2] shape = {1, -1}> {
        y = Reshape (x, shape)
    })";

} // namespace

class DataMovementCosts : public QObject {
    Q_OBJECT
private slots:
    void concatCopiesInputsToOutput() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,32,8,8] a, float[1,32,8,8] b) => (float[1,64,8,8] y) {
                y = Concat <axis = 1> (a, b)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::DataMovement);
        QVERIFY(l.supported);
        QCOMPARE(l.flops, int64_t(0));
        QCOMPARE(l.inputBytes, int64_t(16384));
        QCOMPARE(l.outputBytes, int64_t(16384));
    }

    void transposeSplitPadTileExpand() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,4,5] x) => (float[1,4,5,3] t, float[1,1,4,5] s0, float[1,2,4,5] s1, float[1,3,6,7] p,
                                     float[2,3,4,5] r, float[2,3,4,5] e)
            <int64[2] split = {1, 2}, int64[8] pads = {0, 0, 1, 1, 0, 0, 1, 1}, int64[4] reps = {2, 1, 1, 1},
             int64[4] shape = {2, 3, 4, 5}> {
                t = Transpose <perm = [0, 2, 3, 1]> (x)
                s0, s1 = Split <axis = 1> (x, split)
                p = Pad (x, pads)
                r = Tile (x, reps)
                e = Expand (x, shape)
            })");
        QCOMPARE(int(w.layers.size()), 5);
        for (const auto& l : w.layers) {
            QCOMPARE(l.kind, OpKind::DataMovement);
            QVERIFY(l.supported);
            QCOMPARE(l.flops, int64_t(0));
            QCOMPARE(l.weightBytes, int64_t(0)); // folded integer operands are metadata
            QCOMPARE(l.inputBytes, int64_t(240));
        }
        QCOMPARE(w.layers.at(0).outputBytes, int64_t(240));
        QCOMPARE(w.layers.at(1).outputBytes, int64_t(240)); // both split outputs
        QCOMPARE(w.layers.at(2).outputBytes, int64_t(504));
        QCOMPARE(w.layers.at(3).outputBytes, int64_t(480));
        QCOMPARE(w.layers.at(4).outputBytes, int64_t(480));
    }

    void shapeArithmeticMovesNoBytesInOrOut() {
        // Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as exporters write a flatten: the folded
        // integers are host metadata whether read or written, so the arithmetic launches no kernel; the
        // Reshape of 1 x 3 x 4 x 5 floats is an alias and moves nothing either
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,4,5] x) => (float[1,60] y)
            <int64 zero = {0}, int64[1] axes = {0}, int64[1] rest = {-1}> {
                s = Shape (x)
                n = Gather (s, zero)
                u = Unsqueeze (n, axes)
                c = Concat <axis = 0> (u, rest)
                y = Reshape (x, c)
            })");
        QCOMPARE(int(w.layers.size()), 5);
        for (int i = 0; i < 4; ++i) {
            const LayerCount& l = w.layers.at(size_t(i));
            QVERIFY2(l.inputBytes == 0 && l.outputBytes == 0 && l.weightBytes == 0, l.name.c_str());
            QCOMPARE(kernelLaunches(l), 0.0);
        }
    }

    void integerArithmeticOnShapesRunsOnTheHost() {
        // a ViT-style export: the batch dim times a constant, cast and compared, all on folded int64 values,
        // dispatches nothing (kind control, a note saying why); the float Mul that reads x stays a kernel
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4] x) => (float[2,3,4] y, int64[1] m)
            <int64 zero = {0}, int64 three = {3}, int64[1] axes = {0}, float two = {2.0}> {
                s = Shape (x)
                n = Gather (s, zero)
                t = Mul (n, three)
                f = Cast <to = 7> (t)
                e = Equal (f, three)
                w = Where (e, t, n)
                m = Unsqueeze (w, axes)
                y = Mul (x, two)
            })");
        QCOMPARE(int(w.layers.size()), 8);
        int onHost = 0;
        for (const LayerCount& l : w.layers) {
            if (l.name == "Mul_1") { // y = x * 2: the one float layer (topological order puts it second)
                QCOMPARE(l.kind, OpKind::Pointwise);
                QCOMPARE(l.flops, int64_t(24));
                QCOMPARE(kernelLaunches(l), 1.0);
                continue;
            }
            QVERIFY2(!dispatchesKernel(l), l.name.c_str());
            QCOMPARE(kernelLaunches(l), 0.0);
            if (l.op == "Shape") continue; // control by its own rule
            QCOMPARE(l.kind, OpKind::Control);
            QCOMPARE(QString::fromStdString(l.note),
                     QString("arithmetic on shapes: worked out on the host, no kernel"));
            onHost += l.flops > 0 ? 1 : 0;
        }
        QCOMPARE(onHost, 4); // Mul, Cast, Equal and Where keep their one integer FLOP each in the count
    }

    void shapeValuesAKernelReadsAsDataStayKernels() {
        // a causal mask built from Range and Greater and cast to float, and a shape concatenated for a
        // Reshape: the Reshape reads its shape on the host, the float Cast reads the mask as data, so the
        // mask's producers stay kernels (a decoder's dynamic shapes compute them on the GPU each step)
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,6] x) => (float[6,6] m, float[2,3] y)
            <int64 zero = {0}, int64 six = {6}, int64 one = {1}, int64[1] axis = {1}, int64[1] two = {2},
             int64[1] three = {3}> {
                r = Range (zero, six, one)
                c = Unsqueeze (r, axis)
                g = Greater (r, c)
                m = Cast <to = 1> (g)
                s = Concat <axis = 0> (two, three)
                y = Reshape (x, s)
            })");
        std::map<std::string, const LayerCount*> byOp;
        for (const LayerCount& l : w.layers)
            byOp[l.op] = &l;
        for (const char* kernel : {"Range", "Greater"})
            QVERIFY2(byOp.at(kernel)->kind != OpKind::Control && dispatchesKernel(*byOp.at(kernel)), kernel);
        QVERIFY(byOp.at("Unsqueeze")->kind != OpKind::Control); // an alias of the GPU's range, not host work
        QCOMPARE(byOp.at("Concat")->kind, OpKind::Control);
        QCOMPARE(kernelLaunches(*byOp.at("Concat")), 0.0);
    }

    void aDimOfTheBatchIsRefusedOnlyWhereItIsTheBatch() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[batch,sequence] x, float[sequence] p) => (float[batch,sequence] y) {
                y = Add (x, p)
            })";
        AnalysisSettings settings;
        settings.dims.batch = 4;
        settings.dims.named["sequence"] = 8; // p's first dim, but x names it past dim 0: not the batch
        const auto w = analyzeText(model, settings);
        QCOMPARE(w.layers.front().flops, int64_t(32));
        QVERIFY(!w.info.batchFromDims); // the batch came from the batch size
        settings.dims.named = {{"batch", 2}};
        QVERIFY(test::errorOf([&] { analyzeText(model, settings); }).contains("binds the batch dimension"));
        settings.dims.batch.reset(); // without a batch size, the named binding is the batch
        QCOMPARE(analyzeText(model, settings).info.batchFromDims.value_or(0), int64_t(2));
        // and the workload says so, as the analysis pipeline does (analyze's JSON "batch")
        QCOMPARE(analyzeText(model, settings).settings.dims.batch.value_or(0), int64_t(2));
        settings.dims.named = {{"sequence", 8}}; // a sequence is not a batch, though it is p's dim 0
        QVERIFY(!analyzeText(model, settings).info.batchFromDims);
        // a 1-D input's only dim is a shape, not a batch
        const char* boxes = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[n] x) => (float[n] y) {
                y = Relu (x)
            })";
        settings.dims.named = {{"n", 100}};
        QVERIFY(!analyzeText(boxes, settings).info.batchFromDims);
        QVERIFY(!analyzeText(boxes, settings).settings.dims.batch);
        // two batched inputs of two symbols, one bound: the other was left at 1, so no batch is claimed
        const char* two = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[b1,4] x, float[b2,4] m) => (float[b1,4] y, float[b2,4] z) {
                y = Relu (x)
                z = Relu (m)
            })";
        settings.dims.named = {{"b1", 4}};
        QVERIFY(!analyzeText(two, settings).info.batchFromDims);
        settings.dims.named = {{"b1", 4}, {"b2", 4}};
        QCOMPARE(analyzeText(two, settings).info.batchFromDims.value_or(0), int64_t(4));
    }

    void embeddingGatherReadsOnlyItsRows() {
        // 16 token ids into a 1000 x 64 float table: 16 rows x 64 x 4 B = 4096 B read, not 256000 B.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (int64[1,16] ids) => (float[1,16,64] y) <float[1000,64] table = {0.0}> {
                y = Gather <axis = 0> (table, ids)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::DataMovement);
        QCOMPARE(l.flops, int64_t(0));
        QCOMPARE(l.weightBytes, int64_t(4096));
        QCOMPARE(l.inputBytes, int64_t(128));
        QCOMPARE(l.outputBytes, int64_t(4096));
        QCOMPARE(w.totals.params, int64_t(64000));
    }

    void gatherOfActivationsReadsTheWholeInput() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[10,8] x, int64[3] ids) => (float[3,8] y) {
                y = Gather <axis = 0> (x, ids)
            })");
        QCOMPARE(w.layers.at(0).weightBytes, int64_t(0));
        QCOMPARE(w.layers.at(0).inputBytes, int64_t(320 + 24));
        QCOMPARE(w.layers.at(0).outputBytes, int64_t(96));
    }

    void sliceOfAWeightReadsOnlyTheSlice() {
        // Rows 0..3 of a 512 x 32 position table: 4 x 32 x 4 B, in both views (fused, a slice is not a
        // transform of the whole weight folded into its consumer).
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,32] x) => (float[4,32] y)
            <float[512,32] pos = {0.0}, int64[1] starts = {0}, int64[1] ends = {4}> {
                p = Slice (pos, starts, ends)
                y = Add (x, p)
            })";
        const auto w = analyzeText(model);
        QCOMPARE(w.layers.at(0).weightBytes, int64_t(512));
        QCOMPARE(w.layers.at(0).outputBytes, int64_t(512));
        const auto fused = analyzeText(model, fusedView());
        QCOMPARE(fused.layers.at(0).weightBytes, int64_t(512));
        QCOMPARE(fused.totals.weightBytes, int64_t(512));
    }

    // Weights dequantised and transposed whole: fused, the product reads the int8 weights and their scale;
    // the two transforms are folded (no bytes, no work, no kernel); per node they write and read fp32 copies.
    void wholeWeightTransformsFoldIntoTheirProduct() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64] x) => (float[1,32] y)
            <int8[32,64] q = {0}, float scale = {0.5}> {
                w = DequantizeLinear (q, scale)
                t = Transpose <perm = [1, 0]> (w)
                y = MatMul (x, t)
            })";
        const auto fused = analyzeText(model, fusedView());
        for (int i : {0, 1}) {
            QCOMPARE(fused.layers.at(i).kind, OpKind::Alias);
            QCOMPARE(fused.layers.at(i).bytes(), int64_t(0));
            QCOMPARE(fused.layers.at(i).flops, int64_t(0));
        }
        QCOMPARE(fused.layers.at(2).weightBytes, int64_t(32 * 64 + 4));
        QCOMPARE(fused.totals.bytes(), int64_t(32 * 64 + 4 + 64 * 4 + 32 * 4));
        const auto perNode = analyzeText(model);
        QCOMPARE(perNode.totals.bytes() - fused.totals.bytes(), int64_t(4 * (32 * 64 * 4)));
    }

    void reshapeMovesNoBytesWhenFused() {
        const auto perNode = analyzeText(reshapeModel);
        const auto& l = perNode.layers.at(0);
        QCOMPARE(l.kind, OpKind::Alias);
        QVERIFY(l.supported);
        QCOMPARE(l.flops, int64_t(0));
        QCOMPARE(l.weightBytes, int64_t(0)); // the shape operand is metadata
        QCOMPARE(l.inputBytes, int64_t(12544));
        QCOMPARE(l.outputBytes, int64_t(12544));

        const auto fused = analyzeText(reshapeModel, fusedView());
        QCOMPARE(fused.layers.at(0).bytes(), int64_t(0));
        QCOMPARE(fused.totals.bytes(), int64_t(0));
    }

    void aliasesAreFreeInTheFusedView() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,8,1,4] x) => (float[1,8,4] a, float[1,1,8,1,4] b, float[1,32] c, float[1,8,1,4] d,
                                     float[1,8,1,4] e, int64[4] s)
            <int64[1] axes = {2}, int64[1] front = {0}> {
                a = Squeeze (x, axes)
                b = Unsqueeze (x, front)
                c = Flatten (x)
                d = Identity (x)
                e = Dropout (x)
                s = Shape (x)
            })",
                                   fusedView());
        QCOMPARE(int(w.layers.size()), 6);
        for (const auto& l : w.layers) {
            QCOMPARE(l.kind, l.op == "Shape" ? OpKind::Control : OpKind::Alias);
            QCOMPARE(l.flops, int64_t(0));
            QCOMPARE(l.bytes(), int64_t(0));
        }
    }

    void shapeQueriesMoveNoBytesEvenPerNode() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,8,16,16] x) => (int64[4] s, int64 n) {
                s = Shape (x)
                n = Size (x)
            })");
        for (const auto& l : w.layers) {
            QCOMPARE(l.kind, OpKind::Control);
            QCOMPARE(l.bytes(), int64_t(0));
        }
    }

    void scatterNdWithReductionCountsUpdates() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,8] data, int64[2,1] idx, float[2,8] updates) => (float[4,8] y, float[4,8] z) {
                y = ScatterND <reduction = "add"> (data, idx, updates)
                z = ScatterND (data, idx, updates)
            })");
        QCOMPARE(w.layers.at(0).kind, OpKind::DataMovement);
        QCOMPARE(w.layers.at(0).flops, int64_t(16)); // one add per update element
        QCOMPARE(w.layers.at(1).flops, int64_t(0));
        QCOMPARE(w.layers.at(1).inputBytes, int64_t(128 + 16 + 64));
    }

    void constantOfShapeWritesItsOutput() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,8] x) => (float[4,8] y) <int64[2] shape = {4, 8}> {
                z = ConstantOfShape (shape)
                y = Add (x, z)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::DataMovement);
        QCOMPARE(l.inputBytes, int64_t(0));
        QCOMPARE(l.weightBytes, int64_t(0));
        QCOMPARE(l.outputBytes, int64_t(128));
    }

    void depthToSpaceAndSpaceToDepth() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16,4,4] x) => (float[1,4,8,8] d, float[1,64,2,2] s) {
                d = DepthToSpace <blocksize = 2> (x)
                s = SpaceToDepth <blocksize = 2> (x)
            })");
        for (const auto& l : w.layers) {
            QCOMPARE(l.kind, OpKind::DataMovement);
            QCOMPARE(l.flops, int64_t(0));
            QCOMPARE(l.inputBytes, int64_t(1024));
            QCOMPARE(l.outputBytes, int64_t(1024));
        }
    }
};

ROOFTOP_TEST_CLASS(DataMovementCosts)
#include "test_data_movement_costs.moc"
