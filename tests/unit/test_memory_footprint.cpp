// SPDX-License-Identifier: GPL-3.0-or-later
// What a pass must hold in memory (memoryFootprintBytes), in exact bytes for a small model, and the advisor
// refusing the batches a board cannot hold however good the roofline finds them.
#include "core/advisor/advisor.h"
#include "core/cost/memory_footprint.h"
#include "core/cost/workload.h"
#include "core/device/mode_set.h"
#include "core/onnx/model_graph.h"
#include "core/roofline/prediction.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>
#include <algorithm>
#include <cstdlib>
#include <onnx/onnx_pb.h>

using namespace rooftop;

namespace {

// x [N, 4] times a 4 x 8 weight, then Relu: 32 weights (128 B at fp32)
const char* const kMatMulRelu = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N, 4] x) => (float[N, 8] z)
    <float[4, 8] w = {1., 2., 3., 4., 5., 6., 7., 8., 1., 2., 3., 4., 5., 6., 7., 8.,
                      1., 2., 3., 4., 5., 6., 7., 8., 1., 2., 3., 4., 5., 6., 7., 8.}> {
        y = MatMul (x, w)
        z = Relu (y)
    })";

// a 1x1 convolution of 2 weights, then BatchNormalization: scale and bias trainable, running mean and
// variance not (10 floats, 6 of them trained)
const char* const kConvBatchNorm = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N, 1, 4, 4] x) => (float[N, 2, 4, 4] y)
    <float[2, 1, 1, 1] w = {1., 2.}, float[2] s = {1., 1.}, float[2] b = {0., 0.}, float[2] m = {0., 0.},
     float[2] v = {1., 1.}> {
        c = Conv (x, w)
        y = BatchNormalization (c, s, b, m, v)
    })";

AnalysisSettings settingsAt(int64_t batch, Phase phase = Phase::Inference,
                            Optimizer optimizer = Optimizer::Adam) {
    AnalysisSettings settings;
    settings.dims.named["N"] = batch;
    settings.phase = phase;
    settings.optimizer = optimizer;
    return settings;
}

// An fp16 embedding table e [10, 4] read twice, as a tied LM head is: by a Gather of N rows and, transposed,
// by the MatMul that turns the rows back into 10 logits each.
onnx::ModelProto tiedFp16Embedding() {
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(17);
    onnx::GraphProto& graph = *model.mutable_graph();
    graph.set_name("tied");
    const auto value = [](onnx::ValueInfoProto* info, const char* name, int type,
                          std::initializer_list<const char*> dims) {
        info->set_name(name);
        onnx::TensorShapeProto& shape = *info->mutable_type()->mutable_tensor_type()->mutable_shape();
        info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
        for (const char* dim : dims) {
            if (dim[0] >= '0' && dim[0] <= '9')
                shape.add_dim()->set_dim_value(std::atoll(dim));
            else
                shape.add_dim()->set_dim_param(dim);
        }
    };
    value(graph.add_input(), "ids", onnx::TensorProto::INT64, {"N"});
    value(graph.add_output(), "logits", onnx::TensorProto::FLOAT16, {"N", "10"});
    onnx::TensorProto& e = *graph.add_initializer();
    e.set_name("e");
    e.set_data_type(onnx::TensorProto::FLOAT16);
    e.add_dims(10);
    e.add_dims(4);
    e.set_raw_data(std::string(80, '\0'));
    const auto node = [&](const char* op, std::initializer_list<const char*> in, const char* out) {
        onnx::NodeProto& n = *graph.add_node();
        n.set_op_type(op);
        n.set_name(out);
        for (const char* name : in)
            n.add_input(name);
        n.add_output(out);
        return &n;
    };
    node("Gather", {"e", "ids"}, "h");
    onnx::AttributeProto& perm = *node("Transpose", {"e"}, "et")->add_attribute();
    perm.set_name("perm");
    perm.set_type(onnx::AttributeProto::INTS);
    perm.add_ints(1);
    perm.add_ints(0);
    node("MatMul", {"h", "et"}, "logits");
    return model;
}

int64_t largestLayerBytes(const Workload& w) {
    int64_t largest = 0;
    for (const LayerCount& layer : w.layers)
        largest = std::max(largest, layer.inputBytes + layer.outputBytes);
    return largest;
}

} // namespace

class TestMemoryFootprint : public QObject {
    Q_OBJECT

private slots:
    // inference: the weights once plus the largest layer's inputs and outputs (MatMul at N = 16: x 256 B,
    // y 512 B; Relu reads and writes 512 B each, 1,024 B)
    void anInferenceHoldsItsWeightsAndItsLargestLayer() {
        const Workload w = test::analyzeText(kMatMulRelu, settingsAt(16));
        QCOMPARE(w.totals.params, int64_t(32));
        int64_t largest = 0;
        for (const LayerCount& layer : w.layers)
            largest = std::max(largest, layer.inputBytes + layer.outputBytes);
        QCOMPARE(largest, int64_t(1024));
        QCOMPARE(memoryFootprintBytes(w), int64_t(128 + 1024));
        // twice the batch, twice the activations; the weights stay
        QCOMPARE(memoryFootprintBytes(test::analyzeText(kMatMulRelu, settingsAt(32))), int64_t(128 + 2048));
    }

