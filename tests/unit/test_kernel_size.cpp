// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel-size model (core/roofline/kernel_size.h) and its place in a layer's time (prediction.cpp):
// blocks, waves and busy fractions in exact counts, and a layer's predicted time against the hand formula.
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/kernel_size.h"
#include "core/roofline/layer_operator_class.h"
#include "core/roofline/prediction.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTest>
#include <algorithm>
#include <cmath>

using namespace rooftop;

namespace {

LayerCount layerNamedIn(const Workload& w, const std::string& name) {
    return test::layerNamed(w, name);
}

} // namespace

class TestKernelSize : public QObject {
    Q_OBJECT

private slots:
    void tilesSplitTheirDepthWhenTheyLeaveSlotsIdle() {
        // 512 x 7 x 7 outputs, depth 512 x 3 x 3: 7 tiles of 64x64, 32 slots on 16 SMs, split 5 ways
        const KernelFill small = kernelFill({25088.0, 4608.0, true}, 16.0);
        QCOMPARE(small.blocks, 35.0);
        QCOMPARE(small.residentBlocks, 32.0);
        QCOMPARE(small.busyFraction, 35.0 / 64.0);
        // a shallow product cannot split: 7 tiles alone
        const KernelFill shallow = kernelFill({25088.0, 300.0, true}, 16.0);
        QCOMPARE(shallow.blocks, 7.0);
        QCOMPARE(shallow.busyFraction, 7.0 / 32.0);
        // 64 tiles fill two full waves
        const KernelFill full = kernelFill({64.0 * 4096.0, 4608.0, true}, 16.0);
        QCOMPARE(full.blocks, 64.0);
        QCOMPARE(full.busyFraction, 1.0);
        // 65 tiles: a third wave with one block in it
        QCOMPARE(kernelFill({65.0 * 4096.0, 64.0, true}, 16.0).busyFraction, 65.0 / 96.0);
        // fewer SMs (TPCs gated): the same work fills them better
        QCOMPARE(kernelFill({25088.0, 4608.0, true}, 8.0).busyFraction, 21.0 / 32.0);
    }

    void elementWiseBlocksAreSixPerSm() {
        // 1,024 outputs a block, 96 resident on 16 SMs
        const KernelFill f = kernelFill({10.0 * 1024.0, 0.0, false}, 16.0);
        QCOMPARE(f.blocks, 10.0);
        QCOMPARE(f.residentBlocks, 96.0);
        QCOMPARE(f.busyFraction, 10.0 / 96.0);
        QCOMPARE(kernelFill({0.0, 0.0, false}, 16.0).busyFraction, 1.0); // no work: nothing to fill
        QCOMPARE(kernelFill({1e6, 0.0, false}, 0.0).busyFraction, 1.0);  // no SM count: no model
    }

    void theNoteSaysHowManySmsAreBusy() {
        QCOMPARE(smallKernelText(35.0 / 64.0, 16.0), std::string("small kernel: 8.8 of 16 SMs busy"));
        QCOMPARE(smallKernelText(0.95, 16.0), std::string());
    }

    // A compute-bound convolution's time is W / (peak x busy fraction) / e_class + t0, to the last bit.
    void aLayersTimeIsTheHandFormula() {
        const Workload w = test::analyzeSample("resnet50");
        const LayerCount conv = layerNamedIn(w, "/layer4/layer4.0/conv2/Conv");
        const DeviceSpec& device = test::shippedAgxOrin();
        const ModeProfile profile = deriveModeProfile(
            device, powerModeFrom(device, device.fastestStockMode()), findRuntime("tensorrt"));
        const ModelPrediction p = predict(w, profile);
        const size_t i = static_cast<size_t>(&test::layerNamed(w, conv.name) - w.layers.data());
        const LayerPrediction& row = p.layers[i];
        const KernelWork work = kernelWorkOf(conv, operatorClassOf(conv));
        QCOMPARE(work.outputs, 25088.0);
        QCOMPARE(work.depth, 4608.0);
        QCOMPARE(row.busyFraction, 35.0 / 64.0);
        const double peak = profile.ceilings.peak(computeClassOf(conv)).value;
        const double compute = double(conv.flops) / (peak * row.busyFraction);
        const double memory = double(conv.bytes()) / profile.ceilings.bandwidth.value;
        QVERIFY(compute > memory);
        const double expected =
            compute / profile.ceilings.classEfficiency.factor[0] + profile.ceilings.dispatchOverhead.value;
        QCOMPARE(row.seconds, expected);
        QCOMPARE(row.bound, Bound::Compute);
        QVERIFY(layerLimitNote(row, profile.ceilings).find("8.8 of 16 SMs busy") != std::string::npos);
    }

