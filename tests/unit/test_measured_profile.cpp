// SPDX-License-Identifier: GPL-3.0-or-later
// Measured profiles ("rooftop-profile/1"): round trip, loader errors, and how requested modes resolve to
// measured, predicted or derived ceilings and power models.
#include "core/common/errors.h"
#include "core/device/measured_profile.h"
#include "core/roofline/mode_profiles.h"
#include "support/compare.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>

using namespace rooftop;
using rooftop::test::orinLikeDevice;

namespace {

PowerMode mode(const std::string& name, int cores, int64_t cpu, int64_t gpu, int64_t emc, int tpcs = 8) {
    PowerMode m;
    m.name = name;
    m.onlineCores = cores;
    m.cpuKhz = cpu;
    m.gpuHz = gpu;
    m.emcHz = emc;
    m.activeTpcs = tpcs;
    return m;
}

RuntimeProfile idealRuntime(double dispatch = 5e-6) {
    RuntimeProfile r;
    r.name = "ideal";
    r.dispatchSecondsAtMaxCpu = dispatch;
    return r;
}

PowerModel fittedModel(double pi0, double flop, double byte) {
    PowerModel p;
    p.constantPower = {pi0, Provenance::Fitted, "fit"};
    p.energyPerFlop = {flop, Provenance::Fitted, "fit"};
    p.energyPerByte = {byte, Provenance::Fitted, "fit"};
    p.rSquared = 0.995;
    p.tensorFlopEnergyRatio = 0.3;
    return p;
}

// A measured mode at 90 % of the datasheet compute and 80 % of the datasheet bandwidth.
MeasuredMode measured(const PowerMode& m, std::optional<PowerModel> power) {
    MeasuredMode out;
    out.mode = m;
    const Ceilings derived = deriveCeilings(orinLikeDevice(), m, idealRuntime());
    for (int c = 0; c < computeClassCount; ++c)
        out.peakFlops[static_cast<size_t>(c)] = 0.9 * derived.peakFlops[static_cast<size_t>(c)].value;
    out.bandwidth = 0.8 * derived.bandwidth.value;
    out.dispatchSeconds = 3e-6;
    out.power = std::move(power);
    return out;
}

MeasuredProfile sampleProfile() {
    MeasuredProfile p;
    p.deviceId = "orin-like";
    p.boardModel = "NVIDIA Jetson AGX Orin Developer Kit";
    p.l4tRelease = "36.4.0";
    p.driverVersion = "540.4.0";
    p.cudaVersion = "12.6";
    p.created = "2025-01-31T12:00:00Z";
    MeasuredMode m =
        measured(mode("MAXN", 12, 2201600, 1300500000, 3199000000), fittedModel(9.5, 9e-12, 45e-12));
    m.mode.stock = true;
    m.mode.stockId = 0;
    m.observedCpuKhz = 2201600;
    m.observedGpuHz = 1300500000;
    m.observedEmcHz = 3199000000;
    m.readBandwidth = 1.6e11;
    m.writeBandwidth = 1.5e11;
    m.copyBandwidth = 1.55e11;
    m.triadBandwidth = 1.58e11;
    m.samples = {{"fma-k64", 1e10, 1e8, 0.002, 0.12}, {"copy", 0, 1e9, 0.006, 0.09}};
    fillPercentOfTheoretical(m, orinLikeDevice());
    p.modes.push_back(m);
    MeasuredMode custom =
        measured(mode("c4-cpu1114-gpu650-emc2133", 4, 1113600, 650250000, 2133000000, 4), std::nullopt);
    custom.peakFlops[3] = 0; // not measured
    p.modes.push_back(custom);
    return p;
}

QString loadError(const std::string& text) {
    try {
        measuredProfileFromJson(text, "p.json");
    } catch (const InputError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

const char* const minimalMode = R"({"name":"MAXN","cores":12,"cpu_khz":2201600,"gpu_hz":1300500000,
    "emc_hz":3199000000,"active_tpcs":8,"ceilings":{"bandwidth":1.6e11}})";

std::string withMode(const std::string& modeJson) {
    return std::string(R"({"schema":"rooftop-profile/1","device":"orin-like","modes":[)") + modeJson + "]}";
}

} // namespace