    // a weight read by two layers, and by one in part, is held once and whole: the fp16 table's 40 values
    // are 80 B as the model stores them (160 B forced to fp32), however the layers' reads add up
    void aTiedTableIsHeldOnceAndWhole() {
        AnalysisSettings settings = settingsAt(4);
        const Workload asModel =
            analyzeGraph(graphFromModel(tiedFp16Embedding(), settings.dims, "tied"), settings);
        QCOMPARE(asModel.totals.params, int64_t(40));
        QCOMPARE(asModel.totals.weightHeldBytes, int64_t(80));
        QVERIFY(asModel.totals.weightBytes > 80); // the Gather's rows and the MatMul's whole table
        QCOMPARE(memoryFootprintBytes(asModel), 80 + largestLayerBytes(asModel));
        settings.precision = Precision::FP32;
        const Workload fp32 =
            analyzeGraph(graphFromModel(tiedFp16Embedding(), settings.dims, "tied"), settings);
        QCOMPARE(fp32.totals.weightHeldBytes, int64_t(160));
        QCOMPARE(memoryFootprintBytes(fp32), 160 + largestLayerBytes(fp32));
    }

    // training at N = 16, counted by hand: the weights (128 B) and their gradient (128 B), the optimizer's
    // states (none for SGD, the momentum 128 B, Adam's two moments 256 B), the activations the backward reads
    // back (MatMul's input x for dW, 256 B; Relu's output for its mask, 512 B) and the largest layer (Relu,
    // 512 B in and 512 B out)
    void aTrainingStepAlsoHoldsGradientsStatesAndSavedActivations() {
        for (const auto& [optimizer, expected] :
             {std::pair{Optimizer::Sgd, int64_t{128 + 128 + 768 + 1024}},
              std::pair{Optimizer::Momentum, int64_t{128 + 256 + 768 + 1024}},
              std::pair{Optimizer::Adam, int64_t{128 + 384 + 768 + 1024}}}) {
            const Workload step = test::analyzeText(kMatMulRelu, settingsAt(16, Phase::Training, optimizer));
            QCOMPARE(step.totals.savedBytes, int64_t(768));
            QCOMPARE(memoryFootprintBytes(step), expected);
        }
    }

    // the optimizer's states sit beside the trained weights only: Adam holds two more than SGD for each of
    // the 6 trained floats (48 B), none for BatchNorm's running statistics
    void statesAreOfTheTrainedWeightsOnly() {
        const Workload sgd =
            test::analyzeText(kConvBatchNorm, settingsAt(2, Phase::Training, Optimizer::Sgd));
        const Workload adam =
            test::analyzeText(kConvBatchNorm, settingsAt(2, Phase::Training, Optimizer::Adam));
        QCOMPARE(sgd.totals.params, int64_t(10));
        QCOMPARE(sgd.totals.trainableParams, int64_t(6));
        QCOMPARE(sgd.totals.weightHeldBytes, int64_t(40));
        QCOMPARE(memoryFootprintBytes(adam) - memoryFootprintBytes(sgd), int64_t(48));
    }

    // ResNet-18 at batch 4,096 holds 12 GiB of activations in its first convolution alone: on a 4 GB Orin
    // Nano no mode at that batch is feasible, the pick is at a batch that fits, and the answer says why
    void theAdvisorRefusesABatchTheBoardCannotHold() {
        const DeviceSpec& device = test::shippedDevice("orin-nano-4gb");
        const RuntimeProfile runtime = findRuntime("tensorrt");
        std::vector<ModeProfile> profiles;
        for (const StockMode& stock : device.stockModes)
            profiles.push_back(deriveModeProfile(device, powerModeFrom(device, stock), runtime));
        const Workload small = test::analyzeSample("resnet18", test::atBatch(1));
        const Workload huge = test::analyzeSample("resnet18", test::atBatch(4096));
        QVERIFY(memoryFootprintBytes(huge) > device.usableMemoryBytes(defaultMemoryReserveGiB));
        QVERIFY(memoryFootprintBytes(small) < device.usableMemoryBytes(defaultMemoryReserveGiB));
        const Recommendation r = recommendMode(device, {BatchWorkload{1, small}, BatchWorkload{4096, huge}},
                                               profiles, {}, Objective::Energy);
        int hugeCandidates = 0;
        for (const Candidate& c : r.candidates) {
            QCOMPARE(c.fitsMemory, c.batch == 1);
            if (c.batch == 4096) {
                ++hugeCandidates;
                QVERIFY(!c.feasible);
                QVERIFY(!c.pareto); // no front holds what cannot run
            }
        }
        for (size_t i : runnableParetoFront(r.candidates))
            QCOMPARE(r.candidates[i].batch, int64_t(1));
        QCOMPARE(hugeCandidates, int(device.stockModes.size()));
        QVERIFY(r.recommended);
        QCOMPARE(r.candidates[*r.recommended].batch, int64_t(1));
        QVERIFY2(r.explanation.find("the board's memory (") != std::string::npos, r.explanation.c_str());
        QVERIFY2(r.explanation.find("from batch 4096 a pass holds at least") != std::string::npos,
                 r.explanation.c_str());

        // only the batch no mode can hold, and no limit set: it says so, not "satisfies no limits"
        const Recommendation none =
            recommendMode(device, {BatchWorkload{4096, huge}}, profiles, {}, Objective::Energy);
        QVERIFY(!none.recommended);
        QVERIFY2(none.explanation.rfind("None of the " + std::to_string(profiles.size()) +
                                            " candidates (modes x batch sizes) can run here. Every candidate "
                                            "breaks the board's memory",
                                        0) == 0,
                 none.explanation.c_str());
    }
};

ROOFTOP_TEST_CLASS(TestMemoryFootprint)
#include "test_memory_footprint.moc"
