// SPDX-License-Identifier: GPL-3.0-or-later
// Board detection, clock paths and ladders on the fake Jetson trees of tests/fixtures/jetson (AGX Orin on
// JetPack 5, 6 and 7.2, Orin Nano on JetPack 6, Xavier NX on JetPack 5, TX2 on JetPack 4, Jetson AGX Thor
// T5000 on JetPack 7.0 and 7.1), an unknown Thor variant, a Thor tree with missing files, and the strict
// sysfs value readers against junk.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/platform/board_detection.h"
#include "core/platform/board_session.h"
#include "core/platform/jetson_clocks.h"
#include "support/device_fixtures.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>

using namespace rooftop;
using rooftop::test::jetsonFixture;
using rooftop::test::shippedCatalog;

class PlatformDetection : public QObject {
    Q_OBJECT
private slots:
    void detectsEachBoard_data() {
        QTest::addColumn<QString>("board");
        QTest::addColumn<QString>("deviceId");
        QTest::addColumn<QString>("l4t");
        QTest::addColumn<QString>("jetpack");
        QTest::newRow("agx-orin-jp5") << "agx-orin-jp5"
                                      << "agx-orin-64gb"
                                      << "35.4.1"
                                      << "5.1.2";
        QTest::newRow("agx-orin-jp6") << "agx-orin-jp6"
                                      << "agx-orin-64gb"
                                      << "36.4.0"
                                      << "6.1";
        QTest::newRow("orin-nano-jp6") << "orin-nano-jp6"
                                       << "orin-nano-8gb"
                                       << "36.3.0"
                                       << "6.0";
        QTest::newRow("xavier-nx-jp5") << "xavier-nx-jp5"
                                       << "xavier-nx"
                                       << "35.4.1"
                                       << "5.1.2";
        QTest::newRow("tx2-jp4") << "tx2-jp4"
                                 << "tx2"
                                 << "32.7.1"
                                 << "4.6.1";
        // JetPack 7: Thor T5000 (p3834-0008 in compatible) on 7.0 and 7.1, AGX Orin on 7.2
        QTest::newRow("thor-t5000-jp70") << "thor-t5000-jp70"
                                         << "agx-thor-t5000"
                                         << "38.2.0"
                                         << "7.0";
        QTest::newRow("thor-t5000-jp71") << "thor-t5000-jp71"
                                         << "agx-thor-t5000"
                                         << "38.4.0"
                                         << "7.1";
        QTest::newRow("agx-orin-jp72") << "agx-orin-jp72"
                                       << "agx-orin-64gb"
                                       << "39.2.0"
                                       << "7.2";
    }
    void detectsEachBoard() {
        QFETCH(QString, board);
        QFETCH(QString, deviceId);
        QFETCH(QString, l4t);
        QFETCH(QString, jetpack);
        const BoardIdentity id = detectBoard(jetsonFixture(board.toUtf8().constData()), shippedCatalog());
        QVERIFY(id.jetson);
        QCOMPARE(QString::fromStdString(id.deviceId), deviceId);
        QCOMPARE(QString::fromStdString(id.l4tRelease), l4t);
        QCOMPARE(QString::fromStdString(id.jetpack), jetpack);
    }

    void notAJetson() {
        QTemporaryDir empty;
        const BoardIdentity id = detectBoard(SysfsRoot(empty.path().toStdString()), shippedCatalog());
        QVERIFY(!id.jetson);
        QVERIFY(id.deviceId.empty());
        QVERIFY(id.model.empty());
    }

