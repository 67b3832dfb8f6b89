// SPDX-License-Identifier: GPL-3.0-or-later
// Power modes (stock, grid, custom), runtimes, and the `rooftop devices` / `rooftop modes` commands.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "support/cli_runner.h"
#include "support/device_fixtures.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <set>

using namespace rooftop;
using rooftop::test::runRooftop;
using rooftop::test::shippedCatalog;
using rooftop::test::shippedDevice;
using rooftop::test::writeBytes;

namespace {

using test::errorOf;

/// Runs the CLI with ROOFTOP_DATA_DIR pointing at a folder (restored afterwards).
rooftop::test::CliResult runWithDataDir(const QString& dataDir, const QStringList& arguments) {
    const rooftop::test::ScopedEnv env("ROOFTOP_DATA_DIR", dataDir.toUtf8());
    return runRooftop(arguments);
}

RuntimeProfile unitRuntime() {
    RuntimeProfile r;
    r.name = "unit";
    r.dispatchSecondsAtMaxCpu = 10e-6;
    return r;
}

} // namespace

class PowerModes : public QObject {
    Q_OBJECT
private slots:
    void stockModesInIdOrder() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const std::vector<PowerMode> modes = stockPowerModes(agx);
        QCOMPARE(modes.size(), size_t(4));
        QCOMPARE(modes[0].name, std::string("MAXN"));
        QVERIFY(modes[0].stock);
        QCOMPARE(modes[0].stockId, 0);
        QCOMPARE(modes[0].onlineCores, 12);
        QCOMPARE(modes[0].cpuKhz, int64_t(2201600));
        QCOMPARE(modes[0].gpuHz, int64_t(1300500000));
        QCOMPARE(modes[0].emcHz, int64_t(3199000000));
        QCOMPARE(modes[0].activeTpcs, 8);
        QCOMPARE(modes[0].budgetWatts, 60.0);
        QCOMPARE(modes[2].name, std::string("MODE_30W"));
        QCOMPARE(modes[2].cpuKhz, int64_t(1728000));
        QCOMPARE(modes[2].gpuHz, int64_t(612000000));
        QCOMPARE(modes[2].activeTpcs, 4);
        QCOMPARE(modes[2].budgetWatts, 30.0);
        // Orin Nano Super: ids 0..3, MAXN_SUPER id 2, the JetPack 6.2.x 7W mode id 3
        const auto nano = stockPowerModes(shippedDevice("orin-nano-8gb-super"));
        QCOMPARE(nano.size(), size_t(4));
        QCOMPARE(nano[2].name, std::string("MAXN_SUPER"));
        QCOMPARE(nano[2].stockId, 2);
        QCOMPARE(nano[3].name, std::string("7W"));
        QCOMPARE(nano[3].stockId, 3);
        for (const auto& d : shippedCatalog()) {
            const auto modes = stockPowerModes(d);
            QCOMPARE(modes.size(), d.stockModes.size());
            for (size_t i = 1; i < modes.size(); ++i)
                QVERIFY(modes[i - 1].stockId < modes[i].stockId);
        }
    }

    void gridIsTheResearchGrid() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const std::vector<PowerMode> grid = gridPowerModes(agx);
        QCOMPARE(grid.size(), size_t(4368));
        std::set<std::string> names;
        std::set<int> cores;
        std::set<int64_t> cpu, gpu, emc;
        for (const auto& m : grid) {
            QVERIFY(!m.stock);
            QCOMPARE(m.activeTpcs, 8);
            names.insert(m.name);
            cores.insert(m.onlineCores);
            cpu.insert(m.cpuKhz);
            gpu.insert(m.gpuHz);
            emc.insert(m.emcHz);
        }
        QCOMPARE(names.size(), size_t(4368));
        QCOMPARE(cores, (std::set<int>{2, 4, 6, 8, 10, 12}));
        QCOMPARE(cpu, (std::set<int64_t>{268800, 422400, 576000, 729600, 883200, 1036800, 1190400, 1344000,
                                         1497600, 1651200, 1804800, 1958400, 2112000, 2201600}));
        QCOMPARE(gpu, (std::set<int64_t>{114750000, 216750000, 318750000, 420750000, 522750000, 624750000,
                                         726750000, 828750000, 930750000, 1032750000, 1134750000, 1236750000,
                                         1300500000}));
        QCOMPARE(emc, (std::set<int64_t>{204000000, 665600000, 2133000000, 3199000000}));
        QCOMPARE(grid.front().name, std::string("c2-cpu268.8-gpu114.75-emc204"));
        QCOMPARE(grid.back().name, std::string("c12-cpu2201.6-gpu1300.5-emc3199"));
        // every grid mode is a valid custom mode
        for (size_t i = 0; i < grid.size(); i += 97) {
            const PowerMode& m = grid[i];
            QCOMPARE(customPowerMode(agx, m.onlineCores, m.cpuKhz, m.gpuHz, m.emcHz).name, m.name);
        }
        // the other boards' grids are valid too
        for (const auto& d : shippedCatalog())
            QCOMPARE(gridPowerModes(d).size(), d.grid.size());
    }

    void customModes() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const PowerMode m = customPowerMode(agx, 8, 1728000, 612000000, 3199000000);
        QCOMPARE(m.name, std::string("c8-cpu1728-gpu612-emc3199"));
        QVERIFY(!m.stock);
        QCOMPARE(m.stockId, -1);
        QCOMPARE(m.activeTpcs, 8);
        QCOMPARE(m.cpuKhz, int64_t(1728000));
        QCOMPARE(errorOf([&] { customPowerMode(agx, 8, 1728000, 555000000, 3199000000); }),
                 QString("GPU 555000000 Hz is not in agx-orin-64gb's GPU ladder (114750000 ... 1300500000)"));
        QCOMPARE(errorOf([&] { customPowerMode(agx, 8, 1700000, 612000000, 3199000000); }),
                 QString("CPU 1700000 kHz is not in agx-orin-64gb's CPU ladder (115200 ... 2201600)"));
        QCOMPARE(
            errorOf([&] { customPowerMode(agx, 8, 1728000, 612000000, 1600000000); }),
            QString("EMC 1600000000 Hz is not in agx-orin-64gb's EMC ladder (204000000 ... 3199000000)"));
        QCOMPARE(errorOf([&] { customPowerMode(agx, 13, 1728000, 612000000, 3199000000); }),
                 QString("13 online cores is out of range for agx-orin-64gb (1 ... 12)"));
        QVERIFY(!errorOf([&] { customPowerMode(agx, 0, 1728000, 612000000, 3199000000); }).isEmpty());
        // a Super-only clock is not on the pre-Super ladder
        QVERIFY(errorOf([] {
                    customPowerMode(shippedDevice("orin-nano-8gb"), 6, 1728000, 1020000000, 3199000000);
                }).contains("is not in orin-nano-8gb's CPU ladder"));
        QCOMPARE(
            customPowerMode(shippedDevice("orin-nano-8gb-super"), 6, 1728000, 1020000000, 3199000000).name,
            std::string("c6-cpu1728-gpu1020-emc3199"));
    }

    void parsesCustomModes() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const PowerMode m = parseCustomMode(agx, "cores=8,cpu=1728000,gpu=612000000,emc=3199000000");
        QCOMPARE(m.onlineCores, 8);
        QCOMPARE(m.cpuKhz, int64_t(1728000));
        QCOMPARE(m.gpuHz, int64_t(612000000));
        QCOMPARE(m.emcHz, int64_t(3199000000));
        QCOMPARE(m.name, std::string("c8-cpu1728-gpu612-emc3199"));
        const PowerMode spaced =
            parseCustomMode(agx, " emc = 665600000 , GPU=1300500000, cpu=2201600 ,cores=12 ");
        QCOMPARE(spaced.name, std::string("c12-cpu2201.6-gpu1300.5-emc665.6"));
        QVERIFY(errorOf([&] {
                    parseCustomMode(agx, "cores=8,cpu=1728000,gpu=612000000");
                }).contains("missing emc="));
        QVERIFY(errorOf([&] {
                    parseCustomMode(agx, "cores=8,cores=4,cpu=1728000,gpu=612000000,emc=3199000000");
                }).contains("cores given twice"));
        QVERIFY(errorOf([&] {
                    parseCustomMode(agx, "cores=8,cpu=fast,gpu=612000000,emc=3199000000");
                }).contains("cpu must be a positive number of MHz, got 'fast'"));
        QVERIFY(errorOf([&] {
                    parseCustomMode(agx, "cores=8,cpu=1728000,gpu=612000000,emc=3199000000,dla=1");
                }).contains("unknown key 'dla'"));
        QVERIFY(
            errorOf([&] { parseCustomMode(agx, "8,1728000,612000000,3199000000"); }).contains("has no '='"));
        QVERIFY(errorOf([&] { parseCustomMode(agx, ""); }).contains("missing cores="));
        QCOMPARE(
            errorOf([&] { parseCustomMode(agx, "cores=8,cpu=1728000,gpu=555000000,emc=3199000000"); }),
            QString(
                "custom mode 'cores=8,cpu=1728000,gpu=555000000,emc=3199000000': GPU 555000000 Hz (555 MHz) "
                "is not on agx-orin-64gb's GPU ladder (114.75 ... 1300.5 MHz); clocks in a custom mode are "
                "in MHz, as in its name (cpu=1728,gpu=612,emc=3199)"));
    }

    void customModeClocksAreInMegahertz() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const PowerMode mhz = parseCustomMode(agx, "cores=12,cpu=2201.6,gpu=1300.5MHz,emc=665.6");
        QCOMPARE(mhz.cpuKhz, int64_t(2201600));
        QCOMPARE(mhz.gpuHz, int64_t(1300500000));
        QCOMPARE(mhz.emcHz, int64_t(665600000));
        // the units older files wrote give the same mode
        QCOMPARE(parseCustomMode(agx, "cores=12,cpu=2201600,gpu=1300500000,emc=665600000").name, mhz.name);
        QCOMPARE(
            errorOf([&] { parseCustomMode(agx, "cores=8,cpu=1728,gpu=555,emc=3199"); }),
            QString("custom mode 'cores=8,cpu=1728,gpu=555,emc=3199': GPU 555 MHz is not on agx-orin-64gb's "
                    "GPU ladder (114.75 ... 1300.5 MHz); clocks in a custom mode are in MHz, as in its name "
                    "(cpu=1728,gpu=612,emc=3199)"));
        QVERIFY(errorOf([&] {
                    parseCustomMode(agx, "cores=8,cpu=1728,gpu=612,emc=3199.5");
                }).contains("EMC 3199.5 MHz is not on"));
        QVERIFY(errorOf([&] {
                    parseCustomMode(agx, "cores=8.5,cpu=1728,gpu=612,emc=3199");
                }).contains("cores must be a positive integer"));
    }

    void readableNamesOfModes() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        QCOMPARE(readableModeName(parseCustomMode(agx, "cores=8,cpu=1958.4,gpu=828.75,emc=3199")),
                 std::string("GPU 829 \u00b7 EMC 3199 \u00b7 8 \u00d7 1958 MHz"));
        QCOMPARE(readableModeName(resolvePowerMode(agx, "c2-cpu1651.2-gpu624.75-emc2133")),
                 std::string("GPU 625 \u00b7 EMC 2133 \u00b7 2 \u00d7 1651 MHz"));
        QCOMPARE(readableModeName(resolvePowerMode(agx, "MAXN")), std::string("MAXN"));
    }

    void mistypedStockNamesFindTheModeMeant() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        QCOMPARE(nearestStockModeName(agx, "50W"), std::string("MODE_50W"));
        QCOMPARE(nearestStockModeName(agx, "mode 30w"), std::string("MODE_30W"));
        QCOMPARE(nearestStockModeName(agx, "w"), std::string()); // in every name: names none
        QCOMPARE(nearestStockModeName(agx, "TURBO"), std::string());
        QVERIFY(errorOf([&] { resolvePowerMode(agx, "15W"); }).contains("did you mean MODE_15W?"));
    }

    void customModeNames() {
        QCOMPARE(customModeName(8, 1728000, 612000000, 3199000000), std::string("c8-cpu1728-gpu612-emc3199"));
        QCOMPARE(customModeName(2, 268800, 114750000, 665600000),
                 std::string("c2-cpu268.8-gpu114.75-emc665.6"));
        QCOMPARE(customModeName(4, 1479000, 921600000, 1600000000),
                 std::string("c4-cpu1479-gpu921.6-emc1600"));
    }

    void powerModeFromStock() {
        const DeviceSpec& xavier = shippedDevice("agx-xavier");
        const PowerMode m = powerModeFrom(xavier, *xavier.stockMode(1));
        QCOMPARE(m.name, std::string("MODE_10W"));
        QCOMPARE(m.gpuHz, int64_t(522750000)); // conf 520 MHz resolved to the nearest ladder step
        QCOMPARE(m.activeTpcs, 2);
        QCOMPARE(m.budgetWatts, 10.0);
    }

    // ---- runtimes
    // ----------------------------------------------------------------------------------------------

    void runtimesFileMatchesBuiltIns() {
        const auto fromFile = loadRuntimeFile(ROOFTOP_SOURCE_DATA_DIR "/runtimes.json");
        const auto builtIn = builtInRuntimes();
        QCOMPARE(fromFile.size(), builtIn.size());
        for (size_t i = 0; i < builtIn.size(); ++i) {
            QCOMPARE(fromFile[i].name, builtIn[i].name);
            QCOMPARE(fromFile[i].dispatchSecondsAtMaxCpu, builtIn[i].dispatchSecondsAtMaxCpu);
            QCOMPARE(fromFile[i].computeEfficiency, builtIn[i].computeEfficiency);
            QCOMPARE(fromFile[i].bandwidthEfficiency, builtIn[i].bandwidthEfficiency);
            QCOMPARE(fromFile[i].basis, builtIn[i].basis);
            QVERIFY(!fromFile[i].calibrated);
        }
        std::set<std::string> names;
        for (const auto& r : knownRuntimes())
            names.insert(r.name);
        QCOMPARE(names, (std::set<std::string>{"tensorrt", "onnxruntime-cuda", "pytorch-eager", "ideal"}));
        // an eager framework costs an order of magnitude more per layer than a compiled engine
        QVERIFY(findRuntime("pytorch-eager").dispatchSecondsAtMaxCpu >=
                5 * findRuntime("tensorrt").dispatchSecondsAtMaxCpu);
        QCOMPARE(findRuntime("tensorrt").dispatchSecondsAtMaxCpu, 6e-6);
    }

    void findRuntimeListsNames() {
        const QString message = errorOf([] { findRuntime("tvm"); });
        QVERIFY(message.startsWith(
            "unknown runtime 'tvm'; known runtimes: tensorrt, onnxruntime-cuda, pytorch-eager"));
    }

    void builtInsWhenNoFile() {
        QTemporaryDir dir;
        const test::ScopedEnv dataDir("ROOFTOP_DATA_DIR", dir.path().toUtf8());
        const auto runtimes = knownRuntimes();
        QCOMPARE(runtimes.size(), builtInRuntimes().size());
        QVERIFY(writeBytes(
            dir.filePath("runtimes.json"),
            R"({"schema": "rooftop-runtimes/1", "runtimes": [{"name": "mine", "dispatch_us_at_max_cpu": 3,
                              "compute_efficiency": 0.9, "bandwidth_efficiency": 0.9, "basis": "measured", "calibrated": true}]})"));
        QCOMPARE(findRuntime("mine").dispatchSecondsAtMaxCpu, 3e-6);
        QVERIFY(findRuntime("mine").calibrated);
        QVERIFY(errorOf([] { findRuntime("tensorrt"); }).contains("known runtimes: mine"));
    }

    void malformedRuntimeFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("runtimes.json");
        QVERIFY(writeBytes(
            path,
            R"({"schema": "rooftop-runtimes/1", "runtimes": [{"name": "x", "dispatch_us_at_max_cpu": "6",
                                    "compute_efficiency": 1, "bandwidth_efficiency": 1, "basis": "b"}]})"));
        QCOMPARE(errorOf([&] { loadRuntimeFile(path.toStdString()); }),
                 QString("runtimes.json: runtimes[0].dispatch_us_at_max_cpu: expected a number"));
        QVERIFY(writeBytes(
            path, R"({"schema": "rooftop-runtimes/1", "runtimes": [{"name": "x", "dispatch_us_at_max_cpu": 6,
                                    "compute_efficiency": 1.5, "bandwidth_efficiency": 1, "basis": "b"}]})"));
        QVERIFY(errorOf([&] {
                    loadRuntimeFile(path.toStdString());
                }).startsWith("runtimes.json: runtimes[0].compute_efficiency: expected a number from"));
        QVERIFY(writeBytes(
            path, R"({"schema": "rooftop-runtimes/1", "runtimes": [{"name": "x", "dispatch_us_at_max_cpu": 6,
                                    "compute_efficiency": 1, "bandwidth_efficiency": 1}]})"));
        QCOMPARE(errorOf([&] { loadRuntimeFile(path.toStdString()); }),
                 QString("runtimes.json: runtimes[0].basis: missing"));
    }

    void dispatchScalesWithCpuClock() {
        RuntimeProfile r = unitRuntime();
        QCOMPARE(dispatchSeconds(r, 2201600, 2201600), 10e-6);
        QCOMPARE(dispatchSeconds(r, 1100800, 2201600), 20e-6);
        QCOMPARE(dispatchSeconds(r, 0, 2201600), 10e-6); // unknown clock: unscaled
        // through deriveCeilings: MODE_15W runs the CPU at 1113.6 of 2201.6 MHz
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const Ceilings c = deriveCeilings(agx, powerModeFrom(agx, *agx.stockMode(1)), r);
        QCOMPARE(c.dispatchOverhead.value, 10e-6 * 2201600.0 / 1113600.0);
        QCOMPARE(c.dispatchOverhead.provenance, Provenance::Estimate);
    }

    void runtimeEfficienciesApply() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const PowerMode maxn = powerModeFrom(agx, *agx.stockMode(0));
        const Ceilings ideal = deriveCeilings(agx, maxn, findRuntime("ideal"));
        QCOMPARE(ideal.peak(ComputeClass::Fp32CudaCore).value, 5.326848e12);
        QCOMPARE(ideal.peak(ComputeClass::Fp32CudaCore).provenance, Provenance::Datasheet);
        QCOMPARE(ideal.dispatchOverhead.value, 0.0);
        const RuntimeProfile trt = findRuntime("tensorrt");
        const Ceilings c = deriveCeilings(agx, maxn, trt);
        QCOMPARE(c.peak(ComputeClass::Fp32CudaCore).value, 5.326848e12 * trt.computeEfficiency);
        QCOMPARE(c.bandwidth.value, 204.736e9 * trt.bandwidthEfficiency);
        QCOMPARE(c.dispatchOverhead.value, 6e-6);
    }

    // ---- CLI
    // ---------------------------------------------------------------------------------------------------

    void devicesCommand() {
        const auto table = runRooftop({"devices"});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(!table.crashed);
        for (const char* id : {"agx-orin-64gb", "orin-nano-8gb-super", "xavier-nx", "tx2", "nano"})
            QVERIFY2(table.out.contains(id), id);
        QVERIFY(table.out.contains("MAXN"));
        QVERIFY(table.out.contains("204.7"));
        QVERIFY(table.out.contains("2 MODE_30W"));

        const auto json = runRooftop({"devices", "--format", "json"});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonArray devices = root["devices"].toArray();
        QCOMPARE(devices.size(), 16);
        bool found = false, thor = false;
        for (const auto& value : devices) {
            const QJsonObject d = value.toObject();
            if (d["id"].toString() == "agx-thor-t5000") { // every tensor precision, dense and 2:4 sparse
                thor = true;
                const QJsonObject peaks = d["gpu"].toObject()["peak_flops"].toObject();
                QCOMPARE(peaks["tensor_fp4"].toDouble(), 20.0 * 32768 * 1575e6);
                QCOMPARE(d["gpu"].toObject()["sparse_peak_flops"].toObject()["tensor_fp4"].toDouble(),
                         2 * 20.0 * 32768 * 1575e6);
                QVERIFY(peaks.contains("tensor_fp8") && peaks.contains("tensor_fp16") &&
                        peaks.contains("tensor_tf32") && peaks.contains("tensor_int8") &&
                        peaks.contains("fp32"));
            }
            if (d["id"].toString() == "agx-orin-64gb") // no FP8 / FP4 there, no sparse figure in its file
                QVERIFY(!d["gpu"].toObject()["peak_flops"].toObject().contains("tensor_fp8"));
            if (d["id"].toString() != "agx-orin-64gb") continue;
            found = true;
            QCOMPARE(d["gpu"].toObject()["sm_count"].toInt(), 16);
            QCOMPARE(d["gpu"].toObject()["cuda_cores"].toInt(), 2048);
            QCOMPARE(d["gpu"].toObject()["peak_flops"].toObject()["fp32"].toDouble(), 2.0 * 2048 * 1300.5e6);
            QCOMPARE(d["memory"].toObject()["peak_bandwidth"].toDouble(), 204.736e9);
            QCOMPARE(d["stock_modes"].toArray()[0].toObject()["mode"].toString(), QString("MAXN"));
            QCOMPARE(d["default_stock_id"].toInt(), 2);
            QCOMPARE(d["default_mode"].toString(), QString("MODE_30W"));
            QCOMPARE(d["grid_size"].toInt(), 4368);
            QCOMPARE(d["max_module_w"].toDouble(), 60.0); // the device file's power.max_module_watts
        }
        QCOMPARE(root["schema"].toString(), QString("rooftop-devices/6"));
        QVERIFY(found);
        QVERIFY(thor);
        QVERIFY(table.out.contains("agx-thor-t5000") && table.out.contains("1 120W"));
        // rooftop modes on Thor: the FP8 and FP4 columns and the tensor peaks line
        const auto modes = runRooftop({"modes", "--device", "agx-thor-t5000", "--runtime", "ideal"});
        QCOMPARE(modes.exitCode, 0);
        QVERIFY2(modes.out.contains("TENSOR FP4 TFLOP/s") && modes.out.contains("1032.2"),
                 qPrintable(modes.out));
        QVERIFY2(modes.out.contains("fp4 1032.2 / 2064.4"), qPrintable(modes.out));
        QVERIFY(!runRooftop({"modes", "--device", "agx-orin-64gb"}).out.contains("TENSOR FP8"));
        // Thor's 120W, 90W and 70W caps are the catalog's guesses: the table says so (AGX Orin's are not)
        QVERIFY2(modes.out.contains("Clocks of 120W, 90W, 70W are estimates"), qPrintable(modes.out));
        QVERIFY(!runRooftop({"modes", "--device", "agx-orin-64gb"}).out.contains("are estimates: no public"));

        const auto help = runRooftop({"devices", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("Usage: rooftop devices"));
        QCOMPARE(runRooftop({"devices", "--format", "xml"}).exitCode, 1);
        QCOMPARE(runRooftop({"devices", "extra"}).exitCode, 1);
    }

    void modesCommand() {
        const auto table = runRooftop({"modes", "--device", "agx-orin-64gb"});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(!table.crashed);
        for (const char* name : {"MAXN", "MODE_15W", "MODE_30W", "MODE_50W", "estimate"})
            QVERIFY2(table.out.contains(name), name);
        QVERIFY(table.out.contains("2*"));

        const auto ideal = runRooftop({"modes", "--device", "agx-orin-64gb", "--runtime", "ideal"});
        QCOMPARE(ideal.exitCode, 0);
        QVERIFY(ideal.out.contains("5.3268 datasheet"));
        QVERIFY(ideal.out.contains("204.7 datasheet"));

        const auto nope = runRooftop({"modes", "--device", "nope"});
        QCOMPARE(nope.exitCode, 1);
        QVERIFY(nope.err.contains("unknown device 'nope'"));
        QVERIFY(nope.err.contains("agx-orin-64gb"));
        QVERIFY(nope.err.contains("orin-nano-4gb-super"));

        const auto csv = runRooftop({"modes", "--device", "agx-orin-64gb", "--grid", "--format", "csv"});
        QCOMPARE(csv.exitCode, 0);
        QCOMPARE(csv.out.trimmed().split('\n').size(), 4368 + 1);
        // Orin has no FP8 tensor cores: its cells are empty (0 read as the datasheet's figure); Thor's are
        // not
        const auto fp8Cells = [](const QString& table) {
            const QStringList lines = table.trimmed().split('\n');
            const int column = int(lines[0].split(',').indexOf("tensor_fp8_tflops"));
            const QStringList cells = lines[1].split(',');
            return cells[column] + "|" + cells[column + 1];
        };
        QCOMPARE(fp8Cells(csv.out), QString("|"));
        const QString thor =
            fp8Cells(runRooftop({"modes", "--device", "agx-thor-t5000", "--format", "csv"}).out);
        QVERIFY2(thor.split('|')[0].toDouble() > 100 && thor.endsWith("|estimate"), qPrintable(thor));
        // --modes takes any mode set, as the other commands do: all is the 4 stock modes and the grid less
        // the grid modes that are a stock mode's operating point
        const auto all =
            runRooftop({"modes", "--device", "agx-orin-64gb", "--modes", "all", "--format", "csv"});
        QCOMPARE(all.exitCode, 0);
        QVERIFY(all.out.trimmed().split('\n').size() > 4368);
        const auto sampled =
            runRooftop({"modes", "--device", "agx-orin-64gb", "--modes", "sample:3", "--format", "csv"});
        QCOMPARE(sampled.out.trimmed().split('\n').size(), 3 + 1);
        // the table's first line counts what the set holds, stock and custom apart
        QVERIFY2(
            runRooftop({"modes", "--device", "agx-orin-64gb", "--modes", "all"})
                .out.startsWith("agx-orin-64gb (NVIDIA Jetson AGX Orin 64GB): 4 stock modes and 4367 custom "
                                "modes\n"),
            "modes --modes all");
        QVERIFY(runRooftop({"modes", "--device", "agx-orin-64gb", "--modes", "MAXN", "--modes", "MODE_15W"})
                    .out.startsWith("agx-orin-64gb (NVIDIA Jetson AGX Orin 64GB): 2 stock modes\n"));
        QCOMPARE(runRooftop({"modes", "--device", "agx-orin-64gb", "--modes", "grid", "--grid"}).exitCode, 1);
        const auto listed = runRooftop({"roofline", QString::fromStdString(test::samplePath("resnet18")),
                                        "--device", "agx-orin-64gb", "--modes", "MAXN;MODE_15W"});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY(listed.out.contains("MODE_15W  estimate") && !listed.out.contains("MODE_30W  estimate"));

        const auto json =
            runRooftop({"modes", "--device", "orin-nano-8gb", "--runtime", "ideal", "--format", "json"});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonArray modes = root["modes"].toArray();
        QCOMPARE(modes.size(), 2);
        const QJsonObject m0 = modes[0].toObject();
        QCOMPARE(m0["mode"].toString(), QString("15W"));
        QCOMPARE(m0["bandwidth"].toObject()["value"].toDouble(), 68.256e9);
        QCOMPARE(m0["bandwidth"].toObject()["provenance"].toString(), QString("datasheet"));
        QVERIFY(!m0["peak_flops"].toObject()["fp32"].toObject()["basis"].toString().isEmpty());
        QVERIFY(m0["default"].toBool());

        const auto custom =
            runRooftop({"modes", "--device", "agx-orin-64gb", "--custom",
                        "cores=8,cpu=1728000,gpu=612000000,emc=3199000000", "--format", "csv"});
        QCOMPARE(custom.exitCode, 0);
        QVERIFY(custom.out.contains("c8-cpu1728-gpu612-emc3199"));
        const auto offLadder = runRooftop({"modes", "--device", "agx-orin-64gb", "--custom",
                                           "cores=8,cpu=1728000,gpu=555000000,emc=3199000000"});
        QCOMPARE(offLadder.exitCode, 1);
        QVERIFY(offLadder.err.contains("GPU 555000000 Hz (555 MHz) is not on agx-orin-64gb's GPU ladder"));

        QCOMPARE(runRooftop({"modes"}).exitCode, 1);
        QCOMPARE(runRooftop({"modes", "--device", "agx-orin-64gb", "--runtime", "tvm"}).exitCode, 1);
        QCOMPARE(runRooftop({"modes", "--device", "agx-orin-64gb", "--grid", "--custom", "x"}).exitCode, 1);
        const auto help = runRooftop({"modes", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("Usage: rooftop modes [MODEL.onnx] --device ID"));
    }

    void cliReportsBrokenCatalogFile() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("devices"));
        QFile source(ROOFTOP_SOURCE_DATA_DIR "/devices/nano.json");
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(source.readAll()).object();
        root["default_mode"] = 7;
        QVERIFY(writeBytes(dir.path() + "/devices/nano.json", QJsonDocument(root).toJson()));
        const auto result = runWithDataDir(dir.path(), {"devices"});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("nano.json: default_mode: no stock mode has id 7"),
                 qPrintable(result.err));
    }
};

ROOFTOP_TEST_CLASS(PowerModes)
#include "test_power_modes.moc"
