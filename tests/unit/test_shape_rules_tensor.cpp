// SPDX-License-Identifier: GPL-3.0-or-later
// Our own shape rules for data-movement operators, applied directly to each node (independent of what
// ONNX's inference concluded for it).
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

class ShapeRulesTensor : public QObject {
    Q_OBJECT
private slots:
    void reshapeZeroMinusOneAndAllowZero() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4] x, float[0,4] e) => (a, b, c, d)
            <int64[3] s1 = {0, -1, 2}, int64[2] s2 = {-1, 4}, int64[2] s3 = {0, 4}, int64[1] s4 = {-1}> {
                a = Reshape (x, s1)
                b = Reshape (x, s2)
                c = Reshape <allowzero = 1> (e, s3)
                d = Reshape (x, s4)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("2x6x2"));
        QCOMPARE(ruleShape(g, "b"), QString("6x4"));
        QCOMPARE(ruleShape(g, "c"), QString("0x4"));
        QCOMPARE(ruleShape(g, "d"), QString("24"));
    }

    void flattenExpandTile() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4,5] x, float[3,1] y) => (f0, f2, fn, e, t)
            <int64[3] shape = {2, 1, 6}, int64[2] reps = {2, 3}> {
                f0 = Flatten <axis = 0> (x)
                f2 = Flatten <axis = 2> (x)
                fn = Flatten <axis = -1> (x)
                e = Expand (y, shape)
                t = Tile (y, reps)
            })");
        QCOMPARE(ruleShape(g, "f0"), QString("1x120"));
        QCOMPARE(ruleShape(g, "f2"), QString("6x20"));
        QCOMPARE(ruleShape(g, "fn"), QString("24x5"));
        QCOMPARE(ruleShape(g, "e"), QString("2x3x6"));
        QCOMPARE(ruleShape(g, "t"), QString("6x3"));
    }

    void constantOfShapeTypeFromValue() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] x) => (a, b) <int64[2] shape = {3, 5}> {
                a = ConstantOfShape (shape)
                b = ConstantOfShape <value = int64[1] {7}> (shape)
            })");
        DataType type = DataType::Undefined;
        QCOMPARE(ruleShape(g, "a", &type), QString("3x5"));
        QCOMPARE(type, DataType::Float32);
        QCOMPARE(ruleShape(g, "b", &type), QString("3x5"));
        QCOMPARE(type, DataType::Int64);
    }

    void rangeIntegerAndFloat() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1] x) => (a, b, c)
            <int64 s = {10}, int64 l = {0}, int64 d = {-3}, float fs = {0.0}, float fl = {1.0}, float fd = {0.25}> {
                a = Range (s, l, d)
                b = Range (fs, fl, fd)
                c = Range (l, s, d)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("4"));
        QCOMPARE(ruleShape(g, "b"), QString("4"));
        QCOMPARE(ruleShape(g, "c"), QString("0"));
    }

    void sliceClampsLikeTheSpec() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[20,10,5] x) => (a, b, c, d)
            <int64[2] st = {-3, 1}, int64[2] en = {9223372036854775807, -1}, int64[2] ax = {0, 2},
             int64[1] s1 = {-1}, int64[1] e1 = {-9223372036854775807}, int64[1] a1 = {1}, int64[1] k1 = {-3},
             int64[1] s2 = {100}, int64[1] e2 = {200}, int64[1] s3 = {0}, int64[1] e3 = {20}, int64[1] k3 = {7}> {
                a = Slice (x, st, en, ax)
                b = Slice (x, s1, e1, a1, k1)
                c = Slice (x, s2, e2)
                d = Slice (x, s3, e3, s3, k3)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("3x10x3"));
        QCOMPARE(ruleShape(g, "b"), QString("20x4x5"));
        QCOMPARE(ruleShape(g, "c"), QString("0x10x5"));
        QCOMPARE(ruleShape(g, "d"), QString("3x10x5"));
    }

    void sliceAttributesBeforeOpset10() {
        const Graph g = graphOf(R"(
            <ir_version: 4, opset_import: ["" : 9]>
            g (float[8,6] x) => (y) {
                y = Slice <starts = [1], ends = [-1], axes = [1]> (x)
            })");
        QCOMPARE(ruleShape(g, "y"), QString("8x4"));
    }

    void squeezeUnsqueezeWithAxesInput() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,1,5] x) => (a, b, c) <int64[1] ax = {-2}, int64[2] ux = {0, -1}> {
                a = Squeeze (x, ax)
                b = Squeeze (x)
                c = Unsqueeze (x, ux)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("1x3x5"));
        QCOMPARE(ruleShape(g, "b"), QString("3x5"));
        QCOMPARE(ruleShape(g, "c"), QString("1x1x3x1x5x1"));
    }

    void squeezeUnsqueezeAttributesAtOpset11() {
        const Graph g = graphOf(R"(
            <ir_version: 6, opset_import: ["" : 11]>
            g (float[3,1,5] x) => (a, b) {
                a = Squeeze <axes = [1]> (x)
                b = Unsqueeze <axes = [1, 3]> (x)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("3x5"));
        QCOMPARE(ruleShape(g, "b"), QString("3x1x1x1x5"));
    }

    void concatGatherTranspose() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4] x, float[2,5,4] y, int64[6,7] idx) => (c, g1, g0, t, td, ge)
            <int64 one = {1}> {
                c = Concat <axis = -2> (x, y)
                g1 = Gather <axis = 1> (x, idx)
                g0 = Gather (x, one)
                t = Transpose <perm = [2, 0, 1]> (x)
                td = Transpose (x)
                ge = GatherElements <axis = 1> (y, y_idx)
                y_idx = Cast <to = 7> (y)
            })");
        QCOMPARE(ruleShape(g, "c"), QString("2x8x4"));
        QCOMPARE(ruleShape(g, "g1"), QString("2x6x7x4"));
        QCOMPARE(ruleShape(g, "g0"), QString("3x4"));
        QCOMPARE(ruleShape(g, "t"), QString("4x2x3"));
        QCOMPARE(ruleShape(g, "td"), QString("4x3x2"));
        QCOMPARE(ruleShape(g, "ge"), QString("2x5x4"));
    }

    void splitBySizesAndEvenly() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,10] x) => (a, b, c, d) <int64[2] sizes = {3, 7}> {
                a, b = Split <axis = 1> (x, sizes)
                c, d = Split <axis = -1> (x)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("2x3"));
        QCOMPARE(ruleShape(g, "b"), QString("2x7"));
        QCOMPARE(ruleShape(g, "c"), QString("2x5"));
        QCOMPARE(ruleShape(g, "d"), QString("2x5"));
    }

    // Opset 18 added num_outputs with a smaller last chunk; ONNX 1.12 does not know it.
    void splitNumOutputsAtOpset18() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 18]>
            g (float[2,10] x) => (a, b, c) {
                a, b, c = Split <axis = 1, num_outputs = 3> (x)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("2x4"));
        QCOMPARE(shapeOf(g, "b"), QString("2x4"));
        QCOMPARE(shapeOf(g, "c"), QString("2x2"));
    }

    void padWithAxesAtOpset18() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 18]>
            g (float[1,3,8,8] x) => (a, b) <int64[4] p2 = {1, 2, 3, 4}, int64[2] ax = {-1, 2},
             int64[8] p4 = {0, 0, 1, -1, 0, 0, 1, -1}> {
                a = Pad (x, p2, , ax)
                b = Pad (x, p4)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("1x3x14x12"));
        QCOMPARE(shapeOf(g, "b"), QString("1x3x10x6"));
    }

    void padAttributeBeforeOpset11() {
        const Graph g = graphOf(R"(
            <ir_version: 4, opset_import: ["" : 10]>
            g (float[1,3,8,8] x) => (y) {
                y = Pad <pads = [0, 0, 2, 2, 0, 0, 2, 2]> (x)
            })");
        QCOMPARE(ruleShape(g, "y"), QString("1x3x12x12"));
    }

    void shapeSizeDepthToSpace() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,8,4,6] x) => (s, s2, n, d2s, s2d) {
                s = Shape (x)
                s2 = Shape <start = -3, end = 100> (x)
                n = Size (x)
                d2s = DepthToSpace <blocksize = 2> (x)
                s2d = SpaceToDepth <blocksize = 2> (x)
            })");
        QCOMPARE(ruleShape(g, "s"), QString("4"));
        QCOMPARE(ruleShape(g, "s2"), QString("3"));
        QCOMPARE(ruleShape(g, "n"), QString("scalar"));
        QCOMPARE(ruleShape(g, "d2s"), QString("1x2x8x12"));
        QCOMPARE(ruleShape(g, "s2d"), QString("1x32x2x3"));
    }
};

ROOFTOP_TEST_CLASS(ShapeRulesTensor)
#include "test_shape_rules_tensor.moc"