    void gpuDevfreqPerJetpack_data() {
        QTest::addColumn<QString>("board");
        QTest::addColumn<QString>("devfreq");
        QTest::addColumn<QString>("device");
        QTest::addColumn<int>("gpuSteps");
        QTest::addColumn<qint64>("gpuTop");
        QTest::addColumn<int>("cpuSteps");
        QTest::addColumn<qint64>("cpuTop");
        QTest::addColumn<int>("cpus");
        QTest::newRow("agx-orin-jp5")
            << "agx-orin-jp5"
            << "sys/devices/17000000.ga10b/devfreq/17000000.ga10b"
            << "sys/devices/gpu.0" << 13 << qint64(1300500000) << 29 << qint64(2201600) << 12;
        QTest::newRow("agx-orin-jp6")
            << "agx-orin-jp6"
            << "sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu"
            << "sys/devices/platform/gpu.0" << 11 << qint64(1300500000) << 29 << qint64(2201600) << 12;
        QTest::newRow("orin-nano-jp6")
            << "orin-nano-jp6"
            << "sys/class/devfreq/17000000.gpu"
            << "sys/devices/platform/gpu.0" << 5 << qint64(624750000) << 20 << qint64(1510400) << 6;
        QTest::newRow("xavier-nx-jp5")
            << "xavier-nx-jp5"
            << "sys/devices/17000000.gv11b/devfreq/17000000.gv11b"
            << "sys/devices/gpu.0" << 15 << qint64(1109250000) << 25 << qint64(1907200) << 6;
        QTest::newRow("tx2-jp4") << "tx2-jp4"
                                 << "sys/devices/17000000.gp10b/devfreq/17000000.gp10b"
                                 << "sys/devices/gpu.0" << 14 << qint64(1300500000) << 12 << qint64(2035200)
                                 << 6;
        // Thor: the GPC clock domain gpu-gpc-0 (not the video domain gpu-nvd-0), no load file, no GPU folder
        for (const char* thor : {"thor-t5000-jp70", "thor-t5000-jp71"})
            QTest::newRow(thor) << thor << "sys/class/devfreq/gpu-gpc-0"
                                << "" << 13 << qint64(1575000000) << 8 << qint64(2601000) << 14;
        // AGX Orin on JetPack 7.2: the classic nvgpu node under /sys/class/devfreq
        QTest::newRow("agx-orin-jp72")
            << "agx-orin-jp72"
            << "sys/class/devfreq/17000000.gpu"
            << "sys/devices/platform/gpu.0" << 11 << qint64(1300500000) << 29 << qint64(2201600) << 12;
    }
    void gpuDevfreqPerJetpack() {
        QFETCH(QString, board);
        QFETCH(QString, devfreq);
        QFETCH(QString, device);
        QFETCH(int, gpuSteps);
        QFETCH(qint64, gpuTop);
        QFETCH(int, cpuSteps);
        QFETCH(qint64, cpuTop);
        QFETCH(int, cpus);
        const SysfsRoot root = jetsonFixture(board.toUtf8().constData());
        const ClockPaths paths = findClockPaths(root);
        QCOMPARE(QString::fromStdString(paths.gpuDevfreq), devfreq);
        QCOMPARE(QString::fromStdString(paths.gpuDevice), device);
        QCOMPARE(paths.cpuCount, cpus);
        const ClockLadders ladders = readClockLadders(root, paths);
        QCOMPARE(int(ladders.gpuHz.size()), gpuSteps);
        QCOMPARE(qint64(ladders.gpuHz.back()), gpuTop);
        QCOMPARE(int(ladders.cpuKhz.size()), cpuSteps);
        QCOMPARE(qint64(ladders.cpuKhz.back()), cpuTop);
        QVERIFY(std::is_sorted(ladders.gpuHz.begin(), ladders.gpuHz.end()));
        // every fixture ladder value is one the catalog knows for that board
        const auto& spec = findDevice(shippedCatalog(), detectBoard(root, shippedCatalog()).deviceId);
        for (int64_t hz : ladders.gpuHz)
            QVERIFY2(std::find(spec.gpuLadderHz.begin(), spec.gpuLadderHz.end(), hz) !=
                         spec.gpuLadderHz.end(),
                     std::to_string(hz).c_str());
    }

    void observedClocks() {
        const SysfsRoot root = jetsonFixture("agx-orin-jp6");
        const ObservedClocks c = readObservedClocks(root, findClockPaths(root));
        QCOMPARE(c.onlineCores, 12);
        QCOMPARE(c.gpuHz, int64_t(1300500000));
        QCOMPARE(c.gpuMinHz, int64_t(306000000));
        QCOMPARE(c.cpuMaxKhz, int64_t(2201600));
        QCOMPARE(c.emcHz, int64_t(3199000000));
        QCOMPARE(c.tpcPgMask, 0);
        const SysfsRoot xnx = jetsonFixture("xavier-nx-jp5");
        const ObservedClocks x = readObservedClocks(xnx, findClockPaths(xnx));
        QCOMPARE(x.onlineCores, 4);
        QCOMPARE(x.tpcPgMask, 1);
        const SysfsRoot tx2 = jetsonFixture("tx2-jp4");
        QCOMPARE(readObservedClocks(tx2, findClockPaths(tx2)).tpcPgMask, -1); // TX2 has no TPC gating
    }

