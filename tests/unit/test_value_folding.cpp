// SPDX-License-Identifier: GPL-3.0-or-later
// Integer value folding: the shape arithmetic exporters write for run-time Reshape targets.
#include "core/onnx/graph_builder.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/tensor_values.h"
#include "core/onnx/value_folding.h"
#include "support/shape_test_support.h"
#include "support/test_registry.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::foldedOnlyGraphOf;
using rooftop::test::graphOf;
using rooftop::test::intValuesOf;
using rooftop::test::realValuesOf;
using rooftop::test::shapeOf;
using rooftop::test::tensorNamed;

namespace {

using Ints = std::vector<int64_t>;

} // namespace

class ValueFolding : public QObject {
    Q_OBJECT
private slots:
    // The ViT/BERT pattern: Shape -> Gather -> Div -> Cast -> Unsqueeze -> Concat -> Reshape.
    void exportedReshapeChainResolves() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[batch,197,768] x) => (y)
            <int64 zero = {0}, int64 one = {1}, int64 two = {2}, int64 twelve = {12}, int64[1] ax = {0},
             int64[1] heads = {12}> {
                s = Shape (x)
                b = Gather <axis = 0> (s, zero)
                n = Gather <axis = 0> (s, one)
                width = Gather <axis = 0> (s, two)
                hd = Div (width, twelve)
                c = Cast <to = 7> (hd)
                ub = Unsqueeze (b, ax)
                un = Unsqueeze (n, ax)
                uc = Unsqueeze (c, ax)
                shape = Concat <axis = 0> (ub, un, heads, uc)
                y = Reshape (x, shape)
            })");
        QCOMPARE(intValuesOf(g, "s"), (Ints{1, 197, 768}));
        QCOMPARE(intValuesOf(g, "hd"), (Ints{64}));
        QCOMPARE(shapeOf(g, "c"), QString("scalar"));
        QCOMPARE(intValuesOf(g, "shape"), (Ints{1, 197, 12, 64}));
        QCOMPARE(shapeOf(g, "y"), QString("1x197x12x64"));
    }

    // TF2ONNX (opset 11, NHWC): Pad's pads come from Split of a constant (no axis: 0) and Concat.
    void tf2onnxPadsFromSplitAndConcat() {
        const Graph g = graphOf(R"(
            <ir_version: 6, opset_import: ["" : 11]>
            g (float[1,8,8,3] x) => (y)
            <int64[8] pads = {0, 1, 1, 0, 0, 1, 1, 0}, int64[4] perm = {0, 3, 1, 2}> {
                begin, end = Split <split = [4, 4]> (pads)
                joined = Concat <axis = 0> (begin, end)
                padded = Pad (x, joined)
                y = Transpose <perm = [0, 3, 1, 2]> (padded)
            })");
        QCOMPARE(intValuesOf(g, "begin"), (Ints{0, 1, 1, 0}));
        QCOMPARE(intValuesOf(g, "end"), (Ints{0, 1, 1, 0}));
        QCOMPARE(intValuesOf(g, "joined"), (Ints{0, 1, 1, 0, 0, 1, 1, 0}));
        QCOMPARE(shapeOf(g, "padded"), QString("1x10x10x3"));
        QCOMPARE(shapeOf(g, "y"), QString("1x3x10x10"));
    }

    // Split into equal parts (no split sizes), along a non-zero axis, and with a split input (opset 13).
    void splitFoldsEveryOutput() {
        const Graph equal = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 13]>
            g () => (a, b, c)
            <int64[2,3] m = {1, 2, 3, 4, 5, 6}, int64[2] sizes = {2, 1}> {
                a, b = Split <axis = 1> (m, sizes)
                c = Identity (a)
            })");
        QCOMPARE(intValuesOf(equal, "a"), (Ints{1, 2, 4, 5}));
        QCOMPARE(intValuesOf(equal, "b"), (Ints{3, 6}));
        const Graph halves = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 13]>
            g () => (p, q)
            <int64[6] v = {1, 2, 3, 4, 5, 6}> {
                p, q = Split (v)
            })");
        QCOMPARE(intValuesOf(halves, "p"), (Ints{1, 2, 3}));
        QCOMPARE(intValuesOf(halves, "q"), (Ints{4, 5, 6}));
        // sizes that do not add up to the axis are left unfolded
        const Graph wrong = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 13]>
            g () => (p, q)
            <int64[6] v = {1, 2, 3, 4, 5, 6}, int64[2] sizes = {2, 2}> {
                p, q = Split (v, sizes)
            })");
        QCOMPARE(intValuesOf(wrong, "p"), (Ints{-999}));
    }

    void shapeStartEndAndSize() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,5,7] x) => (a, b, c) {
                a = Shape <start = 1, end = -1> (x)
                b = Shape <start = -2> (x)
                c = Size (x)
            })");
        QCOMPARE(intValuesOf(g, "a"), (Ints{3, 5}));
        QCOMPARE(intValuesOf(g, "b"), (Ints{5, 7}));
        QCOMPARE(intValuesOf(g, "c"), (Ints{210}));
    }

    void gatherNegativeAndVectorIndices() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,5,7] x) => (a, b) <int64 last = {-1}, int64[3] pick = {-1, 0, 2}> {
                s = Shape (x)
                a = Gather (s, last)
                b = Gather (s, pick)
            })");
        QCOMPARE(intValuesOf(g, "a"), (Ints{7}));
        QCOMPARE(shapeOf(g, "a"), QString("scalar"));
        QCOMPARE(intValuesOf(g, "b"), (Ints{7, 2, 5}));
    }

    void integerDivisionAndModulo() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] x) => (d, m, f, n, a) <int64[2] p = {-7, 7}, int64 q = {2}> {
                d = Div (p, q)
                m = Mod (p, q)
                f = Mod <fmod = 1> (p, q)
                n = Neg (p)
                a = Abs (p)
            })");
        QCOMPARE(intValuesOf(g, "d"), (Ints{-3, 3}));
        QCOMPARE(intValuesOf(g, "m"), (Ints{1, 1}));
        QCOMPARE(intValuesOf(g, "f"), (Ints{-1, 1}));
        QCOMPARE(intValuesOf(g, "n"), (Ints{7, -7}));
        QCOMPARE(intValuesOf(g, "a"), (Ints{7, 7}));
    }

    // Some exporters compute sizes in float: Cast -> Div -> Floor/Ceil -> Cast back.
    void floatRoundTripThroughFloorAndCeil() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,225,224] x) => (lo, hi) <int64 two = {2}, float f2 = {2.0}> {
                s = Shape (x)
                h = Gather (s, two)
                hf = Cast <to = 1> (h)
                q = Div (hf, f2)
                fl = Floor (q)
                ce = Ceil (q)
                lo = Cast <to = 7> (fl)
                hi = Cast <to = 7> (ce)
            })");
        QCOMPARE(realValuesOf(g, "q"), (std::vector<double>{112.5}));
        QCOMPARE(intValuesOf(g, "lo"), (Ints{112}));
        QCOMPARE(intValuesOf(g, "hi"), (Ints{113}));
    }

    void sliceSqueezeConcat() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,8,16,32] x) => (a, b, c, r)
            <int64[1] s0 = {-2}, int64[1] e0 = {9223372036854775807}, int64[1] s1 = {3}, int64[1] e1 = {0},
             int64[1] ax = {0}, int64[1] st = {-2}, int64[1] m1 = {-1}> {
                s = Shape (x)
                a = Slice (s, s0, e0)
                b = Slice (s, s1, e1, ax, st)
                one = Slice (s, s1, e0)
                c = Squeeze (one, ax)
                r = Concat <axis = 0> (m1, a, b)
            })");
        QCOMPARE(intValuesOf(g, "a"), (Ints{16, 32}));
        QCOMPARE(intValuesOf(g, "b"), (Ints{32, 8}));
        QCOMPARE(intValuesOf(g, "c"), (Ints{32}));
        QCOMPARE(shapeOf(g, "c"), QString("scalar"));
        QCOMPARE(intValuesOf(g, "r"), (Ints{-1, 16, 32, 32, 8}));
    }

    // torch's expand pattern: ConstantOfShape -> Mul(-1) -> Equal -> Where -> Expand.
    void equalWhereExpandPattern() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,1,768] cls) => (y) <int64[1] rank = {3}, int64 minus = {-1}, int64[3] want = {1, -1, -1}> {
                ones = ConstantOfShape <value = int64[1] {1}> (rank)
                neg = Mul (ones, minus)
                same = Equal (want, neg)
                target = Where (same, ones, want)
                y = Expand (cls, target)
            })");
        QCOMPARE(intValuesOf(g, "ones"), (Ints{1, 1, 1}));
        QCOMPARE(tensorNamed(g, "ones").type, DataType::Int64);
        QCOMPARE(intValuesOf(g, "same"), (Ints{0, 1, 1}));
        QCOMPARE(tensorNamed(g, "same").type, DataType::Bool);
        QCOMPARE(intValuesOf(g, "target"), (Ints{1, 1, 1}));
        QCOMPARE(shapeOf(g, "y"), QString("1x1x768"));
    }

    void rangeReduceAndMinMax() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4] x) => (r, p, sm, lo, hi, e)
            <int64 start = {2}, int64 limit = {11}, int64 step = {3}, int64[1] ax = {0}, int64[3] cap = {3, 3, 3}> {
                r = Range (start, limit, step)
                s = Shape (x)
                p = ReduceProd <keepdims = 0> (s)
                sm = ReduceSum <keepdims = 1> (s, ax)
                lo = Min (s, cap)
                hi = Max (s, cap)
                e = Expand (start, s)
            })");
        QCOMPARE(intValuesOf(g, "r"), (Ints{2, 5, 8}));
        QCOMPARE(intValuesOf(g, "p"), (Ints{24}));
        QCOMPARE(shapeOf(g, "p"), QString("scalar"));
        QCOMPARE(intValuesOf(g, "sm"), (Ints{9}));
        QCOMPARE(shapeOf(g, "sm"), QString("1"));
        QCOMPARE(intValuesOf(g, "lo"), (Ints{2, 3, 3}));
        QCOMPARE(intValuesOf(g, "hi"), (Ints{3, 3, 4}));
        QCOMPARE(shapeOf(g, "e"), QString("2x3x4"));
        QCOMPARE(intValuesOf(g, "e").size(), size_t(24));
    }

    void reshapeFlattenIdentityOfValues() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] x) => (a, b, c, n) <int64[2,3] v = {1, 2, 3, 4, 5, 6}, int64[1] flat = {-1}> {
                a = Reshape (v, flat)
                b = Flatten <axis = 0> (v)
                c = Identity (a)
                n = Not (bits)
                bits = Cast <to = 9> (a)
            })");
        QCOMPARE(intValuesOf(g, "a"), (Ints{1, 2, 3, 4, 5, 6}));
        QCOMPARE(shapeOf(g, "b"), QString("1x6"));
        QCOMPARE(intValuesOf(g, "c"), (Ints{1, 2, 3, 4, 5, 6}));
    }

    void castToNarrowTypeAndBool() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] x) => (a, b, c) <float[3] f = {-2.7, 0.0, 3.9}, int64[1] big = {5000000000}> {
                a = Cast <to = 7> (f)
                b = Cast <to = 9> (f)
                c = Cast <to = 6> (big)
            })");
        QCOMPARE(intValuesOf(g, "a"), (Ints{-2, 0, 3}));
        QCOMPARE(intValuesOf(g, "b"), (Ints{1, 0, 1}));
        QVERIFY(!tensorNamed(g, "c").intValues); // out of int32 range: not folded
    }

    void refusesWhatItCannotFoldSafely() {
        const Graph g = foldedOnlyGraphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] x) => (z, o, big, bad)
            <int64[2] p = {4, 9223372036854775807}, int64 zero = {0}, int64 two = {2}, int64[1] n = {5000},
             int64[1] neg = {-3}, int64 five = {5}> {
                z = Div (p, zero)
                o = Mul (p, two)
                big = ConstantOfShape <value = int64[1] {1}> (n)
                bad = Gather (p, five)
            })");
        QVERIFY(!tensorNamed(g, "z").intValues);
        QVERIFY(!tensorNamed(g, "o").intValues);
        QVERIFY(!tensorNamed(g, "big").intValues);
        QVERIFY(!tensorNamed(g, "bad").intValues);
    }

    // foldIntegerValues works on any Graph, e.g. one assembled by hand.
    void foldsAHandBuiltGraph() {
        Graph g;
        const int x = g.addTensor("x");
        g.tensors[static_cast<size_t>(x)].dims = {4, 6};
        g.tensors[static_cast<size_t>(x)].shapeKnown = true;
        const int s = g.addTensor("s");
        const int two = g.addTensor("two");
        Tensor& t = g.tensors[static_cast<size_t>(two)];
        t.type = DataType::Int64;
        t.shapeKnown = true;
        t.intValues = Ints{2};
        const int d = g.addTensor("d");
        Node shape;
        shape.opType = "Shape";
        shape.inputs = {x};
        shape.outputs = {s};
        Node div;
        div.opType = "Div";
        div.inputs = {s, two};
        div.outputs = {d};
        g.nodes = {shape, div};
        foldIntegerValues(g);
        QCOMPARE(*g.tensors[static_cast<size_t>(d)].intValues, (Ints{2, 3}));
        QCOMPARE(g.tensors[static_cast<size_t>(d)].shapeText(), std::string("2"));
        QVERIFY(!foldNodeValues(g, 99));
    }
};

ROOFTOP_TEST_CLASS(ValueFolding)
#include "test_value_folding.moc"
