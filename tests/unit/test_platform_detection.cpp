// SPDX-License-Identifier: GPL-3.0-or-later
// Board detection, clock paths and ladders on the fake Jetson trees of tests/fixtures/jetson (AGX Orin on
// JetPack 5 and 6, Orin Nano on JetPack 6, Xavier NX on JetPack 5, TX2 on JetPack 4), and the strict sysfs
// value readers against junk.
#include "core/device/catalog.h"
#include "core/platform/board_detection.h"
#include "core/platform/jetson_clocks.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace rooftop;

namespace {

SysfsRoot fixture(const char* board) {
    return SysfsRoot(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/") + board);
}

const std::vector<DeviceSpec>& catalog() { return test::shippedCatalog(); }

} // namespace

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
    }
    void detectsEachBoard() {
        QFETCH(QString, board);
        QFETCH(QString, deviceId);
        QFETCH(QString, l4t);
        QFETCH(QString, jetpack);
        const BoardIdentity id = detectBoard(fixture(board.toUtf8().constData()), catalog());
        QVERIFY(id.jetson);
        QCOMPARE(QString::fromStdString(id.deviceId), deviceId);
        QCOMPARE(QString::fromStdString(id.l4tRelease), l4t);
        QCOMPARE(QString::fromStdString(id.jetpack), jetpack);
    }

    void notAJetson() {
        QTemporaryDir empty;
        const BoardIdentity id = detectBoard(SysfsRoot(empty.path().toStdString()), catalog());
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
        const SysfsRoot root = fixture(board.toUtf8().constData());
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
        const auto& spec = findDevice(catalog(), detectBoard(root, catalog()).deviceId);
        for (int64_t hz : ladders.gpuHz)
            QVERIFY2(std::find(spec.gpuLadderHz.begin(), spec.gpuLadderHz.end(), hz) !=
                         spec.gpuLadderHz.end(),
                     std::to_string(hz).c_str());
    }

    void observedClocks() {
        const SysfsRoot root = fixture("agx-orin-jp6");
        const ObservedClocks c = readObservedClocks(root, findClockPaths(root));
        QCOMPARE(c.onlineCores, 12);
        QCOMPARE(c.gpuHz, int64_t(1300500000));
        QCOMPARE(c.gpuMinHz, int64_t(306000000));
        QCOMPARE(c.cpuMaxKhz, int64_t(2201600));
        QCOMPARE(c.emcHz, int64_t(3199000000));
        QCOMPARE(c.tpcPgMask, 0);
        const SysfsRoot xnx = fixture("xavier-nx-jp5");
        const ObservedClocks x = readObservedClocks(xnx, findClockPaths(xnx));
        QCOMPARE(x.onlineCores, 4);
        QCOMPARE(x.tpcPgMask, 1);
        const SysfsRoot tx2 = fixture("tx2-jp4");
        QCOMPARE(readObservedClocks(tx2, findClockPaths(tx2)).tpcPgMask, -1); // TX2 has no TPC gating
    }

    void releaseLine() {
        QCOMPARE(parseL4tRelease("# R36 (release), REVISION: 4.3, GCID: 1, BOARD: generic"),
                 std::string("36.4.3"));
        QCOMPARE(jetpackForL4t("36.4.3"), std::string("6.2"));
        QVERIFY(parseL4tRelease("R36 REVISION 4.3").empty());
        QVERIFY(parseL4tRelease("").empty());
        QVERIFY(parseL4tRelease("# R99999 (release), REVISION: 1.1").empty());
        QVERIFY(jetpackForL4t("1.2.3").empty());
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
