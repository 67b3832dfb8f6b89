// SPDX-License-Identifier: GPL-3.0-or-later
// What a pass must hold in memory (memoryFootprintBytes), in exact bytes for a small model, and the advisor
// refusing the batches a board cannot hold however good the roofline finds them.
#include "core/advisor/advisor.h"
#include "core/cost/memory_footprint.h"
#include "core/device/mode_set.h"
#include "core/roofline/prediction.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>
#include <algorithm>

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

AnalysisSettings settingsAt(int64_t batch, Phase phase = Phase::Inference,
                            Optimizer optimizer = Optimizer::Adam) {
    AnalysisSettings settings;
    settings.dims.named["N"] = batch;
    settings.phase = phase;
    settings.optimizer = optimizer;
    return settings;
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

    // training: the gradients and the optimizer's states beside each weight (Adam two, momentum one, SGD
    // none) and the activations the backward reads back
    void aTrainingStepAlsoHoldsGradientsStatesAndSavedActivations() {
        const Workload inference = test::analyzeText(kMatMulRelu, settingsAt(16));
        const int64_t base = memoryFootprintBytes(inference);
        for (const auto& [optimizer, perWeight] :
             {std::pair{Optimizer::Sgd, 1}, std::pair{Optimizer::Momentum, 2},
              std::pair{Optimizer::Adam, 3}}) {
            const Workload step = test::analyzeText(kMatMulRelu, settingsAt(16, Phase::Training, optimizer));
            QVERIFY(step.totals.savedBytes > 0);
            int64_t largest = 0;
            for (const LayerCount& layer : step.layers)
                largest = std::max(largest, layer.inputBytes + layer.outputBytes);
            QCOMPARE(memoryFootprintBytes(step), 128 + largest + perWeight * 128 + step.totals.savedBytes);
            QVERIFY(memoryFootprintBytes(step) > base);
        }
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