class MeasuredProfileTest : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("profile.json").toStdString();
        const MeasuredProfile original = sampleProfile();
        saveMeasuredProfile(original, path);
        const MeasuredProfile loaded = loadMeasuredProfile(path);
        QCOMPARE(loaded.deviceId, original.deviceId);
        QCOMPARE(loaded.boardModel, original.boardModel);
        QCOMPARE(loaded.l4tRelease, original.l4tRelease);
        QCOMPARE(loaded.driverVersion, original.driverVersion);
        QCOMPARE(loaded.cudaVersion, original.cudaVersion);
        QCOMPARE(loaded.created, original.created);
        QCOMPARE(loaded.modes.size(), original.modes.size());
        for (size_t i = 0; i < original.modes.size(); ++i) {
            const MeasuredMode& a = original.modes[i];
            const MeasuredMode& b = loaded.modes[i];
            QCOMPARE(b.mode.name, a.mode.name);
            QCOMPARE(b.mode.stock, a.mode.stock);
            QCOMPARE(b.mode.stockId, a.mode.stock ? a.mode.stockId : -1);
            QVERIFY(sameOperatingPoint(a.mode, b.mode));
            QCOMPARE(b.observedCpuKhz, a.observedCpuKhz);
            QCOMPARE(b.observedGpuHz, a.observedGpuHz);
            QCOMPARE(b.observedEmcHz, a.observedEmcHz);
            for (int c = 0; c < computeClassCount; ++c)
                QCOMPARE(b.peakFlops[size_t(c)], a.peakFlops[size_t(c)]);
            QCOMPARE(b.bandwidth, a.bandwidth);
            QCOMPARE(b.readBandwidth, a.readBandwidth);
            QCOMPARE(b.writeBandwidth, a.writeBandwidth);
            QCOMPARE(b.copyBandwidth, a.copyBandwidth);
            QCOMPARE(b.triadBandwidth, a.triadBandwidth);
            QCOMPARE(b.dispatchSeconds, a.dispatchSeconds);
            QCOMPARE(b.percentOfTheoretical, a.percentOfTheoretical);
            QCOMPARE(b.power.has_value(), a.power.has_value());
            if (a.power) {
                QCOMPARE(b.power->constantPower.value, a.power->constantPower.value);
                QCOMPARE(b.power->energyPerFlop.value, a.power->energyPerFlop.value);
                QCOMPARE(b.power->energyPerByte.value, a.power->energyPerByte.value);
                QCOMPARE(b.power->rSquared, a.power->rSquared);
                QCOMPARE(b.power->tensorFlopEnergyRatio, a.power->tensorFlopEnergyRatio);
                QCOMPARE(b.power->energyPerFlop.provenance, Provenance::Fitted);
            }
            QCOMPARE(b.samples.size(), a.samples.size());
            for (size_t s = 0; s < a.samples.size(); ++s) {
                QCOMPARE(b.samples[s].kernel, a.samples[s].kernel);
                QCOMPARE(b.samples[s].flops, a.samples[s].flops);
                QCOMPARE(b.samples[s].bytes, a.samples[s].bytes);
                QCOMPARE(b.samples[s].seconds, a.samples[s].seconds);
                QCOMPARE(b.samples[s].joules, a.samples[s].joules);
            }
        }
        // Saving again gives the same text.
        QCOMPARE(measuredProfileToJson(loaded), measuredProfileToJson(original));
    }

    void percentOfTheoretical() {
        const MeasuredProfile p = sampleProfile();
        COMPARE_REL(p.modes[0].percentOfTheoretical.at("fp32_flops"), 90.0);
        COMPARE_REL(p.modes[0].percentOfTheoretical.at("bandwidth"), 80.0);
    }

    void minimalModeLoads() {
        const MeasuredProfile p = measuredProfileFromJson(withMode(minimalMode), "p.json");
        QCOMPARE(p.modes.size(), size_t(1));
        QCOMPARE(p.modes[0].mode.stock, false);
        QCOMPARE(p.modes[0].bandwidth, 1.6e11);
        QVERIFY(!p.modes[0].power);
        QVERIFY(p.modes[0].samples.empty());
    }

    void loaderErrorsNameTheField() {
        QString e = loadError("{");
        QVERIFY2(e.startsWith("p.json: not JSON"), qPrintable(e));
        e = loadError("[]");
        QVERIFY2(e.contains("p.json") && e.contains("object"), qPrintable(e));
        e = loadError(R"({"schema":"rooftop-profile/2","device":"x","modes":[]})");
        QVERIFY2(e.contains("p.json: schema") && e.contains("rooftop-profile/1"), qPrintable(e));
        e = loadError(R"({"device":"x","modes":[]})");
        QVERIFY2(e.contains("p.json: schema: missing"), qPrintable(e));
        e = loadError(R"({"schema":"rooftop-profile/1","modes":[]})");
        QVERIFY2(e.contains("p.json: device: missing"), qPrintable(e));
        e = loadError(R"({"schema":"rooftop-profile/1","device":"x"})");
        QVERIFY2(e.contains("p.json: modes: missing"), qPrintable(e));
        e = loadError(
            withMode(R"({"name":"MAXN","cores":12,"gpu_hz":1,"emc_hz":1,"active_tpcs":8,"ceilings":{}})"));
        QVERIFY2(e.contains("p.json: modes[0].cpu_khz: missing"), qPrintable(e));
        e = loadError(withMode(
            std::string(minimalMode) +
            R"(,{"name":"x","cores":2.5,"cpu_khz":1,"gpu_hz":1,"emc_hz":1,"active_tpcs":8,"ceilings":{}})"));
        QVERIFY2(e.contains("p.json: modes[1].cores: expected an integer"), qPrintable(e));
        e = loadError(withMode(
            R"({"name":"MAXN","cores":12,"cpu_khz":1,"gpu_hz":1,"emc_hz":1,"active_tpcs":8,"ceilings":{"bandwidth":-1}})"));
        QVERIFY2(e.contains("p.json: modes[0].ceilings.bandwidth") && e.contains("non-negative"),
                 qPrintable(e));
        e = loadError(
            withMode(R"({"name":"MAXN","cores":12,"cpu_khz":1,"gpu_hz":1,"emc_hz":1,"active_tpcs":8})"));
        QVERIFY2(e.contains("p.json: modes[0].ceilings: missing"), qPrintable(e));
        e = loadError(withMode(
            R"({"name":"MAXN","cores":12,"cpu_khz":1,"gpu_hz":1,"emc_hz":1,"active_tpcs":8,"ceilings":{},"power_model":{"constant_w":5,"j_per_flop":1e-11}})"));
        QVERIFY2(e.contains("p.json: modes[0].power_model.j_per_byte: missing"), qPrintable(e));
        e = loadError(withMode(
            R"({"name":"MAXN","cores":12,"cpu_khz":1,"gpu_hz":1,"emc_hz":1,"active_tpcs":8,"ceilings":{},"samples":[{"flops":1,"bytes":"many","seconds":1,"joules":1}]})"));
        QVERIFY2(e.contains("p.json: modes[0].samples[0].bytes: expected a number"), qPrintable(e));
        e = loadError(withMode(
            R"({"name":"","cores":12,"cpu_khz":1,"gpu_hz":1,"emc_hz":1,"active_tpcs":8,"ceilings":{}})"));
        QVERIFY2(e.contains("p.json: modes[0].name: empty"), qPrintable(e));
        try {
            loadMeasuredProfile("/nonexistent/profile.json");
            QFAIL("no error");
        } catch (const InputError& error) {
            QVERIFY(QString(error.what()).contains("/nonexistent/profile.json"));
        }
    }

    void withoutProfileEverythingIsDerived() {
        const DeviceSpec d = orinLikeDevice();
        const PowerMode m = mode("MAXN", 12, 2201600, 1300500000, 3199000000);
        const auto profiles = resolveModeProfiles(d, {m}, idealRuntime(), nullptr);
        QCOMPARE(profiles.size(), size_t(1));
        QCOMPARE(profiles[0].ceilings.bandwidth.provenance, Provenance::Datasheet);
        QCOMPARE(profiles[0].ceilings.peak(ComputeClass::Fp32CudaCore).provenance, Provenance::Datasheet);
        QCOMPARE(profiles[0].power.constantPower.provenance, Provenance::Estimate);
        COMPARE_REL(profiles[0].ceilings.bandwidth.value, 204.736e9);
        MeasuredProfile empty;
        QCOMPARE(resolveModeProfiles(d, {m}, idealRuntime(), &empty)[0].ceilings.bandwidth.provenance,
                 Provenance::Datasheet);
    }

    void measuredModeTakesMeasuredCeilingsAndFittedPower() {
        const DeviceSpec d = orinLikeDevice();
        const MeasuredProfile p = sampleProfile();
        const PowerMode maxn = mode("anything", 12, 2201600, 1300500000, 3199000000);
        const ModeProfile r = resolveModeProfiles(d, {maxn}, idealRuntime(), &p).at(0);
        for (int c = 0; c < computeClassCount; ++c) {
            if (p.modes[0].peakFlops[size_t(c)] == 0) { // FP8 / FP4: the Orin-like board has none, 0 stays 0
                QCOMPARE(r.ceilings.peakFlops[size_t(c)].value, 0.0);
                QCOMPARE(c >= int(ComputeClass::TensorFp8), true);
                continue;
            }
            QCOMPARE(r.ceilings.peakFlops[size_t(c)].provenance, Provenance::Measured);
            QCOMPARE(r.ceilings.peakFlops[size_t(c)].value, p.modes[0].peakFlops[size_t(c)]);
        }
        QCOMPARE(r.ceilings.bandwidth.provenance, Provenance::Measured);
        QCOMPARE(r.ceilings.bandwidth.value, p.modes[0].bandwidth);
        // Dispatch: the runtime's 5 us estimate beats the 3 us measured launch.
        COMPARE_REL(r.ceilings.dispatchOverhead.value, 5e-6);
        QCOMPARE(r.ceilings.dispatchOverhead.provenance, Provenance::Estimate);
        QCOMPARE(r.power.constantPower.provenance, Provenance::Fitted);
        QCOMPARE(r.power.constantPower.value, 9.5);
        QCOMPARE(r.power.energyPerFlop.value, 9e-12);
        QCOMPARE(r.power.tensorFlopEnergyRatio, 0.3);
        QCOMPARE(r.mode.name, std::string("anything"));

        // A runtime without dispatch estimate: the measured launch is the overhead.
        const ModeProfile fast = resolveModeProfiles(d, {maxn}, idealRuntime(1e-6), &p).at(0);
        QCOMPARE(fast.ceilings.dispatchOverhead.value, 3e-6);
        QCOMPARE(fast.ceilings.dispatchOverhead.provenance, Provenance::Measured);

        // A runtime efficiency multiplies measured ceilings too and makes them estimates.
        RuntimeProfile trt = idealRuntime();
        trt.name = "tensorrt";
        trt.computeEfficiency = 0.75;
        const ModeProfile withTrt = resolveModeProfiles(d, {maxn}, trt, &p).at(0);
        COMPARE_REL(withTrt.ceilings.peak(ComputeClass::Fp32CudaCore).value, 0.75 * p.modes[0].peakFlops[0]);
        QCOMPARE(withTrt.ceilings.peak(ComputeClass::Fp32CudaCore).provenance, Provenance::Estimate);
        QCOMPARE(withTrt.ceilings.bandwidth.provenance, Provenance::Measured);
    }

    void measuredModeWithoutPowerFitsItsSamplesOrPredicts() {
        const DeviceSpec d = orinLikeDevice();
        MeasuredProfile p = sampleProfile();
        const PowerMode custom = p.modes[1].mode;
        // No power model and no samples: predicted from the one measured mode that has one.
        ModeProfile r = resolveModeProfiles(d, {custom}, idealRuntime(), &p).at(0);
        QCOMPARE(r.ceilings.bandwidth.provenance, Provenance::Measured);
        QCOMPARE(r.power.constantPower.provenance, Provenance::Predicted);
        // The unmeasured INT8 peak is predicted from MAXN's measured / derived ratio (0.9).
        QCOMPARE(r.ceilings.peak(ComputeClass::TensorInt8).provenance, Provenance::Predicted);
        COMPARE_REL(r.ceilings.peak(ComputeClass::TensorInt8).value, 0.9 * 8.0 * 4096 * 650250000.0);

        // With samples it fits them.
        std::vector<EnergySample>& s = p.modes[1].samples;
        for (int k = 1; k <= 6; ++k) {
            const double w = 1e9 * k * k, q = 1e8 * (7 - k), t = w / 1e12 + q / 1e11 + 1e-3 * k;
            s.push_back({"k", w, q, t, 2e-11 * w + 6e-11 * q + 4 * t});
        }
        r = resolveModeProfiles(d, {custom}, idealRuntime(), &p).at(0);
        QCOMPARE(r.power.constantPower.provenance, Provenance::Fitted);
        COMPARE_REL_TOL(r.power.constantPower.value, 4.0, 1e-9);
        COMPARE_REL_TOL(r.power.energyPerByte.value, 6e-11, 1e-9);
    }

    void unmeasuredModeIsPredictedByRatio() {
        const DeviceSpec d = orinLikeDevice();
        const MeasuredProfile p = sampleProfile();
        const PowerMode other = mode("c8", 8, 1113600, 306000000, 665600000);
        const ModeProfile r = resolveModeProfiles(d, {other}, idealRuntime(), &p).at(0);
        const Ceilings derived = deriveCeilings(d, other, idealRuntime());
        for (int c = 0; c < computeClassCount; ++c) {
            if (derived.peakFlops[size_t(c)].value ==
                0) { // a class the board lacks is not predicted into being
                QCOMPARE(r.ceilings.peakFlops[size_t(c)].value, 0.0);
                continue;
            }
            QCOMPARE(r.ceilings.peakFlops[size_t(c)].provenance, Provenance::Predicted);
            COMPARE_REL(r.ceilings.peakFlops[size_t(c)].value, 0.9 * derived.peakFlops[size_t(c)].value);
        }
        QCOMPARE(r.ceilings.bandwidth.provenance, Provenance::Predicted);
        COMPARE_REL(r.ceilings.bandwidth.value, 0.8 * derived.bandwidth.value);
        // One measured power model: each coefficient = estimate x (measured / estimate at MAXN).
        const PowerModel estimate = estimatePowerModel(d, other);
        const PowerModel maxnEstimate = estimatePowerModel(d, p.modes[0].mode);
        QCOMPARE(r.power.constantPower.provenance, Provenance::Predicted);
        QCOMPARE(r.power.energyPerFlop.provenance, Provenance::Predicted);
        COMPARE_REL(r.power.constantPower.value,
                    estimate.constantPower.value * 9.5 / maxnEstimate.constantPower.value);
        COMPARE_REL(r.power.energyPerFlop.value,
                    estimate.energyPerFlop.value * 9e-12 / maxnEstimate.energyPerFlop.value);
        COMPARE_REL(r.power.energyPerByte.value,
                    estimate.energyPerByte.value * 45e-12 / maxnEstimate.energyPerByte.value);
        QCOMPARE(r.power.tensorFlopEnergyRatio, 0.3);
        // The 5 us runtime estimate (x 2201.6 / 1113.6 MHz) exceeds the predicted launch.
        COMPARE_REL(r.ceilings.dispatchOverhead.value, 5e-6 * 2201600.0 / 1113600.0);
        QCOMPARE(r.ceilings.dispatchOverhead.provenance, Provenance::Estimate);

        // A runtime with a smaller cost: the launch, predicted from both measured modes by the 1 / CPU clock
        // law.
        const ModeProfile fast = resolveModeProfiles(d, {other}, idealRuntime(0.5e-6), &p).at(0);
        const double atTopClock = (3e-6 + 3e-6 * 1113600.0 / 2201600.0) / 2;
        COMPARE_REL(fast.ceilings.dispatchOverhead.value, atTopClock * 2201600.0 / 1113600.0);
        QCOMPARE(fast.ceilings.dispatchOverhead.provenance, Provenance::Predicted);
    }

    void unmeasuredModePowerByLeastSquares() {
        // Four measured modes whose coefficients follow  pi0 = 3 + 0.6 load, eps_flop = (2 + 10 s_gpu) pJ,
        // eps_byte = (5 + 40 s_emc) pJ exactly: the regression recovers them for a fifth mode.
        const DeviceSpec d = orinLikeDevice();
        MeasuredProfile p;
        p.deviceId = d.id;
        auto truth = [&](const PowerMode& m) {
            const PowerFeatures f = powerFeatures(d, m);
            return fittedModel(3 + 0.6 * f.cpuLoad, (2 + 10 * f.gpuScale) * 1e-12,
                               (5 + 40 * f.emcScale) * 1e-12);
        };
        for (const PowerMode& m :
             {mode("a", 12, 2201600, 1300500000, 3199000000), mode("b", 4, 729600, 306000000, 665600000),
              mode("c", 8, 1113600, 650250000, 2133000000), mode("d", 2, 2201600, 306000000, 3199000000)})
            p.modes.push_back(measured(m, truth(m)));
        const PowerMode target = mode("e", 6, 1113600, 1300500000, 665600000);
        const ModeProfile r = resolveModeProfiles(d, {target}, idealRuntime(), &p).at(0);
        const PowerModel expected = truth(target);
        COMPARE_REL_TOL(r.power.constantPower.value, expected.constantPower.value, 1e-9);
        COMPARE_REL_TOL(r.power.energyPerFlop.value, expected.energyPerFlop.value, 1e-9);
        COMPARE_REL_TOL(r.power.energyPerByte.value, expected.energyPerByte.value, 1e-9);
        QCOMPARE(r.power.energyPerByte.provenance, Provenance::Predicted);
        QVERIFY(QString::fromStdString(r.power.constantPower.basis).contains("least squares"));
    }

    void profileOfAnotherDevice() {
        MeasuredProfile p = sampleProfile();
        p.deviceId = "tx2";
        QVERIFY_EXCEPTION_THROWN(resolveModeProfiles(orinLikeDevice(), {p.modes[0].mode}, idealRuntime(), &p),
                                 InputError);
    }
};

ROOFTOP_TEST_CLASS(MeasuredProfileTest)
#include "test_measured_profile.moc"
