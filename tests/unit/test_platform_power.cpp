// SPDX-License-Identifier: GPL-3.0-or-later
// INA3221 rail discovery (hwmon and the JetPack 4 iio driver) on the fixture trees, module power, energy by
// trapezoidal integration, the sampler thread, NVML with a missing library or missing symbols, and tegrastats
// lines of three JetPack generations plus junk.
#include "core/microbench/energy_meter.h"
#include "core/platform/nvml_power.h"
#include "core/platform/power_rails.h"
#include "core/platform/power_sampler.h"
#include "core/platform/tegrastats.h"
#include "support/device_fixtures.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"

#include <QtTest>
#include <cstdlib>

using namespace rooftop;
using rooftop::test::jetsonFixture;
using rooftop::test::ScopedEnv;

namespace {

QStringList labels(const std::vector<RailChannel>& rails) {
    QStringList out;
    for (const auto& r : rails)
        out << QString::fromStdString(r.sensor + ":" + r.label);
    return out;
}

class ConstantSource final : public PowerSource {
public:
    explicit ConstantSource(double watts) : watts_(watts) {}
    std::string description() const override { return "constant"; }
    std::optional<double> readWatts() override { return watts_; }

private:
    double watts_;
};

} // namespace

class PlatformPower : public QObject {
    Q_OBJECT
private slots:
    void railsPerBoard_data() {
        QTest::addColumn<QString>("board");
        QTest::addColumn<QStringList>("rails");
        QTest::addColumn<QStringList>("module");
        QTest::addColumn<double>("watts");
        // AGX Orin: no VDD_IN, NC channels skipped, module = sum of rails (19x0.5 + 19x0.2 + 5x0.6
        // + 1.8x0.25)
        QTest::newRow("agx-orin-jp5") << "agx-orin-jp5"
                                      << QStringList{"1-0040:VDD_GPU_SOC", "1-0040:VDD_CPU_CV",
                                                     "1-0040:VIN_SYS_5V0", "1-0041:VDDQ_VDD2_1V8AO"}
                                      << QStringList{"1-0040:VDD_GPU_SOC", "1-0040:VDD_CPU_CV",
                                                     "1-0040:VIN_SYS_5V0", "1-0041:VDDQ_VDD2_1V8AO"}
                                      << 9.5 + 3.8 + 3.0 + 0.45;
        QTest::newRow("orin-nano-jp6")
            << "orin-nano-jp6" << QStringList{"1-0040:VDD_IN", "1-0040:VDD_CPU_GPU_CV", "1-0040:VDD_SOC"}
            << QStringList{"1-0040:VDD_IN"} << 5.0;
        QTest::newRow("xavier-nx-jp5")
            << "xavier-nx-jp5" << QStringList{"7-0040:VDD_IN", "7-0040:VDD_CPU_GPU_CV", "7-0040:VDD_SOC"}
            << QStringList{"7-0040:VDD_IN"} << 6.0;
        QTest::newRow("tx2-jp4 (iio)")
            << "tx2-jp4" << QStringList{"0-0040:VDD_SYS_GPU", "0-0040:VDD_SYS_SOC", "0-0040:VDD_4V0_WIFI",
                                        "0-0041:VDD_IN",      "0-0041:VDD_SYS_CPU", "0-0041:VDD_SYS_DDR"}
            << QStringList{"0-0041:VDD_IN"} << 1.383;
        // Thor (JetPack 7.0 and 7.1): VDD_GPU, VDD_CPU_SOC_MSS, VIN_SYS_5V0 and the module input VIN
        // (48 V x 0.48 A), which alone is the module's power
        for (const char* thor : {"thor-t5000-jp70", "thor-t5000-jp71"})
            QTest::newRow(thor) << thor
                                << QStringList{"2-0040:VDD_GPU", "2-0040:VDD_CPU_SOC_MSS",
                                               "2-0040:VIN_SYS_5V0", "2-0041:VIN"}
                                << QStringList{"2-0041:VIN"} << 48.0 * 0.48;
        // AGX Orin on JetPack 7.2: the same rails as on JetPack 6, summed
        QTest::newRow("agx-orin-jp72") << "agx-orin-jp72"
                                       << QStringList{"1-0040:VDD_GPU_SOC", "1-0040:VDD_CPU_CV",
                                                      "1-0040:VIN_SYS_5V0", "1-0041:VDDQ_VDD2_1V8AO"}
                                       << QStringList{"1-0040:VDD_GPU_SOC", "1-0040:VDD_CPU_CV",
                                                      "1-0040:VIN_SYS_5V0", "1-0041:VDDQ_VDD2_1V8AO"}
                                       << 9.5 + 3.8 + 3.0 + 0.45;
    }
    void railsPerBoard() {
        QFETCH(QString, board);
        QFETCH(QStringList, rails);
        QFETCH(QStringList, module);
        QFETCH(double, watts);
        const SysfsRoot root = jetsonFixture(board.toUtf8().constData());
        const auto found = discoverRails(root);
        QCOMPARE(labels(found), rails);
        const auto total = moduleRails(found);
        QCOMPARE(labels(total), module);
        RailPowerSource source(root, total);
        const auto read = source.readWatts();
        QVERIFY(read.has_value());
        QVERIFY2(std::abs(*read - watts) < 1e-9, qPrintable(QString::number(*read)));
    }