    void thorEmcThroughBwmgr() {
        const SysfsRoot root = jetsonFixture("thor-t5000-jp71");
        const ClockPaths paths = findClockPaths(root);
        QVERIFY(!paths.emcReadable); // no bpmp debugfs clock on this tree
        QCOMPARE(QString::fromStdString(paths.emcDevfreq), QString("sys/class/devfreq/bwmgr"));
        const ClockLadders ladders = readClockLadders(root, paths);
        QCOMPARE(ladders.emcHz, (std::vector<int64_t>{665600000, 2133000000, 3199000000, 4266000000}));
        const ObservedClocks c = readObservedClocks(root, paths);
        QCOMPARE(c.emcHz, int64_t(4266000000));
        QCOMPARE(c.gpuHz, int64_t(1575000000));
        QCOMPARE(c.onlineCores, 14);
        QCOMPARE(c.tpcPgMask, -1); // no tpc_pg_mask on Thor
        QVERIFY(clockFilesProblem(root, paths).empty());
        // the Orin trees keep bpmp's clock
        const SysfsRoot orin = jetsonFixture("agx-orin-jp72");
        QVERIFY(findClockPaths(orin).emcReadable);
        QVERIFY(findClockPaths(orin).emcDevfreq.empty());
        QVERIFY(clockFilesProblem(orin, findClockPaths(orin)).empty());
    }

    void unknownThorVariantIsNamed() {
        QTemporaryDir dir;
        const std::string base = dir.path().toStdString();
        std::filesystem::create_directories(base + "/proc/device-tree");
        std::ofstream(base + "/proc/device-tree/model") << "NVIDIA Jetson AGX Thor Developer Kit" << '\0';
        std::ofstream(base + "/proc/device-tree/compatible")
            << "nvidia,p4071-0000+p3834-0005" << '\0' << "nvidia,tegra264" << '\0';
        const BoardIdentity id = detectBoard(SysfsRoot(base), shippedCatalog());
        QVERIFY(id.jetson);
        QVERIFY(id.deviceId.empty()); // not the T5000 by its shared model text
        QCOMPARE(QString::fromStdString(id.module), QString("p3834-0005"));
        const QString reason = QString::fromStdString(id.unknownReason);
        QVERIFY2(reason.contains("module p3834-0005") && reason.contains("not in the catalog") &&
                     reason.contains("p3834-0008 (agx-thor-t5000)") &&
                     reason.contains("p3834-0000 (agx-thor-t4000)"),
                 qPrintable(reason));
        QVERIFY(!reason.contains('\n'));
        {
            // a measuring command without --device says so in one line, before anything is opened or switched
            const test::ScopedEnv root("ROOFTOP_SYSFS_ROOT", dir.path().toUtf8());
            BoardSessionRequest request;
            request.command = "bench";
            QString message;
            try {
                BoardSession::open(request);
            } catch (const UnavailableError& error) {
                message = QString::fromUtf8(error.what());
            }
            QVERIFY2(message.startsWith(
                         "bench: cannot tell which Jetson this is (module p3834-0005 (NVIDIA Jetson "
                         "AGX Thor Developer Kit) is not in the catalog") &&
                         message.endsWith("; pass --device ID"),
                     qPrintable(message));
        }
        // the T4000 by its part number, without a model text
        std::ofstream(base + "/proc/device-tree/compatible", std::ios::trunc) << "nvidia,p3834-0000" << '\0';
        QCOMPARE(QString::fromStdString(detectBoard(SysfsRoot(base), shippedCatalog()).deviceId),
                 QString("agx-thor-t4000"));
    }

