// SPDX-License-Identifier: GPL-3.0-or-later
// Pooling, resampling and RoI rules (core/cost/pooling_rules.cpp): exact hand-computed counts.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

// The single layer of a one-node model.
LayerCount onlyLayer(const std::string& text) {
    const Workload w = analyzeText(text);
    if (w.layers.size() != 1) throw std::runtime_error("expected one layer");
    return w.layers.front();
}

} // namespace

class PoolingCosts : public QObject {
    Q_OBJECT
private slots:
    void maxPool2d() {
        // Y = 64 x 56 x 56 = 200704 outputs, K = 9: Y x 8 compares.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64,112,112] x) => (float[1,64,56,56] y) {
                y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x)
            })");
        QCOMPARE(l.kind, OpKind::Vector);
        QCOMPARE(l.macs, int64_t(0));
        QCOMPARE(l.flops, int64_t(1605632));
        QCOMPARE(l.sfuOps, int64_t(0));
        QCOMPARE(l.weightBytes, int64_t(0));
        QCOMPARE(l.inputBytes, int64_t(3211264));
        QCOMPARE(l.outputBytes, int64_t(802816));
    }

    void maxPool3dCountsEveryKernelDim() {
        // Y = 2 x 4 x 4 x 4 = 128, K = 27: 128 x 26.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,2,4,4,4] x) => (float[1,2,4,4,4] y) {
                y = MaxPool <kernel_shape = [3, 3, 3], pads = [1, 1, 1, 1, 1, 1]> (x)
            })");
        QCOMPARE(l.flops, int64_t(3328));
    }

    void averagePool3dCountsEveryKernelDim() {
        // Y = 4 x 4 x 4 x 4 = 256, K = 8 (not the truncated 2 x 2): 256 x 8 adds + 256 divides.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,4,8,8,8] x) => (float[1,4,4,4,4] y) {
                y = AveragePool <kernel_shape = [2, 2, 2], strides = [2, 2, 2]> (x)
            })");
        QCOMPARE(l.macs, int64_t(0));
        QCOMPARE(l.flops, int64_t(2304));
        QCOMPARE(l.inputBytes, int64_t(8192));
        QCOMPARE(l.outputBytes, int64_t(1024));
    }

    void averagePool2d() {
        // Y = 8 x 8 x 8 = 512, K = 9: 512 x 10.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,8,8,8] x) => (float[1,8,8,8] y) {
                y = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x)
            })");
        QCOMPARE(l.flops, int64_t(5120));
    }

    void lpPool() {
        // Y = 512, K = 4: 512 x 4 x 2 + 512 p-th roots (SFU).
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,8,16,16] x) => (float[1,8,8,8] y) {
                y = LpPool <kernel_shape = [2, 2], strides = [2, 2], p = 2> (x)
            })");
        QCOMPARE(l.sfuOps, int64_t(512));
        QCOMPARE(l.flops, int64_t(4608));
    }

    void globalAveragePool() {
        // X = 2048 x 49 = 100352 adds + Y = 2048 divides.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,2048,7,7] x) => (float[1,2048,1,1] y) {
                y = GlobalAveragePool (x)
            })");
        QCOMPARE(l.flops, int64_t(102400));
        QCOMPARE(l.inputBytes, int64_t(401408));
        QCOMPARE(l.outputBytes, int64_t(8192));
    }

    void globalMaxAndLpPool() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,2048,7,7] x) => (float[1,2048,1,1] m, float[1,2048,1,1] p) {
                m = GlobalMaxPool (x)
                p = GlobalLpPool (x)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(100352)); // X compares
        QCOMPARE(w.layers.at(1).flops, int64_t(202752)); // 2X + Y roots
        QCOMPARE(w.layers.at(1).sfuOps, int64_t(2048));
    }

    void resizeNearestLinearCubic() {
        // Y = 16 x 64 x 64 = 65536, two resized axes: nearest 0, linear 7, cubic 31 per output.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16,32,32] x) => (float[1,16,64,64] n, float[1,16,64,64] l, float[1,16,64,64] c)
            <float[4] scales = {1.0, 1.0, 2.0, 2.0}> {
                n = Resize <mode = "nearest"> (x, , scales)
                l = Resize <mode = "linear"> (x, , scales)
                c = Resize <mode = "cubic"> (x, , scales)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(0));
        QCOMPARE(w.layers.at(1).flops, int64_t(458752));
        QCOMPARE(w.layers.at(2).flops, int64_t(2031616));
        for (const auto& l : w.layers) {
            QCOMPARE(l.kind, OpKind::Vector);
            QVERIFY(l.supported);
            QCOMPARE(l.inputBytes, int64_t(65536));
            QCOMPARE(l.outputBytes, int64_t(262144));
        }
    }

    void resizeLinear3dAnd1d() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,2,4,8,8] x, float[1,3,8,8] v) => (float[1,2,8,16,16] y, float[1,3,8,16] z)
            <float[5] s3 = {1.0, 1.0, 2.0, 2.0, 2.0}, float[4] s1 = {1.0, 1.0, 1.0, 2.0}> {
                y = Resize <mode = "linear"> (x, , s3)
                z = Resize <mode = "linear"> (v, , s1)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(4096 * 15)); // 8 mul + 7 add per output
        QCOMPARE(w.layers.at(1).flops, int64_t(384 * 3));   // 2 mul + 1 add per output
    }

    void upsampleBilinear() {
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 9]>
            g (float[1,4,8,8] x) => (float[1,4,16,16] y) <float[4] scales = {1.0, 1.0, 2.0, 2.0}> {
                y = Upsample <mode = "linear"> (x, scales)
            })");
        QCOMPARE(l.flops, int64_t(1024 * 7));
    }

    void resizeWithUnknownSizesIsUnsupported() {
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16,32,32] x, int64[4] sizes) => (float y) {
                y = Resize <mode = "linear"> (x, , , sizes)
            })");
        QVERIFY(!l.supported);
        QCOMPARE(l.flops, int64_t(0));
        QCOMPARE(QString::fromStdString(l.note), QString("shapes unknown: not counted"));
    }

    void resizeWithUnknownSizesUsesTheDeclaredOutputShape() {
        // The graph output's declared shape is a fact from the file: 16*64*64 outputs at 7 FLOPs each.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16,32,32] x, int64[4] sizes) => (float[1,16,64,64] y) {
                y = Resize <mode = "linear"> (x, , , sizes)
            })");
        QVERIFY(l.supported);
        QCOMPARE(l.flops, int64_t(16 * 64 * 64 * 7));
    }

    void gridSampleBilinear() {
        // Y = 3 x 8 x 8 = 192 outputs x 7.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,16,16] x, float[1,8,8,2] grid) => (float[1,3,8,8] y) {
                y = GridSample (x, grid)
            })");
        QCOMPARE(l.flops, int64_t(1344));
    }

    void roiAlign() {
        // Y = 10 x 256 x 7 x 7 = 125440; 2 x 2 samples: avg 8 x 4 = 32, max 31 per output.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,256,14,14] x, float[10,4] rois, int64[10] batch) => (float[10,256,7,7] a, float[10,256,7,7] m) {
                a = RoiAlign <output_height = 7, output_width = 7, sampling_ratio = 2> (x, rois, batch)
                m = RoiAlign <output_height = 7, output_width = 7, sampling_ratio = 2, mode = "max"> (x, rois, batch)
            })");
        QCOMPARE(w.layers.at(0).flops, int64_t(4014080));
        QCOMPARE(w.layers.at(1).flops, int64_t(3888640));
    }

    void maxRoiPool() {
        // Y = 5 x 64 x 7 x 7 = 15680; whole-map RoI bins of 2 x 2: 3 compares per output.
        const auto l = onlyLayer(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64,14,14] x, float[5,5] rois) => (float[5,64,7,7] y) {
                y = MaxRoiPool <pooled_shape = [7, 7]> (x, rois)
            })");
        QCOMPARE(l.flops, int64_t(47040));
    }
};

ROOFTOP_TEST_CLASS(PoolingCosts)
#include "test_pooling_costs.moc"
