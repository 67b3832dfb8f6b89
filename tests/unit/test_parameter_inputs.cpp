// SPDX-License-Identifier: GPL-3.0-or-later
// Weights exported as graph inputs (torch's export_params=False): they count as weights, and --batch binds
// the data inputs only (their batch dim, or the dynamic one when the exporter marked some).
#include "core/cost/workload.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "support/test_registry.h"

#include <QtTest>
#include <algorithm>

using namespace rooftop;

namespace {

Workload analyzeWithDims(const std::string& text, const DimBindings& dims) {
    AnalysisSettings settings;
    settings.dims = dims;
    return analyzeGraph(graphFromModel(parseModelText(text), dims, "textual model"), settings);
}

DimBindings batchOf(int64_t batch) {
    DimBindings dims;
    dims.batch = batch;
    return dims;
}

// Conv 8x3x3x3 on 1x3x8x8 (6x6 out), then Gemm 288 -> 10, every weight and bias a graph input.
const char* const weightsAsInputs = R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[1,3,8,8] x, float[8,3,3,3] w, float[8] b, float[10,288] fw, float[10] fb) => (float[1,10] y) {
        c = Conv (x, w, b)
        r = Relu (c)
        f = Flatten (r)
        y = Gemm <transB = 1> (f, fw, fb)
    })";

} // namespace

class TestParameterInputs : public QObject {
    Q_OBJECT

private slots:
    void weightInputsCountAsWeights() {
        const Workload w = analyzeWithDims(weightsAsInputs, {});
        QCOMPARE(w.totals.params, int64_t(8 * 27 + 8 + 10 * 288 + 10));
        QCOMPARE(w.totals.weightBytes, int64_t(4 * (8 * 27 + 8 + 10 * 288 + 10)));
        QCOMPARE(w.totals.macs, int64_t(8 * 36 * 27 + 288 * 10));
        QVERIFY(std::any_of(w.info.notes.begin(), w.info.notes.end(), [](const std::string& note) {
            return note.rfind("4 graph input(s) feed only weight operands", 0) == 0;
        }));
    }

    void batchLeavesWeightInputs() {
        const Workload w = analyzeWithDims(weightsAsInputs, batchOf(4));
        QCOMPARE(w.totals.macs, int64_t(4 * (8 * 36 * 27 + 288 * 10)));
        QCOMPARE(w.totals.params, int64_t(8 * 27 + 8 + 10 * 288 + 10));
    }

    void anInputReadAsDataStaysAnInput() {
        // w feeds a Conv weight slot and an Add: not only weight operands, so --batch binds its dim 0 too.
        const Workload w = analyzeWithDims(R"(
            <ir_version: 7, opset_import: ["" : 13]>
            g (float[1,3,4,4] x, float[3,3,1,1] w) => (float[1,3,4,4] y, float[3,3,1,1] z) {
                y = Conv (x, w)
                z = Add (w, w)
            })",
                                           {});
        QCOMPARE(w.totals.params, int64_t(0));
    }

    void batchBindsOnlyTheDynamicInputsWhenSomeAre() {
        // idx is an int64 buffer exported as an input with a fixed first dim; x has a dynamic batch.
        const std::string model = R"(
            <ir_version: 7, opset_import: ["" : 13]>
            g (float[N,6,16] x, int64[6] idx, float[16,16] w) => (float[N,6,16] y) {
                m = MatMul (x, w)
                y = Gather <axis = 1> (m, idx)
            })";
        const Workload w = analyzeWithDims(model, batchOf(4));
        QCOMPARE(w.totals.macs, int64_t(4 * 6 * 16 * 16));
        QVERIFY(w.totals.shapeUnknown.empty());
        const Graph g = graphFromModel(parseModelText(model), batchOf(4), "textual model");
        QCOMPARE(g.tensors[static_cast<size_t>(g.findTensor("idx"))].dims, std::vector<int64_t>{6});
    }

    void swinExportAtBatchFour() {
        // torchvision's Swin exported without parameters: 22 weight inputs, int64 buffers and a dynamic
        // batch.
        const std::string path = std::string(ROOFTOP_TEST_FIXTURES_DIR) + "/onnx/swin_tiny.onnx";
        AnalysisSettings settings;
        settings.dims.batch = 4;
        const Workload w = analyzeModelFile(path, settings);
        QCOMPARE(w.totals.macs, int64_t(4 * 7395456));
        QVERIFY(w.totals.params > 0);
    }
};

ROOFTOP_TEST_CLASS(TestParameterInputs)
#include "test_parameter_inputs.moc"