    void noRails() {
        RailPowerSource source(SysfsRoot("/nonexistent-root"), {});
        QVERIFY(!source.readWatts());
        QVERIFY(discoverRails(SysfsRoot("/nonexistent-root")).empty());
        RailChannel broken;
        broken.voltagePath = "nope";
        broken.currentPath = "nope";
        QVERIFY(!readRailWatts(jetsonFixture("agx-orin-jp6"), broken));
    }

    void integrationExactForConstantPower() {
        const std::vector<PowerSample> samples = {{0.0, 12.0}, {0.3, 12.0}, {0.7, 12.0}, {1.6, 12.0}};
        QCOMPARE(integrateEnergy(samples, 0.0, 1.6), 12.0 * 1.6);
        QCOMPARE(integrateEnergy(samples, 0.5, 1.0), 12.0 * 0.5);
        QCOMPARE(integrateEnergy(samples, -1.0, 2.0), 36.0); // held constant outside the samples
        QCOMPARE(integrateEnergy({}, 0.0, 1.0), 0.0);
        QCOMPARE(integrateEnergy(samples, 1.0, 1.0), 0.0);
    }

    void integrationTrapezoidal() {
        // a ramp 0 -> 10 W over 2 s is exactly 10 J; a window inside it interpolates its end points
        const std::vector<PowerSample> ramp = {{0.0, 0.0}, {1.0, 5.0}, {2.0, 10.0}};
        QCOMPARE(integrateEnergy(ramp, 0.0, 2.0), 10.0);
        QCOMPARE(integrateEnergy(ramp, 0.5, 1.5), 5.0);
        // a step between samples is integrated as the trapezoid, not the step
        QCOMPARE(integrateEnergy({{0.0, 2.0}, {1.0, 4.0}}, 0.0, 1.0), 3.0);
    }

    void samplerThreadConstantPower() {
        SampledEnergyMeter meter(std::make_unique<ConstantSource>(7.5), std::chrono::milliseconds(5));
        meter.start();
        QTest::qWait(120);
        const EnergyWindow window = meter.stop();
        QVERIFY(window.samples.size() >= 5);
        QVERIFY(window.seconds >= 0.11);
        QVERIFY2(std::abs(window.joules - 7.5 * window.seconds) < 1e-9,
                 qPrintable(QString::number(window.joules)));
        for (size_t i = 1; i < window.samples.size(); ++i)
            QVERIFY(window.samples[i].seconds > window.samples[i - 1].seconds);
        QCOMPARE(meter.description(), std::string("constant"));
        PowerSampler sampler(std::make_shared<ConstantSource>(7.5), std::chrono::milliseconds(2));
        QVERIFY(sampler.stop().empty()); // stop before start is harmless
    }

    void aRunShorterThanTheFirstSampleStillGetsOne() {
        // start() then stop() at once: the thread may not have run (as on a loaded machine), yet the window
        // must hold the power at its end, or a fast run would have no power at all.
        PowerSampler sampler(std::make_shared<ConstantSource>(5.0), std::chrono::milliseconds(50));
        for (int i = 0; i < 200; ++i) {
            sampler.start();
            const std::vector<PowerSample> samples = sampler.stop();
            QVERIFY2(!samples.empty(), qPrintable(QString("stop %1 returned no sample").arg(i)));
            QCOMPARE(samples.front().watts, 5.0);
        }
    }

