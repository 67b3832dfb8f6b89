// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA probe against fake driver libraries (tests/support/fake_libcuda.cpp): a discrete H100-like GPU is
// found with its properties, an integrated one skipped; a missing library, a missing symbol, a failing cuInit
// or zero devices give an empty list; `rooftop devices` and --device cuda:N see the detected GPU.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/platform/cuda_probe.h"
#include "core/platform/detected_catalog.h"
#include "support/cli_runner.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace rooftop;
using rooftop::test::runRooftop;
using rooftop::test::ScopedEnv;

namespace {

const char* const nonexistentLibrary = "/nonexistent/libcuda.so.1";

} // namespace

class CudaProbe : public QObject {
    Q_OBJECT
private slots:
    void missingLibraryGivesNothing() {
        ScopedEnv env("ROOFTOP_CUDA_LIBRARY", nonexistentLibrary);
        QCOMPARE(cudaDriverLibrary(), std::string(nonexistentLibrary));
        QVERIFY(probeCudaDevices().empty());
        // a board lookup never needs the probe; a cuda:N lookup finds nothing
        const auto catalog = loadCatalogWithDetected(ROOFTOP_SOURCE_DATA_DIR "/devices");
        QCOMPARE(catalog.size(), loadCatalog(ROOFTOP_SOURCE_DATA_DIR "/devices").size());
    }

    void defaultLibraryName() {
        const ScopedEnv noLibrary("ROOFTOP_CUDA_LIBRARY");
        QCOMPARE(cudaDriverLibrary(), std::string("libcuda.so.1"));
    }

    void findsTheDiscreteGpuOnly() {
        ScopedEnv env("ROOFTOP_CUDA_LIBRARY", ROOFTOP_FAKE_LIBCUDA);
        const std::vector<DeviceSpec> found = probeCudaDevices();
        QCOMPARE(found.size(), size_t(1));
        const DeviceSpec& gpu = found.front();
        QCOMPARE(gpu.id, std::string("cuda:0"));
        QCOMPARE(gpu.name, std::string("NVIDIA H100 80GB HBM3"));
        QVERIFY(gpu.discrete);
        QCOMPARE(gpu.computeCapability, std::string("9.0"));
        QCOMPARE(gpu.units.smCount, 132);
        QCOMPARE(gpu.units.cudaCoresPerSm, 128);
        QCOMPARE(gpu.maxGpuHz(), int64_t(1980000000));
        QCOMPARE(gpu.maxEmcHz(), int64_t(2619000000));
        QCOMPARE(gpu.memoryBusBits, 5120);
        QCOMPARE(gpu.memoryType, std::string("HBM"));
        QCOMPARE(gpu.memoryGiB, 80.0);
        QCOMPARE(gpu.stockModes.size(), size_t(1));
        QCOMPARE(gpu.peakBandwidth(), 2619e6 * 2 * 640); // 3.35 TB/s
        // derived FP32 peak: 2 x 132 SMs x 128 cores x 1980 MHz = 66.9 TFLOP/s
        const Ceilings c = deriveCeilings(gpu, stockPowerModes(gpu).front(), findRuntime("ideal"));
        QCOMPARE(c.peak(ComputeClass::Fp32CudaCore).value, 2.0 * 132 * 128 * 1980e6);
        QCOMPARE(c.peak(ComputeClass::Fp32CudaCore).provenance, Provenance::Datasheet);

        // the catalog users see: boards first, then the detected GPU; board lookups skip the probe
        const auto all = loadCatalogWithDetected(ROOFTOP_SOURCE_DATA_DIR "/devices");
        QCOMPARE(all.back().id, std::string("cuda:0"));
        QCOMPARE(findDevice(all, "cuda:0").units.smCount, 132);
        QCOMPARE(loadCatalogWithDetected(ROOFTOP_SOURCE_DATA_DIR "/devices", "cuda:0").back().id,
                 std::string("cuda:0"));
        const auto boards = loadCatalogWithDetected(ROOFTOP_SOURCE_DATA_DIR "/devices", "agx-orin-64gb");
        QVERIFY(std::none_of(boards.begin(), boards.end(), [](const DeviceSpec& d) { return d.discrete; }));
        QVERIFY(isDetectedDeviceId("cuda:1"));
        QVERIFY(!isDetectedDeviceId("agx-orin-64gb"));
        // an ordinal missing here is unavailable (exit 2); an id that is no ordinal is bad input (exit 1)
        QVERIFY_EXCEPTION_THROWN(findDevice(all, "cuda:7"), UnavailableError);
        for (const char* malformed : {"cuda:x", "cuda:", "cuda:1a"})
            QVERIFY_EXCEPTION_THROWN(findDevice(all, malformed), InputError);
    }

