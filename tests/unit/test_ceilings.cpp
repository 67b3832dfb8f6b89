// SPDX-License-Identifier: GPL-3.0-or-later
// Derived ceilings and the estimated power model of a hand-built AGX-Orin-like device (no catalog files):
// exact arithmetic on exact inputs, compared to 1e-12 relative.
#include "core/device/ceilings.h"
#include "support/compare.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"

#include <QtTest>
#include <cmath>

using namespace rooftop;
using rooftop::test::orinLikeDevice;

namespace {

PowerMode maxn() {
    PowerMode m;
    m.name = "MAXN";
    m.stock = true;
    m.stockId = 0;
    m.onlineCores = 12;
    m.cpuKhz = 2201600;
    m.gpuHz = 1300500000;
    m.emcHz = 3199000000;
    m.activeTpcs = 8;
    return m;
}

RuntimeProfile ideal() {
    RuntimeProfile r;
    r.name = "ideal";
    return r;
}

} // namespace

class CeilingsTest : public QObject {
    Q_OBJECT
private slots:
    void classNames() {
        QCOMPARE(QString(computeClassName(ComputeClass::Fp32CudaCore)), QString("fp32"));
        QCOMPARE(QString(computeClassName(ComputeClass::Fp16CudaCore)), QString("fp16"));
        QCOMPARE(QString(computeClassName(ComputeClass::TensorFp16)), QString("tensor-fp16"));
        QCOMPARE(QString(computeClassName(ComputeClass::TensorInt8)), QString("tensor-int8"));
    }

    void agxOrinMaxnPeaks() {
        const Ceilings c = deriveCeilings(orinLikeDevice(), maxn(), ideal());
        // 2 x 16 SMs x 128 cores x 1300.5 MHz and 3199 MHz x 2 x 32 B.
        COMPARE_REL(c.peak(ComputeClass::Fp32CudaCore).value, 5.326848e12);
        COMPARE_REL(c.bandwidth.value, 204.736e9);
        COMPARE_REL(c.peak(ComputeClass::Fp16CudaCore).value, 2 * 5.326848e12);
        COMPARE_REL(c.peak(ComputeClass::TensorFp16).value, 16.0 * 2048 * 1300500000.0);
        COMPARE_REL(c.peak(ComputeClass::TensorInt8).value, 16.0 * 4096 * 1300500000.0);
        for (const auto& p : c.peakFlops)
            QCOMPARE(p.provenance, Provenance::Datasheet);
        QCOMPARE(c.bandwidth.provenance, Provenance::Datasheet);
        const QString fp32Basis = QString::fromStdString(c.peak(ComputeClass::Fp32CudaCore).basis);
        QVERIFY2(fp32Basis.contains("2 x 16 SMs") && fp32Basis.contains("128 cores/SM") &&
                     fp32Basis.contains("1300.5 MHz"),
                 qPrintable(fp32Basis));
        const QString bwBasis = QString::fromStdString(c.bandwidth.basis);
        QVERIFY2(bwBasis.contains("3199 MHz") && bwBasis.contains("32 B") && bwBasis.contains("256-bit"),
                 qPrintable(bwBasis));
        COMPARE_REL(c.balance(ComputeClass::Fp32CudaCore), 5.326848e12 / 204.736e9);
    }

    void tpcGatingScalesComputeNotBandwidth() {
        PowerMode m = maxn();
        m.activeTpcs = 3;
        m.gpuHz = 650250000;
        m.emcHz = 2133000000;
        const Ceilings c = deriveCeilings(orinLikeDevice(), m, ideal());
        COMPARE_REL(c.peak(ComputeClass::Fp32CudaCore).value, 2.0 * 6 * 128 * 650250000.0);
        COMPARE_REL(c.peak(ComputeClass::TensorFp16).value, 6.0 * 2048 * 650250000.0);
        COMPARE_REL(c.bandwidth.value, 2133e6 * 2 * 32);
        QVERIFY(QString::fromStdString(c.peak(ComputeClass::Fp32CudaCore).basis).contains("3 of 8 TPCs"));
    }

    void noTensorCoresFallsBackToFp16CudaCores() {
        DeviceSpec d = orinLikeDevice();
        d.units.tensorCoresPerSm = 0;
        d.units.tensorFp16FlopsPerSmPerClock = 0;
        d.units.tensorInt8OpsPerSmPerClock = 0;
        const Ceilings c = deriveCeilings(d, maxn(), ideal());
        COMPARE_REL(c.peak(ComputeClass::TensorFp16).value, c.peak(ComputeClass::Fp16CudaCore).value);
        COMPARE_REL(c.peak(ComputeClass::TensorInt8).value, c.peak(ComputeClass::Fp16CudaCore).value);
        QVERIFY(QString::fromStdString(c.peak(ComputeClass::TensorFp16).basis).contains("no tensor cores"));
        QVERIFY(QString::fromStdString(c.peak(ComputeClass::TensorInt8).basis).contains("no tensor cores"));
    }

    void missingInt8RateUsesTensorFp16() {
        DeviceSpec d = orinLikeDevice();
        d.units.tensorInt8OpsPerSmPerClock = 0;
        const Ceilings c = deriveCeilings(d, maxn(), ideal());
        COMPARE_REL(c.peak(ComputeClass::TensorInt8).value, c.peak(ComputeClass::TensorFp16).value);
    }