    // A layer smaller than the floor takes the floor: a DRAM round trip plus 1,000 GPU cycles, scaled by
    // the clock; a training step's layer launches its forward, backward and update apart.
    void smallLayersTakeTheFloor() {
        const DeviceSpec& device = test::shippedAgxOrin();
        const PowerMode maxn = powerModeFrom(device, device.fastestStockMode());
        const ModeProfile profile = deriveModeProfile(device, maxn, findRuntime("tensorrt"));
        const double floor = 0.75e-6 + 1000.0 / double(maxn.gpuHz);
        QCOMPARE(profile.ceilings.minimumKernel.value, floor);
        LayerCount tiny;
        tiny.op = "Relu";
        tiny.kind = OpKind::Vector;
        tiny.flops = 64;
        tiny.inputBytes = tiny.outputBytes = 256;
        tiny.outputShapes = {"1x64"};
        Workload w;
        w.layers = {tiny};
        const ModelPrediction p = predict(w, profile);
        QCOMPARE(p.layers[0].seconds, floor + profile.ceilings.dispatchOverhead.value);
        QVERIFY(layerLimitNote(p.layers[0], profile.ceilings).find("kernel floor") != std::string::npos);
        w.layers[0].backward.flops = 128;
        w.layers[0].update.bytes = 64;
        QCOMPARE(predict(w, profile).layers[0].seconds, 3 * floor + profile.ceilings.dispatchOverhead.value);
        // the ideal runtime is the bare roofline: no floor
        const ModeProfile ideal = deriveModeProfile(device, maxn, findRuntime("ideal"));
        QCOMPARE(ideal.ceilings.minimumKernel.value, 0.0);
        QCOMPARE(ideal.ceilings.kernelSms, 0.0);
    }

    // A runtime's share of the partial last wave: several waves' busy fraction moves as 1 / (1 + g (1 / f -
    // 1)), a kernel of one wave keeps its own.
    void theTailScaleMovesOnlySeveralWaves() {
        // 100 element-wise blocks on 16 SMs (96 slots): two waves, 100 of 192 slots busy
        const KernelFill waves = kernelFill({100.0 * 1024.0, 1.0, false}, 16.0);
        QCOMPARE(waves.blocks, 100.0);
        QCOMPARE(waves.busyFraction, 100.0 / 192.0);
        QCOMPARE(tailScaledBusyFraction(waves, 1.0), waves.busyFraction);
        QCOMPARE(tailScaledBusyFraction(waves, 0.0), 1.0);
        QVERIFY(std::abs(tailScaledBusyFraction(waves, 0.5) - 1.0 / (1.0 + 0.5 * (192.0 / 100.0 - 1.0))) <
                1e-15);
        // 7 tiles that cannot split: one wave of 32 slots, no runtime fills the idle SMs
        const KernelFill oneWave = kernelFill({25088.0, 300.0, true}, 16.0);
        QCOMPARE(oneWave.blocks, 7.0);
        QCOMPARE(tailScaledBusyFraction(oneWave, 0.0), oneWave.busyFraction);
    }

    // sweepModes, the advisor's fast path, gives predict()'s totals with kernel sizes, floors and a runtime's
    // wave-tail share, also in modes with TPCs gated (fewer SMs).
    void theSweepAgreesWithPredict() {
        const DeviceSpec& device = test::shippedAgxOrin();
        const Workload w = test::analyzeSample("mobilenet_v3_large");
        RuntimeProfile halfTail = findRuntime("tensorrt");
        halfTail.kernelTailScale = 0.5;
        std::vector<ModeProfile> profiles;
        for (const PowerMode& mode : stockPowerModes(device)) {
            profiles.push_back(deriveModeProfile(device, mode, findRuntime("tensorrt")));
            profiles.push_back(deriveModeProfile(device, mode, halfTail));
        }
        // the tail share makes a difference somewhere
        QVERIFY(predict(w, profiles[1]).latencySeconds < predict(w, profiles[0]).latencySeconds);
        QVERIFY(std::any_of(profiles.begin(), profiles.end(), [&](const ModeProfile& m) {
            return m.ceilings.kernelSms < profiles.front().ceilings.kernelSms;
        }));
        const std::vector<ModeSummary> sweep = sweepModes(w, profiles);
        for (size_t m = 0; m < profiles.size(); ++m) {
            const ModelPrediction p = predict(w, profiles[m]);
            QVERIFY(std::abs(sweep[m].latencySeconds / p.latencySeconds - 1.0) < 1e-12);
            QVERIFY(std::abs(sweep[m].energyJoules / p.energyJoules - 1.0) < 1e-12);
        }
    }
};

ROOFTOP_TEST_CLASS(TestKernelSize)
#include "test_kernel_size.moc"