    void nvmlMissingLibrary() {
        ScopedEnv env("ROOFTOP_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
        std::string why;
        QVERIFY(!openNvmlPowerSource(0, &why));
        QCOMPARE(why, std::string("NVML power not available: cannot load /nonexistent/libnvidia-ml.so.1"));
        QVERIFY(!openNvmlPowerSource(0, nullptr));
    }

    void nvmlMissingSymbols() {
        // a library that loads but is not NVML (the fake CUDA driver of the probe tests)
        ScopedEnv env("ROOFTOP_NVML_LIBRARY", ROOFTOP_FAKE_LIBCUDA);
        std::string why;
        QVERIFY(!openNvmlPowerSource(0, &why));
        QVERIFY2(why.find("lacks an NVML entry point") != std::string::npos, why.c_str());
    }

    void tegrastatsLines() {
        const TegrastatsLine orin = parseTegrastatsLine(
            "01-03-2023 16:07:54 RAM 2257/30536MB (lfb 5392x4MB) SWAP 0/15268MB (cached 0MB) CPU "
            "[1%@729,off] "
            "EMC_FREQ 0%@204 GR3D_FREQ 7%@918 VDD_GPU_SOC 2390mW/2390mW VDD_CPU_CV 796mW/790mW NC 0mW/0mW");
        QCOMPARE(int(orin.rails.size()), 2);
        QCOMPARE(QString::fromStdString(orin.rails[1].label), QString("VDD_CPU_CV"));
        QCOMPARE(orin.rails[1].milliwatts, int64_t(796));
        QCOMPARE(orin.rails[1].averageMilliwatts, int64_t(790));
        QCOMPARE(orin.gpuLoadPercent, std::optional<int>(7));
        QCOMPARE(orin.gpuMhz, std::optional<int64_t>(918));
        const TegrastatsLine tx2 = parseTegrastatsLine(
            "RAM 1811/7854MB CPU [3%@345,off] GR3D_FREQ 0% VDD_IN 1383/1383 VDD_GPU 76/80");
        QCOMPARE(int(tx2.rails.size()), 2);
        QCOMPARE(tx2.rails[0].milliwatts, int64_t(1383));
        QCOMPARE(tx2.gpuLoadPercent, std::optional<int>(0));
        QVERIFY(!tx2.gpuMhz); // non-root output has no @freq
        for (const char* junk : {"", "VDD_IN", "VDD_IN -5/3", "VDD_IN 5mW/x", "GR3D_FREQ 900%@1",
                                 "vdd_in 1/1", "A 99999999999999999999/1"}) {
            const TegrastatsLine parsed = parseTegrastatsLine(junk);
            QVERIFY2(parsed.rails.empty(), junk);
            QVERIFY(!parsed.gpuLoadPercent);
        }
        QVERIFY(parseTegrastatsLine(std::string(70000, 'A') + " 1/1").rails.empty());
    }

    void tegrastatsJetPack7Lines() {
        // Thor, JetPack 7: three GPC clocks and no utilisation (NVML has it), rails with instant / average /
        // max
        const TegrastatsLine loaded = parseTegrastatsLine(
            "08-08-2026 21:03:11 RAM 8353/125749MB (lfb 31x4MB) CPU [98%@2601,97%@2601,off] EMC_FREQ "
            "34%@4266 "
            "GR3D_FREQ 87%@[1574,1574,1574] NVENC0_FREQ @1691 VIC off cpu@58.25C/61.75C tj@66.625C/66.625C "
            "VDD_GPU 37939mW/8660mW/37939mW VDD_CPU_SOC_MSS 30059mW/12281mW/30059mW "
            "VIN_SYS_5V0 15486mW/7424mW/15486mW VIN 124486mW/36487mW/124486mW FUTURE_TOKEN value");
        QCOMPARE(int(loaded.rails.size()), 4);
        QCOMPARE(QString::fromStdString(loaded.rails[3].label), QString("VIN"));
        QCOMPARE(loaded.rails[3].milliwatts, int64_t(124486));
        QCOMPARE(loaded.rails[3].averageMilliwatts, int64_t(36487));
        QCOMPARE(loaded.rails[3].peakMilliwatts, std::optional<int64_t>(124486));
        QCOMPARE(QString::fromStdString(loaded.rails[1].label), QString("VDD_CPU_SOC_MSS"));
        QCOMPARE(loaded.gpuLoadPercent, std::optional<int>(87));
        QCOMPARE(loaded.gpuMhz, std::optional<int64_t>(1574));
        QCOMPARE(int(loaded.gpcMhz.size()), 3);
        const TegrastatsLine idle = parseTegrastatsLine(
            "08-08-2026 20:58:23 RAM 3429/125749MB (lfb 120x4MB) CPU [0%,5%,off]@2601 EMC_FREQ @4266 "
            "GR3D_FREQ @[314,off,314] cpu@49.75C/49.75C VDD_GPU 6330mW/6330mW/6330mW VIN "
            "28906mW/14453mW/28906mW");
        QVERIFY(!idle.gpuLoadPercent); // JetPack 7 prints no GPU utilisation
        QCOMPARE(idle.gpuMhz, std::optional<int64_t>(314));
        QCOMPARE(int(idle.gpcMhz.size()), 3);
        QVERIFY(!idle.gpcMhz[1]); // a GPC that is off
        QCOMPARE(int(idle.rails.size()), 2);
        QCOMPARE(idle.rails[1].milliwatts, int64_t(28906));
        // Orin on JetPack 6.4+: utilisation and an array of two GPC clocks
        const TegrastatsLine orin = parseTegrastatsLine("GR3D_FREQ 0%@[0,0] VDD_IN 4541mW/4541mW");
        QCOMPARE(orin.gpuLoadPercent, std::optional<int>(0));
        QCOMPARE(orin.gpuMhz, std::optional<int64_t>(0));
        QVERIFY(!orin.rails[0].peakMilliwatts);
        for (const char* junk : {"VIN 1mW/2mW/x", "VIN 1/2/3/4", "GR3D_FREQ @[1574", "GR3D_FREQ @[]",
                                 "GR3D_FREQ @[-1,x]", "VIN //"}) {
            const TegrastatsLine parsed = parseTegrastatsLine(junk);
            QVERIFY2(parsed.rails.empty(), junk);
            QVERIFY2(!parsed.gpuMhz, junk);
        }
    }

    void nvmlDefaultName() {
        const ScopedEnv noLibrary("ROOFTOP_NVML_LIBRARY");
        QCOMPARE(nvmlLibrary(), std::string("libnvidia-ml.so.1"));
    }
};

ROOFTOP_TEST_CLASS(PlatformPower)
#include "test_platform_power.moc"