    void runtimeEfficienciesMakeEstimates() {
        RuntimeProfile r = ideal();
        r.name = "tensorrt";
        r.computeEfficiency = 0.75;
        r.bandwidthEfficiency = 0.8;
        const Ceilings c = deriveCeilings(orinLikeDevice(), maxn(), r);
        COMPARE_REL(c.peak(ComputeClass::Fp32CudaCore).value, 0.75 * 5.326848e12);
        COMPARE_REL(c.bandwidth.value, 0.8 * 204.736e9);
        QCOMPARE(c.peak(ComputeClass::Fp32CudaCore).provenance, Provenance::Estimate);
        QCOMPARE(c.bandwidth.provenance, Provenance::Estimate);
        QVERIFY(QString::fromStdString(c.bandwidth.basis).contains("tensorrt"));
        QVERIFY(QString::fromStdString(c.peak(ComputeClass::TensorInt8).basis).contains("tensorrt"));

        r.calibrated = true; // calibrated per operator class only: the uniform efficiencies stay estimates
        QCOMPARE(deriveCeilings(orinLikeDevice(), maxn(), r).bandwidth.provenance, Provenance::Estimate);
        r.efficiencyFitted = true;
        QCOMPARE(deriveCeilings(orinLikeDevice(), maxn(), r).bandwidth.provenance, Provenance::Fitted);
    }

    void dispatchScalesWithCpuClock() {
        RuntimeProfile r = ideal();
        r.name = "onnxruntime-cuda";
        r.dispatchSecondsAtMaxCpu = 25e-6;
        PowerMode m = maxn();
        COMPARE_REL(deriveCeilings(orinLikeDevice(), m, r).dispatchOverhead.value, 25e-6);
        m.cpuKhz = 1113600;
        const Ceilings c = deriveCeilings(orinLikeDevice(), m, r);
        COMPARE_REL(c.dispatchOverhead.value, 25e-6 * 2201600.0 / 1113600.0);
        QCOMPARE(c.dispatchOverhead.provenance, Provenance::Estimate);
        QVERIFY(QString::fromStdString(c.dispatchOverhead.basis).contains("onnxruntime-cuda"));
    }

    void estimatedPowerModelAtTopClocks() {
        const PowerModel p = estimatePowerModel(orinLikeDevice(), maxn());
        // (10 - 0.5 x 12) + 0.5 x 12 x 1 = 10 W; scales are 1 at the top clocks.
        COMPARE_REL(p.constantPower.value, 10.0);
        COMPARE_REL(p.energyPerFlop.value, 10e-12);
        COMPARE_REL(p.energyPerByte.value, 50e-12);
        QCOMPARE(p.tensorFlopEnergyRatio, 0.25);
        QCOMPARE(p.constantPower.provenance, Provenance::Estimate);
        QCOMPARE(p.energyPerFlop.provenance, Provenance::Estimate);
        QVERIFY(QString::fromStdString(p.energyPerByte.basis).contains("test figures"));
        COMPARE_REL(p.energyBalance(), 5.0);
    }

    void estimatedPowerModelScalesWithClocksAndCores() {
        PowerMode m = maxn();
        m.onlineCores = 4;
        m.cpuKhz = 1100800;  // half the top CPU clock
        m.gpuHz = 650250000; // half the top GPU clock: (0.6 + 0.2)^2 = 0.64
        m.emcHz = 204000000; // 204 / 3199 of the top EMC clock
        const PowerModel p = estimatePowerModel(orinLikeDevice(), m);
        COMPARE_REL(p.constantPower.value, 4.0 + 0.5 * 4 * 0.5);
        COMPARE_REL(p.energyPerFlop.value, 10e-12 * 0.64);
        const double v = 0.6 + 0.4 * 204.0 / 3199.0;
        COMPARE_REL(p.energyPerByte.value, 50e-12 * v * v);
    }

    void dvfsScaleAndFeatures() {
        COMPARE_REL(dvfsEnergyScale(1.0, 1.0), 1.0);
        COMPARE_REL(dvfsEnergyScale(0.0, 1.0), 0.36);
        COMPARE_REL(dvfsEnergyScale(0.25, 1.0), 0.49);
        PowerMode m = maxn();
        m.onlineCores = 6;
        m.cpuKhz = 1100800;
        const PowerFeatures f = powerFeatures(orinLikeDevice(), m);
        COMPARE_REL(f.cpuLoad, 3.0);
        COMPARE_REL(f.gpuScale, 1.0);
        COMPARE_REL(activeSmCount(orinLikeDevice(), m), 16.0);
    }

    void deriveModeProfileCombines() {
        const ModeProfile p = deriveModeProfile(orinLikeDevice(), maxn(), ideal());
        QCOMPARE(p.mode.name, std::string("MAXN"));
        COMPARE_REL(p.ceilings.bandwidth.value, 204.736e9);
        COMPARE_REL(p.power.constantPower.value, 10.0);
    }
};

ROOFTOP_TEST_CLASS(CeilingsTest)
#include "test_ceilings.moc"
