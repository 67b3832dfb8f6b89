// SPDX-License-Identifier: GPL-3.0-or-later
// Value folding of Transpose, Pad, Tile, ScatterND, GatherElements, CumSum, GatherND, Trilu and NonZero on
// small integer tensors (core/onnx/value_folding_tensor.cpp): the shape arithmetic of torch's F.pad, index
// assignments and window partitions, which leaves the MatMul after it without a shape when it is not folded.
#include "core/onnx/graph_builder.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/value_folding.h"
#include "support/shape_test_support.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;
using rooftop::test::foldedOnlyGraphOf;
using rooftop::test::intValuesOf;
using rooftop::test::realValuesOf;
using rooftop::test::tensorNamed;

namespace {

using Ints = std::vector<int64_t>;

// The only MatMul of the model: its MACs and output shape ("unknown" when not counted).
struct Counted {
    int64_t macs = -1;
    QString shape = "unknown";
};

Counted matMulOf(const Workload& w) {
    Counted c;
    for (const auto& layer : w.layers) {
        if (layer.op != "MatMul") continue;
        if (layer.supported) c.macs = layer.macs;
        if (layer.supported && !layer.outputShapes.empty())
            c.shape = QString::fromStdString(layer.outputShapes[0]);
    }
    return c;
}

} // namespace