    void missingSymbolGivesNothing() {
        ScopedEnv env("ROOFTOP_CUDA_LIBRARY", ROOFTOP_FAKE_LIBCUDA_NO_ATTRIBUTE);
        QVERIFY(probeCudaDevices().empty());
    }

    void cudaErrorsGiveNothing() {
        ScopedEnv env("ROOFTOP_CUDA_LIBRARY", ROOFTOP_FAKE_LIBCUDA);
        {
            ScopedEnv fail("FAKE_CUDA_FAIL", "init");
            QVERIFY(probeCudaDevices().empty());
        }
        {
            ScopedEnv fail("FAKE_CUDA_FAIL", "none");
            QVERIFY(probeCudaDevices().empty());
        }
        QCOMPARE(probeCudaDevices().size(), size_t(1));
    }

    void notALibraryGivesNothing() {
        ScopedEnv env("ROOFTOP_CUDA_LIBRARY", ROOFTOP_SOURCE_DATA_DIR "/runtimes.json");
        QVERIFY(probeCudaDevices().empty());
    }

    void devicesCommandListsDetectedGpu() {
        ScopedEnv env("ROOFTOP_CUDA_LIBRARY", ROOFTOP_FAKE_LIBCUDA);
        const auto table = runRooftop({"devices"});
        QVERIFY2(table.exitCode == 0 && !table.crashed, qPrintable(table.err));
        const qsizetype section = table.out.indexOf("Detected on this machine");
        QVERIFY(section > 0);
        QVERIFY(table.out.indexOf("cuda:0", section) > section);
        QVERIFY(table.out.contains("NVIDIA H100 80GB HBM3"));
        QVERIFY(!table.out.contains("cuda:1"));

        const auto json = runRooftop({"devices", "--format", "json"});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(root["devices"].toArray().size(), 16);
        const QJsonArray detected = root["detected"].toArray();
        QCOMPARE(detected.size(), 1);
        const QJsonObject gpu = detected[0].toObject();
        QCOMPARE(gpu["id"].toString(), QString("cuda:0"));
        QVERIFY(gpu["discrete"].toBool());
        QCOMPARE(gpu["gpu"].toObject()["sm_count"].toInt(), 132);
        QCOMPARE(gpu["gpu"].toObject()["peak_flops"].toObject()["fp32"].toDouble(), 2.0 * 132 * 128 * 1980e6);
        QCOMPARE(gpu["memory"].toObject()["bus_bits"].toInt(), 5120);
    }

    void deviceOptionAcceptsDetectedGpu() {
        {
            ScopedEnv env("ROOFTOP_CUDA_LIBRARY", ROOFTOP_FAKE_LIBCUDA);
            const auto modes = runRooftop({"modes", "--device", "cuda:0"});
            QVERIFY2(modes.exitCode == 0 && !modes.crashed, qPrintable(modes.err));
            QVERIFY(modes.out.contains("cuda:0 (NVIDIA H100 80GB HBM3)"));
            QVERIFY(modes.out.contains("DEFAULT"));
            QVERIFY(modes.out.contains("1980"));

            const auto json =
                runRooftop({"modes", "--device", "cuda:0", "--runtime", "ideal", "--format", "json"});
            QCOMPARE(json.exitCode, 0);
            const QJsonObject mode =
                QJsonDocument::fromJson(json.out.toUtf8()).object()["modes"].toArray()[0].toObject();
            QCOMPARE(mode["peak_flops"].toObject()["fp32"].toObject()["value"].toDouble(),
                     2.0 * 132 * 128 * 1980e6);

            const auto roofline =
                runRooftop({"roofline", QString::fromStdString(rooftop::test::samplePath("resnet18")),
                            "--device", "cuda:0", "--format", "json"});
            QVERIFY2(roofline.exitCode == 0 && !roofline.crashed, qPrintable(roofline.err));
            QVERIFY(QJsonDocument::fromJson(roofline.out.toUtf8())
                        .object()["modes"]
                        .toArray()[0]
                        .toObject()["latency_ms"]
                        .toDouble() > 0);

            // the integrated GPU (ordinal 1) is not a device
            const auto integrated = runRooftop({"modes", "--device", "cuda:1"});
            QCOMPARE(integrated.exitCode, 2);
            QVERIFY2(integrated.err.contains("cuda:1") && integrated.err.contains("no discrete NVIDIA GPU"),
                     qPrintable(integrated.err));
        }
        ScopedEnv none("ROOFTOP_CUDA_LIBRARY", nonexistentLibrary);
        const auto absent = runRooftop({"modes", "--device", "cuda:0"});
        QCOMPARE(absent.exitCode, 2);
        QCOMPARE(absent.err.count('\n'), 1);
        const auto unknown = runRooftop({"modes", "--device", "nope"});
        QCOMPARE(unknown.exitCode, 1);
    }
};

ROOFTOP_TEST_CLASS(CudaProbe)
#include "test_cuda_probe.moc"
