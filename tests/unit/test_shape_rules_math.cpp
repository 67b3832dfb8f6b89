// SPDX-License-Identifier: GPL-3.0-or-later
// Our own shape rules for arithmetic operators (elementwise, matrix products, reductions, windows,
// resizing, recurrent layers), applied directly to each node and through whole opset 18+ models.
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

class ShapeRulesMath : public QObject {
    Q_OBJECT
private slots:
    void broadcastingElementwise() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[8,1,6,1] a, float[7,1,5] b, float[5] c, bool[1] m) => (s, v, eq, w, cl, p)
            <float[1] zero = {0.0}> {
                s = Add (a, b)
                v = Sum (a, b, c)
                eq = Equal (a, b)
                w = Where (m, a, c)
                cl = Clip (a)
                p = PRelu (b, c)
            })");
        DataType type = DataType::Undefined;
        QCOMPARE(ruleShape(g, "s"), QString("8x7x6x5"));
        QCOMPARE(ruleShape(g, "v"), QString("8x7x6x5"));
        QCOMPARE(ruleShape(g, "eq", &type), QString("8x7x6x5"));
        QCOMPARE(type, DataType::Bool);
        QCOMPARE(ruleShape(g, "w", &type), QString("8x1x6x5"));
        QCOMPARE(type, DataType::Float32);
        QCOMPARE(ruleShape(g, "cl"), QString("8x1x6x1"));
        QCOMPARE(ruleShape(g, "p"), QString("7x1x5"));
    }

    void castChangesTypeOnly() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x, int32[1] like) => (a, b, d, mask) {
                a = Cast <to = 10> (x)
                b = CastLike (x, like)
                d, mask = Dropout (x)
            })");
        DataType type = DataType::Undefined;
        QCOMPARE(ruleShape(g, "a", &type), QString("2x3"));
        QCOMPARE(type, DataType::Float16);
        QCOMPARE(ruleShape(g, "b", &type), QString("2x3"));
        QCOMPARE(type, DataType::Int32);
        QCOMPARE(ruleShape(g, "mask", &type), QString("2x3"));
        QCOMPARE(type, DataType::Bool);
    }

    void matMulNumpyRules() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,1,32,16] a, float[3,16,8] b, float[16] v, float[16,8] m, float[5,2,16] c)
              => (batched, vm, mv, vv, gm) <float[8,16] w = {0.0}> {
                batched = MatMul (a, b)
                vm = MatMul (v, m)
                mv = MatMul (c, v)
                vv = MatMul (v, v)
                gm = Gemm <transB = 1> (vm2, w)
                vm2 = Unsqueeze (v, zero)
                zero = Constant <value = int64[1] {0}> ()
            })");
        QCOMPARE(ruleShape(g, "batched"), QString("4x3x32x8"));
        QCOMPARE(ruleShape(g, "vm"), QString("8"));
        QCOMPARE(ruleShape(g, "mv"), QString("5x2"));
        QCOMPARE(ruleShape(g, "vv"), QString("scalar"));
        QCOMPARE(ruleShape(g, "gm"), QString("1x8"));
    }

    void gemmTransposes() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[64,10] a, float[20,64] b) => (y) {
                y = Gemm <transA = 1, transB = 1> (a, b)
            })");
        QCOMPARE(ruleShape(g, "y"), QString("10x20"));
    }

    // Opset 18 moved Reduce* axes to an input; ONNX 1.12 only knows the attribute form.
    void reduceWithAxesInputAtOpset18() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 18]>
            g (float[2,3,4,5] x) => (a, b, c, d, e) <int64[2] ax = {1, -1}, int64[0] none = {}> {
                a = ReduceMean (x, ax)
                b = ReduceMax <keepdims = 0> (x, ax)
                c = ReduceL2 <keepdims = 0> (x)
                d = ReduceSumSquare <noop_with_empty_axes = 1> (x, none)
                e = ReduceLogSumExp (x)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("2x1x4x1"));
        QCOMPARE(shapeOf(g, "b"), QString("2x4"));
        QCOMPARE(shapeOf(g, "c"), QString("scalar"));
        QCOMPARE(shapeOf(g, "d"), QString("2x3x4x5"));
        QCOMPARE(shapeOf(g, "e"), QString("1x1x1x1"));
    }

    void reduceAttributeAndArgTopK() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 13]>
            g (float[2,3,4] x) => (r, am, v, i) <int64[1] k = {2}> {
                r = ReduceMean <axes = [-1]> (x)
                am = ArgMax <axis = 1, keepdims = 0> (x)
                v, i = TopK <axis = 1> (x, k)
            })");
        DataType type = DataType::Undefined;
        QCOMPARE(ruleShape(g, "r"), QString("2x3x1"));
        QCOMPARE(ruleShape(g, "am", &type), QString("2x4"));
        QCOMPARE(type, DataType::Int64);
        QCOMPARE(ruleShape(g, "v"), QString("2x2x4"));
        QCOMPARE(ruleShape(g, "i", &type), QString("2x2x4"));
        QCOMPARE(type, DataType::Int64);
    }

    void convolutionWindows() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,224,224] x) => (a, b, c, d, e)
            <float[64,3,7,7] w = {0.0}, float[16,3,3,3] k = {0.0}, float[3,8,4,4] t = {0.0}> {
                a = Conv <strides = [2, 2], pads = [3, 3, 3, 3]> (x, w)
                b = Conv <dilations = [2, 2]> (x, k)
                c = Conv <auto_pad = "SAME_UPPER", strides = [2, 2]> (x, k)
                d = ConvTranspose <strides = [2, 2], pads = [1, 1, 1, 1]> (x, t)
                e = ConvTranspose <strides = [2, 2], pads = [1, 1, 1, 1], output_padding = [1, 1]> (x, t)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("1x64x112x112"));
        QCOMPARE(ruleShape(g, "b"), QString("1x16x220x220"));
        QCOMPARE(ruleShape(g, "c"), QString("1x16x112x112"));
        QCOMPARE(ruleShape(g, "d"), QString("1x8x448x448"));
        QCOMPARE(ruleShape(g, "e"), QString("1x8x449x449"));
    }

    void poolingCeilModeAndGlobal() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64,112,112] x, float[1,8,5,5] s) => (a, b, c, gp)
            {
                a = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x)
                b = MaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (x)
                c = AveragePool <kernel_shape = [2, 2], strides = [2, 2], pads = [1, 1, 1, 1], ceil_mode = 1> (s)
                gp = GlobalAveragePool (x)
            })");
        QCOMPARE(ruleShape(g, "a"), QString("1x64x56x56"));
        QCOMPARE(ruleShape(g, "b"), QString("1x64x56x56"));
        // ceil((5 + 2 - 2) / 2) + 1 = 4, but the last window would start in the end padding (as in
        // PyTorch and ONNX Runtime), so 3.
        QCOMPARE(ruleShape(g, "c"), QString("1x8x3x3"));
        QCOMPARE(ruleShape(g, "gp"), QString("1x64x1x1"));
    }

    // AveragePool gained dilations at opset 19, LpPool ceil_mode at 18.
    void poolingAtOpset19() {
        const Graph g = graphOf(R"(
            <ir_version: 9, opset_import: ["" : 19]>
            g (float[1,4,32,32] x) => (a, b, m) {
                a = AveragePool <kernel_shape = [3, 3], dilations = [2, 2]> (x)
                b = LpPool <kernel_shape = [2, 2], strides = [3, 3], ceil_mode = 1> (x)
                m = MaxPool <kernel_shape = [2, 2], auto_pad = "SAME_LOWER", strides = [3, 3]> (x)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("1x4x28x28"));
        QCOMPARE(shapeOf(g, "b"), QString("1x4x11x11"));
        QCOMPARE(shapeOf(g, "m"), QString("1x4x11x11"));
    }

    void resizeSizesScalesAxes() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 19]>
            g (float[1,3,20,30] x) => (a, b, c, d, e)
            <float[4] sc = {1.0, 1.0, 2.0, 0.5}, int64[4] sz = {1, 3, 64, 64}, float[2] sc2 = {3.0, 1.5},
             int64[2] sz2 = {40, 40}> {
                a = Resize (x, , sc)
                b = Resize (x, , , sz)
                c = Resize <axes = [2, 3]> (x, , sc2)
                d = Resize <axes = [-2, -1], keep_aspect_ratio_policy = "not_larger"> (x, , , sz2)
                e = Resize <axes = [2, 3], keep_aspect_ratio_policy = "not_smaller"> (x, , , sz2)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("1x3x40x15"));
        QCOMPARE(shapeOf(g, "b"), QString("1x3x64x64"));
        QCOMPARE(shapeOf(g, "c"), QString("1x3x60x45"));
        QCOMPARE(shapeOf(g, "d"), QString("1x3x27x40"));
        QCOMPARE(shapeOf(g, "e"), QString("1x3x40x60"));
    }

    void recurrentLayouts() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[32,4,16] x, float[4,32,16] xb) => (y, yh, yc, z, zh)
            <float[2,96,16] w = {0.0}, float[2,96,24] r = {0.0}, float[1,128,16] lw = {0.0},
             float[1,128,32] lr = {0.0}> {
                y, yh, yc = LSTM <hidden_size = 32> (x, lw, lr)
                z, zh = GRU <hidden_size = 24, direction = "bidirectional", layout = 1> (xb, w, r)
            })");
        QCOMPARE(ruleShape(g, "y"), QString("32x1x4x32"));
        QCOMPARE(ruleShape(g, "yh"), QString("1x4x32"));
        QCOMPARE(ruleShape(g, "yc"), QString("1x4x32"));
        QCOMPARE(ruleShape(g, "z"), QString("4x32x2x24"));
        QCOMPARE(ruleShape(g, "zh"), QString("4x2x24"));
    }

    void layerNormalizationStatistics() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,7,768] x) => (y, mean, inv) <float[768] s = {0.0}, float[768] b = {0.0}> {
                y, mean, inv = LayerNormalization <axis = -1> (x, s, b)
            })");
        QCOMPARE(ruleShape(g, "y"), QString("2x7x768"));
        QCOMPARE(ruleShape(g, "mean"), QString("2x7x1"));
        QCOMPARE(ruleShape(g, "inv"), QString("2x7x1"));
    }

    // Ops newer than ONNX 1.12 (opset 18-24) keep their input's shape.
    void newerOpsSameAsInput() {
        const Graph g = graphOf(R"(
            <ir_version: 10, opset_import: ["" : 23]>
            g (float[2,8,16] x) => (a, b, c, d, e) <float[16] s = {0.0}, float[8] gs = {0.0}, float[8] gb = {0.0}> {
                a = Gelu <approximate = "tanh"> (x)
                b = Mish (x)
                c = RMSNormalization (x, s)
                d = GroupNormalization <num_groups = 4> (x, gs, gb)
                e = Swish (x)
            })");
        QCOMPARE(shapeOf(g, "a"), QString("2x8x16"));
        QCOMPARE(shapeOf(g, "b"), QString("2x8x16"));
        QCOMPARE(shapeOf(g, "c"), QString("2x8x16"));
        QCOMPARE(shapeOf(g, "d"), QString("2x8x16"));
        QCOMPARE(shapeOf(g, "e"), QString("2x8x16"));
    }
};

ROOFTOP_TEST_CLASS(ShapeRulesMath)
#include "test_shape_rules_math.moc"