class ValueFoldingTensor : public QObject {
    Q_OBJECT
private slots:
    // torch's F.pad(x, (0, 0, 0, 2, 0, 1)): its pads are pairs from the last axis, turned into ONNX's order
    // by Reshape [-1, 2], a reversing Slice, Transpose and Reshape [-1].
    void torchPadPairsThroughTranspose() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,5,5,8] x, float[8,16] w) => (y)
            <int64[6] torchPads = {0, 0, 0, 2, 0, 1}, int64[2] zeros = {0, 0}, int64[2] pairs = {-1, 2},
             int64[1] rs = {-1}, int64[1] re = {-9223372036854775807}, int64[1] ax0 = {0}, int64[1] back = {-1},
             int64[1] flat = {-1}> {
                full = Concat <axis = 0> (torchPads, zeros)
                paired = Reshape (full, pairs)
                reversed = Slice (paired, rs, re, ax0, back)
                swapped = Transpose <perm = [1, 0]> (reversed)
                onnxPads = Reshape (swapped, flat)
                pads = Cast <to = 7> (onnxPads)
                padded = Pad (x, pads)
                y = MatMul (padded, w)
            })";
        const Graph g = test::graphOf(model);
        QCOMPARE(intValuesOf(g, "swapped"), (Ints{0, 0, 0, 0, 0, 1, 2, 0}));
        QCOMPARE(test::shapeOf(g, "swapped"), QString("2x4"));
        QCOMPARE(test::shapeOf(g, "padded"), QString("1x6x7x8"));
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(6 * 7 * 8 * 16));
        QCOMPARE(c.shape, QString("1x6x7x16"));
    }

    // Pad of a shape vector (constant -1 in front of the last dim) as a Reshape target.
    void padOfAShapeVector() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4] x, float[4,5] w) => (y)
            <int64[1] last = {-1}, int64[1] end = {9223372036854775807}, int64[2] pads = {1, 0},
             int64 minus = {-1}> {
                s = Shape (x)
                c = Slice (s, last, end)
                target = Pad (c, pads, minus)
                r = Reshape (x, target)
                y = MatMul (r, w)
            })";
        const Graph g = test::graphOf(model);
        QCOMPARE(intValuesOf(g, "target"), (Ints{-1, 4}));
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(6 * 4 * 5));
        QCOMPARE(c.shape, QString("6x5"));
    }

    void tileOfAWindowSize() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,49,8] x, float[8,4] w) => (y)
            <int64[1] win = {7}, int64[1] two = {2}, int64[1] m1 = {-1}, int64[1] ch = {8}> {
                hw = Tile (win, two)
                target = Concat <axis = 0> (m1, hw, ch)
                r = Reshape (x, target)
                y = MatMul (r, w)
            })";
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(7 * 7 * 8 * 4));
        QCOMPARE(c.shape, QString("1x7x7x4"));
    }

    // torch's `shape[1:] = (7, 56)` on a shape: ScatterND into Shape's output.
    void scatterNDIntoAShape() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,49,8] x, float[56,3] w) => (y)
            <int64[2,1] at = {1, 2}, int64[2] sizes = {7, 56}> {
                s = Shape (x)
                target = ScatterND (s, at, sizes)
                r = Reshape (x, target)
                y = MatMul (r, w)
            })";
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(2 * 7 * 56 * 3));
        QCOMPARE(c.shape, QString("2x7x3"));
    }

    // Offsets of consecutive parts (CumSum, inclusive and exclusive) as Slice bounds.
    void cumSumOffsetsAsSliceBounds() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,5,8] x, float[8,4] w) => (y)
            <int64[2] sizes = {2, 3}, int64 zero = {0}, int64[1] one = {1}, int64[1] two = {2}> {
                ends = CumSum (sizes, zero)
                starts = CumSum <exclusive = 1> (sizes, zero)
                b = Slice (starts, one, two)
                e = Slice (ends, one, two)
                part = Slice (x, b, e, one)
                y = MatMul (part, w)
            })";
        const Graph g = test::graphOf(model);
        QCOMPARE(intValuesOf(g, "ends"), (Ints{2, 5}));
        QCOMPARE(intValuesOf(g, "starts"), (Ints{0, 2}));
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(3 * 8 * 4));
        QCOMPARE(c.shape, QString("1x3x4"));
    }

    void gatherElementsOfAShape() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,6] x, float[4,5] w) => (y) <int64[2] swap = {1, -2}> {
                s = Shape (x)
                target = GatherElements (s, swap)
                r = Reshape (x, target)
                y = MatMul (r, w)
            })";
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(6 * 4 * 5));
        QCOMPARE(c.shape, QString("6x5"));
    }

    // Swin's shifted-window attention on a 10 x 10 map, window 7: pad to a multiple of the window
    // ((7 - W % 7) % 7, torch's F.pad), then Shape -> Gather -> Div -> Where -> Concat -> Reshape ->
    // Transpose -> Reshape into windows of 49 tokens, and the qkv MatMul.
    void swinWindowPartition() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,10,10,16] x, float[16,48] w) => (y)
            <int64 i0 = {0}, int64 i1 = {1}, int64 im2 = {-2}, int64 seven = {7}, int64[1] ax = {0},
             int64[2] zeros2 = {0, 0}, int64[1] zero1 = {0}, int64[2] pairs = {-1, 2}, int64[1] rs = {-1},
             int64[1] re = {-9223372036854775807}, int64[1] back = {-1}, int64[1] flat = {-1},
             int64[1] win = {7}, int64[1] tokens = {49}, int64[1] ch = {16}> {
                s = Shape (x)
                h = Gather (s, i1)
                wd = Gather <axis = 0> (s, im2)
                restH = Mod (h, seven)
                restW = Mod (wd, seven)
                missingH = Sub (seven, restH)
                missingW = Sub (seven, restW)
                padB = Mod (missingH, seven)
                padR = Mod (missingW, seven)
                uB = Unsqueeze (padB, ax)
                uR = Unsqueeze (padR, ax)
                torchPads = Concat <axis = 0> (zeros2, zero1, uR, zero1, uB)
                full = Concat <axis = 0> (torchPads, zeros2)
                paired = Reshape (full, pairs)
                reversed = Slice (paired, rs, re, ax, back)
                swapped = Transpose <perm = [1, 0]> (reversed)
                onnxPads = Reshape (swapped, flat)
                pads = Cast <to = 7> (onnxPads)
                padded = Pad (x, pads)
                s2 = Shape (padded)
                b = Gather (s2, i0)
                isZero = Equal (b, i0)
                bb = Where (isZero, i1, b)
                hp = Gather (s2, i1)
                wp = Gather (s2, im2)
                nh = Div (hp, seven)
                nw = Div (wp, seven)
                ub = Unsqueeze (bb, ax)
                unh = Unsqueeze (nh, ax)
                unw = Unsqueeze (nw, ax)
                grid = Concat <axis = 0> (ub, unh, win, unw, win, ch)
                blocks = Reshape (padded, grid)
                t = Transpose <perm = [0, 1, 3, 2, 4, 5]> (blocks)
                rows = Mul (bb, nh)
                count = Mul (rows, nw)
                uc = Unsqueeze (count, ax)
                shape = Concat <axis = 0> (uc, tokens, ch)
                windows = Reshape (t, shape)
                y = MatMul (windows, w)
            })";
        const Graph g = test::graphOf(model);
        QCOMPARE(intValuesOf(g, "pads"), (Ints{0, 0, 0, 0, 0, 4, 4, 0}));
        QCOMPARE(intValuesOf(g, "grid"), (Ints{1, 2, 7, 2, 7, 16}));
        QCOMPARE(test::shapeOf(g, "t"), QString("1x2x2x7x7x16"));
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(4 * 49 * 16 * 48));
        QCOMPARE(c.shape, QString("4x49x48"));
    }

    // A real export (tests/fixtures/onnx/make_swin_tiny.py), MACs worked out by hand: patch embedding
    // 172,800; stage 1 (15 x 15 tokens padded to 21 x 21, 9 windows) 2 x 1,603,872; patch merging 131,072;
    // stage 2 (8 x 8 padded to 14 x 14, 4 windows, 2 heads) 2 x 1,941,760; head 320. Unfolded, only the first
    // counts.
    void torchvisionSwinExport() {
        const std::string path = std::string(ROOFTOP_TEST_FIXTURES_DIR) + "/onnx/swin_tiny.onnx";
        const Workload one = analyzeModelFile(path, {});
        QCOMPARE(one.totals.macs, int64_t(7395456));
        QVERIFY(one.totals.shapeUnknown.empty());
        AnalysisSettings four;
        four.dims.named["batch"] = 4;
        QCOMPARE(analyzeModelFile(path, four).totals.macs, int64_t(4 * 7395456));
    }

    void transposeWithDefaultPerm() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g () => (t, n) <int64[2,3] m = {1, 2, 3, 4, 5, 6}, int64[1,2,3] c = {1, 2, 3, 4, 5, 6}> {
                t = Transpose (m)
                n = Transpose <perm = [2, 0, 1]> (c)
            })");
        QCOMPARE(intValuesOf(g, "t"), (Ints{1, 4, 2, 5, 3, 6}));
        QCOMPARE(test::shapeOf(g, "t"), QString("3x2"));
        QCOMPARE(intValuesOf(g, "n"), (Ints{1, 4, 2, 5, 3, 6}));
        QCOMPARE(test::shapeOf(g, "n"), QString("3x1x2"));
    }

    void padModesAxesAndCropping() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 19]>
            g () => (c, e, r, wr, cut, ax)
            <int64[3] v = {1, 2, 3}, int64[2] two = {2, 2}, int64[2] crop = {-1, 1}, int64[2,2] m = {1, 2, 3, 4},
             int64[2] one = {1, 1}, int64 nine = {9}, int64[1] last = {-1}> {
                c = Pad (v, two)
                e = Pad <mode = "edge"> (v, two)
                r = Pad <mode = "reflect"> (v, two)
                wr = Pad <mode = "wrap"> (v, two)
                cut = Pad (v, crop, nine)
                ax = Pad (m, one, nine, last)
            })");
        QCOMPARE(intValuesOf(g, "c"), (Ints{0, 0, 1, 2, 3, 0, 0}));
        QCOMPARE(intValuesOf(g, "e"), (Ints{1, 1, 1, 2, 3, 3, 3}));
        QCOMPARE(intValuesOf(g, "r"), (Ints{3, 2, 1, 2, 3, 2, 1}));
        QCOMPARE(intValuesOf(g, "wr"), (Ints{2, 3, 1, 2, 3, 1, 2}));
        QCOMPARE(intValuesOf(g, "cut"), (Ints{2, 3, 9}));
        QCOMPARE(intValuesOf(g, "ax"), (Ints{9, 1, 2, 9, 9, 3, 4, 9}));
        QCOMPARE(test::shapeOf(g, "ax"), QString("2x4"));
    }

    // Before opset 11 the pads and the constant are attributes (the constant a float).
    void padAttributesBeforeOpset11() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 5, opset_import: ["" : 10]>
            g () => (p) <float[2] v = {1.5, 2.5}> {
                p = Pad <pads = [1, 2], value = 7.0> (v)
            })");
        QCOMPARE(realValuesOf(g, "p"), (std::vector<double>{7.0, 1.5, 2.5, 7.0, 7.0}));
    }

    void tileTwoAxes() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g () => (t) <int64[1,2] m = {1, 2}, int64[2] reps = {2, 2}> {
                t = Tile (m, reps)
            })");
        QCOMPARE(intValuesOf(g, "t"), (Ints{1, 2, 1, 2, 1, 2, 1, 2}));
        QCOMPARE(test::shapeOf(g, "t"), QString("2x4"));
    }

    void scatterNDRowsReductionsAndNegativeIndices() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 18]>
            g () => (rows, add, mul, mx, mn)
            <int64[2,2] m = {1, 2, 3, 4}, int64[1,1] last = {-1}, int64[1,2] row = {5, 6}, int64[2,2] cells = {0, 1, 0, 1},
             int64[2] both = {10, 20}> {
                rows = ScatterND (m, last, row)
                add = ScatterND <reduction = "add"> (m, cells, both)
                mul = ScatterND <reduction = "mul"> (m, cells, both)
                mx = ScatterND <reduction = "max"> (m, last, row)
                mn = ScatterND <reduction = "min"> (m, last, row)
            })");
        QCOMPARE(intValuesOf(g, "rows"), (Ints{1, 2, 5, 6}));
        QCOMPARE(intValuesOf(g, "add"), (Ints{1, 32, 3, 4}));
        QCOMPARE(intValuesOf(g, "mul"), (Ints{1, 400, 3, 4}));
        QCOMPARE(intValuesOf(g, "mx"), (Ints{1, 2, 5, 6}));
        QCOMPARE(intValuesOf(g, "mn"), (Ints{1, 2, 3, 4}));
    }

    void gatherElementsAlongAnAxis() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g () => (a, b) <int64[2,2] m = {1, 2, 3, 4}, int64[2,2] idx = {0, 0, -1, 0}> {
                a = GatherElements <axis = 1> (m, idx)
                b = GatherElements (m, idx)
            })");
        QCOMPARE(intValuesOf(g, "a"), (Ints{1, 1, 4, 3}));
        QCOMPARE(intValuesOf(g, "b"), (Ints{1, 2, 3, 2}));
    }

    void cumSumReverseAndAxis() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g () => (r, re, a1) <int64[3] v = {1, 2, 3}, int64[2,2] m = {1, 2, 3, 4}, int64 zero = {0},
             int64[1] minus = {-1}> {
                r = CumSum <reverse = 1> (v, zero)
                re = CumSum <reverse = 1, exclusive = 1> (v, zero)
                a1 = CumSum (m, minus)
            })");
        QCOMPARE(intValuesOf(g, "r"), (Ints{6, 5, 3}));
        QCOMPARE(intValuesOf(g, "re"), (Ints{5, 3, 0}));
        QCOMPARE(intValuesOf(g, "a1"), (Ints{1, 3, 3, 7}));
    }

    // Malformed operands leave the value unknown; nothing reads out of bounds or overflows.
    void gatherNDTuplesSlicesAndBatchDims() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] unused) => (a, b, c)
            <int64[2,3] d = {1, 2, 3, 4, 5, 6}, int64[2,2] pairs = {0, 1, 1, -1}, int64[1,1] row = {1},
             int64[2,1] perBatch = {1, 2}> {
                a = GatherND (d, pairs)
                b = GatherND (d, row)
                c = GatherND <batch_dims = 1> (d, perBatch)
            })");
        QCOMPARE(intValuesOf(g, "a"), (Ints{2, 6}));
        QCOMPARE(intValuesOf(g, "b"), (Ints{4, 5, 6}));
        QCOMPARE(test::shapeOf(g, "b"), QString("1x3"));
        QCOMPARE(intValuesOf(g, "c"), (Ints{2, 6}));
    }

    void triluUpperLowerAndOffset() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] unused) => (up, low)
            <int64[3,3] x = {1, 2, 3, 4, 5, 6, 7, 8, 9}, int64 minusOne = {-1}> {
                up = Trilu (x)
                low = Trilu <upper = 0> (x, minusOne)
            })");
        QCOMPARE(intValuesOf(g, "up"), (Ints{1, 2, 3, 0, 5, 6, 0, 0, 9}));
        QCOMPARE(intValuesOf(g, "low"), (Ints{0, 0, 0, 4, 0, 0, 7, 8, 0}));
    }

    // A mask's non-zero count as a Reshape target: the MatMul after it is counted only when NonZero folds.
    void nonZeroCountShapesTheMatMul() {
        const char* model = R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[6,4] x, float[8,5] w) => (y)
            <int64[2,3] mask = {0, 1, 0, 2, 0, 3}, int64 one = {1}, int64[1] rest = {-1}, int64[1] ax = {0}> {
                n = NonZero (mask)
                s = Shape (n)
                count = Gather (s, one)
                first = Unsqueeze (count, ax)
                target = Concat <axis = 0> (first, rest)
                r = Reshape (x, target)
                y = MatMul (r, w)
            })";
        const Graph g = test::graphOf(model);
        QCOMPARE(intValuesOf(g, "n"), (Ints{0, 1, 1, 1, 0, 2}));
        QCOMPARE(test::shapeOf(g, "n"), QString("2x3"));
        const Counted c = matMulOf(analyzeText(model));
        QCOMPARE(c.macs, int64_t(3 * 8 * 5));
        QCOMPARE(c.shape, QString("3x5"));
    }

    void refusesMalformedOperands() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 18]>
            g () => (t1, t2, p1, p2, p3, p4, i1, i2, s1, s2, s3, g1, g2, c1, c2)
            <int64[2,2] m = {1, 2, 3, 4}, int64[3] v = {1, 2, 3},
             int64[2] hugePads = {-9223372036854775807, 9223372036854775807}, int64[2] short = {1, 1},
             int64[2] cropAll = {-3, 0}, int64[3] three = {1, 1, 1}, int64[1] bigRep = {5000},
             int64[1] negRep = {-1}, int64[1,1] far = {3}, int64[1,1] one = {1}, int64[1] upd = {7},
             int64[1,1] first = {0}, int64[2] twoUpd = {7, 8}, int64[2,2] outOfRange = {0, 2, 0, 0},
             int64 five = {5}> {
                t1 = Transpose <perm = [0, 0]> (m)
                t2 = Transpose <perm = [0]> (m)
                p1 = Pad (v, hugePads)
                p2 = Pad (m, short)
                p3 = Pad <mode = "spiral"> (v, short)
                empty = Pad (v, cropAll)
                p4 = Pad <mode = "edge"> (empty, short)
                i1 = Tile (v, bigRep)
                i2 = Tile (v, negRep)
                s1 = ScatterND (v, far, upd)
                s2 = ScatterND (m, one, three)
                s3 = ScatterND (v, first, twoUpd)
                g1 = GatherElements <axis = 1> (m, outOfRange)
                g2 = GatherElements <axis = 2> (m, m)
                c1 = CumSum (v, five)
                c2 = CumSum (v, three)
            })");
        QCOMPARE(tensorNamed(g, "empty").intValues->size(), size_t(0));
        for (const char* name :
             {"t1", "t2", "p1", "p2", "p3", "p4", "i1", "i2", "s1", "s2", "s3", "g1", "g2", "c1", "c2"})
            QVERIFY2(!tensorNamed(g, name).intValues, name);
    }
};

ROOFTOP_TEST_CLASS(ValueFoldingTensor)
#include "test_value_folding_tensor.moc"