    void thorWithMissingFilesSaysWhat() {
        QTemporaryDir dir;
        std::filesystem::copy(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/thor-t5000-jp71"),
                              dir.path().toStdString(), std::filesystem::copy_options::recursive);
        const SysfsRoot root(dir.path().toStdString());
        const std::string gpc = dir.path().toStdString() + "/sys/class/devfreq/gpu-gpc-0/";
        std::filesystem::remove(gpc + "available_frequencies");
        ClockPaths paths = findClockPaths(root);
        QVERIFY(paths.gpuDevfreq.empty()); // no ladder: not a usable GPU clock
        QCOMPARE(QString::fromStdString(clockFilesProblem(root, paths)),
                 QString("the GPU clock folder /sys/class/devfreq/gpu-gpc-0 has no available_frequencies"));
        std::ofstream(gpc + "available_frequencies") << "315000000 1575000000\n";
        std::filesystem::remove(gpc + "max_freq");
        paths = findClockPaths(root);
        QCOMPARE(QString::fromStdString(clockFilesProblem(root, paths)),
                 QString("/sys/class/devfreq/gpu-gpc-0/max_freq is missing or unreadable"));
        std::ofstream(gpc + "max_freq") << "1575000000\n";
        std::filesystem::remove(dir.path().toStdString() + "/sys/class/devfreq/bwmgr/min_freq");
        QVERIFY(
            QString::fromStdString(clockFilesProblem(root, findClockPaths(root))).contains("bwmgr/min_freq"));
        // reading never throws on the broken tree
        const ObservedClocks c = readObservedClocks(root, findClockPaths(root));
        QCOMPARE(c.gpuMaxHz, int64_t(1575000000));
        QVERIFY(clockFilesProblem(SysfsRoot(dir.path().toStdString() + "/nowhere"),
                                  findClockPaths(SysfsRoot(dir.path().toStdString() + "/nowhere")))
                    .find("no GPU clock folder") != std::string::npos);
    }

    void releaseLine() {
        QCOMPARE(parseL4tRelease("# R36 (release), REVISION: 4.3, GCID: 1, BOARD: generic"),
                 std::string("36.4.3"));
        QCOMPARE(jetpackForL4t("36.4.3"), std::string("6.2"));
        QVERIFY(parseL4tRelease("R36 REVISION 4.3").empty());
        QVERIFY(parseL4tRelease("").empty());
        QVERIFY(parseL4tRelease("# R99999 (release), REVISION: 1.1").empty());
        QVERIFY(jetpackForL4t("1.2.3").empty());
        // JetPack 7: R38.2 = 7.0, R38.4 = 7.1 (adds T4000), R39.2 = 7.2 (also on Orin)
        QCOMPARE(
            parseL4tRelease("# R38 (release), REVISION: 2.0, GCID: 41844464, BOARD: generic, EABI: aarch64"),
            std::string("38.2.0"));
        QCOMPARE(jetpackForL4t("38.2.0"), std::string("7.0"));
        QCOMPARE(jetpackForL4t("38.2.1"), std::string("7.0"));
        QCOMPARE(jetpackForL4t("38.4.0"), std::string("7.1"));
        QCOMPARE(jetpackForL4t("39.2.0"), std::string("7.2"));
        QVERIFY(isJetPack7("38.2.0") && isJetPack7("39.2.0") && isJetPack7("40.1.0"));
        QVERIFY(!isJetPack7("36.4.3") && !isJetPack7("") && !isJetPack7("x.1"));
    }

    void strictValues() {
        QCOMPARE(parseStrictInteger(" 1300500000\n"), std::optional<int64_t>(1300500000));
        QVERIFY(!parseStrictInteger("-1"));
        QVERIFY(!parseStrictInteger("12a"));
        QVERIFY(!parseStrictInteger(""));
        QVERIFY(!parseStrictInteger("1 2"));
        QVERIFY(!parseStrictInteger("9999999999999999999999"));
        QVERIFY(!parseStrictInteger("0x10"));
        QCOMPARE(countCpuList("0-3,6,8-11"), 9);
        QCOMPARE(countCpuList("0"), 1);
        QCOMPARE(countCpuList("3-1"), 0);
        QCOMPARE(countCpuList("0-99999"), 0);
        QCOMPARE(countCpuList("a-b"), 0);
    }

    void junkLadderIsEmpty() {
        QTemporaryDir dir;
        const SysfsRoot root(dir.path().toStdString());
        std::ofstream(dir.path().toStdString() + "/ladder") << "306000000 junk 408000000";
        QVERIFY(root.readIntegerList("ladder").empty());
        std::ofstream(dir.path().toStdString() + "/ladder2") << "408000000 306000000 306000000\n";
        QCOMPARE(root.readIntegerList("/ladder2"), (std::vector<int64_t>{306000000, 408000000}));
        QVERIFY(!root.read("missing"));
        QVERIFY(root.list("missing").empty());
        QVERIFY(!root.write("missing", "1")); // never creates files
    }
};

ROOFTOP_TEST_CLASS(PlatformDetection)
#include "test_platform_detection.moc"
