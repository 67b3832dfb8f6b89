// SPDX-License-Identifier: GPL-3.0-or-later
// The device catalog (resources/devices/*.json) against shared/reference/jetson.md: stock modes of every
// board (section 1), defaults, ladder maxima (section 1.9), GPU/memory figures (section 6); schema validation
// of malformed files; the generic spec of a discrete GPU.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "support/device_fixtures.h"
#include "support/scoped_env.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace rooftop;
using rooftop::test::shippedCatalog;
using rooftop::test::shippedDevice;
using rooftop::test::writeBytes;

namespace {

/// One stock mode: the conf values (jetson.md section 1) and what the loader resolves them to.
struct ExpectedMode {
    int id;
    const char* name;
    int cores;
    int64_t confCpu, confGpu, confEmc; // as nvpmodel.conf writes them (-1 / 0 = no cap)
    int64_t cpu, gpu, emc;             // resolved: ladder maximum for no cap, nearest step otherwise
    int tpcs;
    double budget;
};

struct ExpectedBoard {
    int defaultMode;
    double maxWatts;
    std::vector<ExpectedMode> modes;
};

const std::map<std::string, ExpectedBoard>& expectedBoards() {
    static const std::map<std::string, ExpectedBoard> boards = {
        // jetson.md 1.1, nvpmodel_p3701_0000.conf, DEFAULT = 2
        {"agx-orin-64gb",
         {2,
          60,
          {{0, "MAXN", 12, -1, -1, 0, 2201600, 1300500000, 3199000000, 8, 60},
           {1, "MODE_15W", 4, 1113600, 408000000, 2133000000, 1113600, 408000000, 2133000000, 3, 15},
           {2, "MODE_30W", 8, 1728000, 612000000, 0, 1728000, 612000000, 3199000000, 4, 30},
           {3, "MODE_50W", 12, 1497600, 816000000, 0, 1497600, 816000000, 3199000000, 8, 50}}}},
        // jetson.md 1.2, nvpmodel_p3701_0004.conf, DEFAULT = 2; TPC masks 128/248/240/128 -> 7/3/4/7
        {"agx-orin-32gb",
         {2,
          40,
          {{0, "MAXN", 8, -1, -1, 0, 2201600, 930750000, 3199000000, 7, 40},
           {1, "MODE_15W", 4, 1113600, 408000000, 2133000000, 1113600, 408000000, 2133000000, 3, 15},
           {2, "MODE_30W", 8, 1728000, 612000000, 0, 1728000, 612000000, 3199000000, 4, 30},
           {3, "MODE_40W", 8, 1497600, 816000000, 0, 1497600, 816000000, 3199000000, 7, 40}}}},
        // jetson.md 1.3, pre-Super files, DEFAULT = 2
        {"orin-nx-16gb",
         {2,
          25,
          {{0, "MAXN", 8, -1, -1, 0, 1984000, 918000000, 3199000000, 4, 25},
           {1, "10W", 4, 1190400, 612000000, 2133000000, 1190400, 612000000, 2133000000, 2, 10},
           {2, "15W", 4, 1651200, 612000000, 0, 1651200, 612000000, 3199000000, 2, 15},
           {3, "25W", 8, 1497600, 408000000, 0, 1497600, 408000000, 3199000000, 4, 25}}}},
        {"orin-nx-8gb",
         {2,
          20,
          {{0, "MAXN", 6, -1, -1, 0, 1984000, 765000000, 3199000000, 4, 20},
           {1, "10W", 4, 1190400, 612000000, 2133000000, 1190400, 612000000, 2133000000, 2, 10},
           {2, "15W", 4, 1420800, 612000000, 0, 1420800, 612000000, 3199000000, 2, 15},
           {3, "20W", 6, 1497600, 408000000, 0, 1497600, 408000000, 3199000000, 4, 20}}}},
        // jetson.md 1.3, Super files (JetPack 6.2), DEFAULT = 4
        {"orin-nx-16gb-super",
         {4,
          40,
          {{0, "MAXN_SUPER", 8, -1, -1, -1, 1984000, 1173000000, 3199000000, 4, 40},
           {1, "10W", 4, 1190400, 612000000, 2133000000, 1190400, 612000000, 2133000000, 2, 10},
           {2, "15W", 4, 1420800, 612000000, -1, 1420800, 612000000, 3199000000, 2, 15},
           {3, "25W", 8, 1497600, 408000000, -1, 1497600, 408000000, 3199000000, 4, 25},
           {4, "40W", 8, 1497600, 1173000000, -1, 1497600, 1173000000, 3199000000, 4, 40}}}},
        {"orin-nx-8gb-super",
         {4,
          40,
          {{0, "MAXN_SUPER", 6, -1, -1, -1, 1984000, 1173000000, 3199000000, 4, 40},
           {1, "10W", 4, 1190400, 612000000, 2133000000, 1190400, 612000000, 2133000000, 2, 10},
           {2, "15W", 4, 1420800, 612000000, -1, 1420800, 612000000, 3199000000, 2, 15},
           {3, "20W", 6, 1497600, 408000000, -1, 1497600, 408000000, 3199000000, 4, 20},
           {4, "40W", 6, 1984000, 1173000000, -1, 1984000, 1173000000, 3199000000, 4, 40}}}},
        // jetson.md 1.4, Orin Nano pre-Super (DEFAULT 0) and Super (DEFAULT 1)
        {"orin-nano-8gb",
         {0,
          15,
          {{0, "15W", 6, -1, -1, 0, 1510400, 624750000, 2133000000, 4, 15},
           {1, "7W", 4, 960000, 408000000, 2133000000, 960000, 408000000, 2133000000, 2, 7}}}},
        {"orin-nano-4gb",
         {0,
          10,
          {{0, "10W", 6, -1, -1, 0, 1510400, 624750000, 2133000000, 2, 10},
           {1, "7W_AI", 4, 806400, 408000000, 2133000000, 806400, 408000000, 2133000000, 2, 7},
           {2, "7W_CPU", 4, 960000, 306000000, 2133000000, 960000, 306000000, 2133000000, 2, 7}}}},
        {"orin-nano-8gb-super",
         {1,
          25,
          {{0, "15W", 6, 1497600, 612000000, 2133000000, 1497600, 612000000, 2133000000, 4, 15},
           {1, "25W", 6, 1344000, 918000000, 3199000000, 1344000, 918000000, 3199000000, 4, 25},
           {2, "MAXN_SUPER", 6, -1, -1, -1, 1728000, 1020000000, 3199000000, 4, 25},
           // JetPack 6.2.x adds 7W as id 3 (thor.md, Other modes); mask and EMC of the pre-Super 7W [U]
           {3, "7W", 4, 960000, 408000000, 2133000000, 960000, 408000000, 2133000000, 2, 7}}}},
        // thor.md, nvpmodel (T5000): ids and names of the public R38 conf, DEFAULT 1 (120W) on JetPack 7.0;
        // the
        // caps of 120W/90W/70W are the catalog's estimates (no public source), no TPC gating (10 TPCs on)
        {"agx-thor-t5000",
         {1,
          130,
          {{0, "MAXN", 14, -1, -1, -1, 2601000, 1575000000, 4266000000, 10, 130},
           {1, "120W", 14, -1, 1470000000, -1, 2601000, 1470000000, 4266000000, 10, 120},
           {2, "90W", 14, 2112000, 1260000000, -1, 2112000, 1260000000, 4266000000, 10, 90},
           {3, "70W", 14, 1881600, 1155000000, -1, 1881600, 1155000000, 4266000000, 10, 70}}}},
        // T4000's conf is not public: one uncapped MAXN at the module's 70 W until the board's conf replaces
        // it
        {"agx-thor-t4000", {0, 70, {{0, "MAXN", 12, -1, -1, -1, 2601000, 1530000000, 4266000000, 6, 70}}}},
        {"orin-nano-4gb-super",
         {1,
          25,
          {{0, "10W", 6, 1497600, 612000000, 2133000000, 1497600, 612000000, 2133000000, 2, 10},
           {1, "25W", 6, 1728000, 1020000000, 3199000000, 1728000, 1020000000, 3199000000, 2, 25},
           {2, "MAXN_SUPER", 6, -1, -1, -1, 1728000, 1020000000, 3199000000, 2, 25}}}},
        // jetson.md 1.5, nvpmodel_t194.conf, L4T DEFAULT = 2; caps between steps resolve to the nearest step
        {"agx-xavier",
         {2,
          30,
          {{0, "MAXN", 8, -1, -1, 0, 2265600, 1377000000, 2133000000, 4, 30},
           {1, "MODE_10W", 2, 1200000, 520000000, 1065600000, 1190400, 522750000, 1065600000, 2, 10},
           {2, "MODE_15W", 4, 1200000, 670000000, 1331200000, 1190400, 675750000, 1331200000, 4, 15},
           {3, "MODE_30W_ALL", 8, 1200000, 900000000, 1600000000, 1190400, 905250000, 1600000000, 4, 30},
           {4, "MODE_30W_6CORE", 6, 1450000, 900000000, 1600000000, 1420800, 905250000, 1600000000, 4, 30},
           {5, "MODE_30W_4CORE", 4, 1780000, 900000000, 1600000000, 1804800, 905250000, 1600000000, 4, 30},
           {6, "MODE_30W_2CORE", 2, 2100000, 900000000, 1600000000, 2112000, 905250000, 1600000000, 4, 30},
           {7, "MODE_15W_DESKTOP", 4, 2188800, 670000000, 1331200000, 2188800, 675750000, 1331200000, 4,
            15}}}},
        // jetson.md 1.6, nvpmodel_t194_p3668.conf; TPC_PG_MASK 1 everywhere -> 3 TPCs
        {"xavier-nx",
         {5,
          20,
          {{0, "MODE_15W_2CORE", 2, 1907200, 1109250000, 1600000000, 1907200, 1109250000, 1600000000, 3, 15},
           {1, "MODE_15W_4CORE", 4, 1420800, 1109250000, 1600000000, 1420800, 1109250000, 1600000000, 3, 15},
           {2, "MODE_15W_6CORE", 6, 1420800, 1109250000, 1600000000, 1420800, 1109250000, 1600000000, 3, 15},
           {3, "MODE_10W_2CORE", 2, 1497600, 803250000, 1600000000, 1497600, 803250000, 1600000000, 3, 10},
           {4, "MODE_10W_4CORE", 4, 1190400, 803250000, 1600000000, 1190400, 803250000, 1600000000, 3, 10},
           {5, "MODE_10W_DESKTOP", 4, 1907200, 510000000, 1600000000, 1907200, 510000000, 1600000000, 3, 10},
           {6, "MODE_20W_2CORE", 2, 1907200, 1109250000, 1866000000, 1907200, 1109250000, 1866000000, 3, 20},
           {7, "MODE_20W_4CORE", 4, 1420800, 1109250000, 1866000000, 1420800, 1109250000, 1866000000, 3, 20},
           {8, "MODE_20W_6CORE", 6, 1420800, 1109250000, 1866000000, 1420800, 1109250000, 1866000000, 3,
            20}}}},
        // jetson.md 1.7, nvpmodel_t186.conf (+ id 4 from the L4T 27/28 table), L4T DEFAULT = 3; no budget in
        // names
        {"tx2",
         {3,
          15,
          {{0, "MAXN", 6, -1, -1, 0, 2035200, 1300500000, 1866000000, 2, 15},
           {1, "MAXQ", 4, 1200000, 850000000, 1331200000, 1267200, 854250000, 1331200000, 2, 0},
           {2, "MAXP_CORE_ALL", 6, 1400000, 1120000000, 1600000000, 1420800, 1122000000, 1600000000, 2, 0},
           {3, "MAXP_CORE_ARM", 4, 2000000, 1120000000, 1600000000, 2035200, 1122000000, 1600000000, 2, 0},
           {4, "MAXP_CORE_DENVER", 2, 2000000, 1120000000, 1600000000, 2035200, 1122000000, 1600000000, 2,
            0}}}},
        // jetson.md 1.8, DEFAULT = 0
        {"nano",
         {0,
          10,
          {{0, "MAXN", 4, -1, -1, 0, 1479000, 921600000, 1600000000, 1, 10},
           {1, "5W", 2, 918000, 640000000, 1600000000, 921600, 614400000, 1600000000, 1, 5}}}},
    };
    return boards;
}

QString sourceFile(const QString& id) {
    return QStringLiteral(ROOFTOP_SOURCE_DATA_DIR "/devices/") + id + ".json";
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

using test::errorOf;

QJsonObject withMode(QJsonObject root, int index, const std::function<void(QJsonObject&)>& edit) {
    QJsonArray modes = root["stock_modes"].toArray();
    QJsonObject mode = modes[index].toObject();
    edit(mode);
    modes[index] = mode;
    root["stock_modes"] = modes;
    return root;
}

QJsonObject withChild(QJsonObject root, const char* child, const std::function<void(QJsonObject&)>& edit) {
    QJsonObject object = root[child].toObject();
    edit(object);
    root[child] = object;
    return root;
}

} // namespace

class DeviceCatalog : public QObject {
    Q_OBJECT
private slots:
    void loadsEveryBoard() {
        std::set<std::string> ids;
        for (const auto& d : shippedCatalog())
            ids.insert(d.id);
        const std::set<std::string> expected = {"agx-orin-64gb",
                                                "agx-orin-32gb",
                                                "orin-nx-16gb",
                                                "orin-nx-8gb",
                                                "orin-nx-16gb-super",
                                                "orin-nx-8gb-super",
                                                "orin-nano-8gb",
                                                "orin-nano-4gb",
                                                "orin-nano-8gb-super",
                                                "orin-nano-4gb-super",
                                                "agx-xavier",
                                                "xavier-nx",
                                                "tx2",
                                                "nano",
                                                "agx-thor-t5000",
                                                "agx-thor-t4000"};
        QCOMPARE(ids, expected);
        QCOMPARE(shippedCatalog().size(), expected.size());
        for (size_t i = 1; i < shippedCatalog().size(); ++i)
            QVERIFY(shippedCatalog()[i - 1].id < shippedCatalog()[i].id); // sorted
    }

    void stockModesMatchReference_data() {
        QTest::addColumn<QString>("id");
        for (const auto& [id, board] : expectedBoards())
            QTest::newRow(id.c_str()) << QString::fromStdString(id);
    }
    void stockModesMatchReference() {
        QFETCH(QString, id);
        const DeviceSpec& d = shippedDevice(id.toStdString());
        const ExpectedBoard& expected = expectedBoards().at(id.toStdString());
        QCOMPARE(d.defaultModeId, expected.defaultMode);
        QVERIFY(d.defaultStockMode());
        QCOMPARE(d.maxModuleWatts, expected.maxWatts);
        QCOMPARE(d.stockModes.size(), expected.modes.size());
        for (size_t i = 0; i < expected.modes.size(); ++i) {
            const ExpectedMode& e = expected.modes[i];
            const StockMode& m = d.stockModes[i];
            const QByteArray where = id.toUtf8() + " mode " + QByteArray::number(e.id);
            QVERIFY2(m.id == e.id, where);
            QVERIFY2(m.name == e.name, where + " name " + m.name.c_str());
            QVERIFY2(m.onlineCores == e.cores, where + " cores");
            QVERIFY2(m.confCpuMaxKhz == e.confCpu, where + " conf CPU");
            QVERIFY2(m.confGpuMaxHz == e.confGpu, where + " conf GPU");
            QVERIFY2(m.confEmcMaxHz == e.confEmc, where + " conf EMC");
            QVERIFY2(m.cpuMaxKhz == e.cpu, where + " CPU " + QByteArray::number(qint64(m.cpuMaxKhz)));
            QVERIFY2(m.gpuMaxHz == e.gpu, where + " GPU " + QByteArray::number(qint64(m.gpuMaxHz)));
            QVERIFY2(m.emcMaxHz == e.emc, where + " EMC " + QByteArray::number(qint64(m.emcMaxHz)));
            QVERIFY2(m.activeTpcs == e.tpcs, where + " TPCs " + QByteArray::number(m.activeTpcs));
            QVERIFY2(m.budgetWatts == e.budget, where + " budget " + QByteArray::number(m.budgetWatts));
            // every resolved cap is a ladder value
            QVERIFY(std::binary_search(d.cpuLadderKhz.begin(), d.cpuLadderKhz.end(), m.cpuMaxKhz));
            QVERIFY(std::binary_search(d.gpuLadderHz.begin(), d.gpuLadderHz.end(), m.gpuMaxHz));
            QVERIFY(std::binary_search(d.emcLadderHz.begin(), d.emcLadderHz.end(), m.emcMaxHz));
        }
    }

    void tpcMasksAsWritten() {
        // jetson.md 1.0 cross-checks of TPC_PG_MASK decoding
        QCOMPARE(shippedDevice("agx-orin-64gb").stockMode(1)->tpcPgMask, 248);
        QCOMPARE(shippedDevice("agx-orin-32gb").stockMode(0)->tpcPgMask, 128);
        QCOMPARE(shippedDevice("orin-nano-4gb").stockMode(0)->tpcPgMask, 252);
        QCOMPARE(shippedDevice("agx-xavier").stockMode(1)->tpcPgMask, 5);
        QCOMPARE(shippedDevice("xavier-nx").stockMode(0)->tpcPgMask, 1);
        QCOMPARE(shippedDevice("tx2").stockMode(0)->tpcPgMask, -1); // no TPC gating on T186
        QCOMPARE(shippedDevice("agx-orin-64gb").tpcMaskBits, 8);
        QCOMPARE(shippedDevice("agx-xavier").tpcMaskBits, 4);
    }

    void hardwareMaxima() {
        // jetson.md 1.9: what MAXN unlocks (CPU kHz, GPU Hz, EMC Hz)
        const struct {
            const char* id;
            int64_t cpu, gpu, emc;
        } maxima[] = {
            {"agx-orin-64gb", 2201600, 1300500000, 3199000000},
            {"orin-nx-16gb", 1984000, 918000000, 3199000000},
            {"orin-nx-16gb-super", 1984000, 1173000000, 3199000000},
            {"orin-nx-8gb", 1984000, 765000000, 3199000000},
            {"orin-nano-8gb", 1510400, 624750000, 2133000000},
            {"orin-nano-8gb-super", 1728000, 1020000000, 3199000000},
            {"agx-xavier", 2265600, 1377000000, 2133000000},
            {"xavier-nx", 1907200, 1109250000, 1866000000},
            {"tx2", 2035200, 1300500000, 1866000000},
            {"nano", 1479000, 921600000, 1600000000},
        };
        for (const auto& m : maxima) {
            const DeviceSpec& d = shippedDevice(m.id);
            QVERIFY2(d.maxCpuKhz() == m.cpu && d.maxGpuHz() == m.gpu && d.maxEmcHz() == m.emc, m.id);
        }
    }

    void gpuAndMemoryFigures() {
        // jetson.md section 6: SMs x cores per SM = CUDA cores; CC; bus width
        const struct {
            const char* id;
            int sms, coresPerSm, cores, tpcs, bus;
            const char* cc;
            double tensorFp16, tensorInt8;
        } figures[] = {
            {"agx-orin-64gb", 16, 128, 2048, 8, 256, "8.7", 2048, 4096},
            {"agx-orin-32gb", 14, 128, 1792, 7, 256, "8.7", 2048, 4096},
            {"orin-nx-16gb", 8, 128, 1024, 4, 128, "8.7", 2048, 4096},
            {"orin-nx-8gb-super", 8, 128, 1024, 4, 128, "8.7", 2048, 4096},
            {"orin-nano-8gb", 8, 128, 1024, 4, 128, "8.7", 2048, 4096},
            {"orin-nano-4gb", 4, 128, 512, 2, 64, "8.7", 2048, 4096},
            {"agx-xavier", 8, 64, 512, 4, 256, "7.2", 1024, 2048},
            {"xavier-nx", 6, 64, 384, 3, 128, "7.2", 1024, 2048},
            {"tx2", 2, 128, 256, 2, 128, "6.2", 0, 0},
            {"nano", 1, 128, 128, 1, 64, "5.3", 0, 0},
        };
        for (const auto& f : figures) {
            const DeviceSpec& d = shippedDevice(f.id);
            QVERIFY2(d.units.smCount == f.sms && d.units.cudaCoresPerSm == f.coresPerSm &&
                         d.cudaCores() == f.cores,
                     f.id);
            QVERIFY2(d.units.tpcCount == f.tpcs && d.memoryBusBits == f.bus && d.computeCapability == f.cc,
                     f.id);
            QVERIFY2(d.units.tensorFp16FlopsPerSmPerClock == f.tensorFp16, f.id);
            QVERIFY2(d.units.tensorInt8OpsPerSmPerClock == f.tensorInt8, f.id);
            QVERIFY2(d.units.fp16CudaCoreRate == 2.0, f.id);
        }
        QCOMPARE(shippedDevice("agx-orin-64gb").units.tensorCoresPerSm *
                     shippedDevice("agx-orin-64gb").units.smCount,
                 64);
        QCOMPARE(shippedDevice("agx-xavier").units.tensorCoresPerSm *
                     shippedDevice("agx-xavier").units.smCount,
                 64);
        QCOMPARE(shippedDevice("agx-orin-64gb").memoryType, std::string("LPDDR5"));
    }

    void derivedFiguresEqualDatasheet() {
        // Local arithmetic (smCount x coresPerSm x 2 x GPU clock; EMC x 2 x bus bytes) and deriveCeilings
        // agree with the datasheet: 5.3268 TFLOP/s and 204.736 GB/s on AGX Orin 64GB MAXN, 68.256 GB/s on
        // Orin Nano 8GB.
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        const StockMode& maxn = *agx.stockModeNamed("maxn");
        QCOMPARE(maxn.activeTpcs, 8);
        const double localFp32 =
            double(agx.units.smCount) * agx.units.cudaCoresPerSm * 2.0 * double(maxn.gpuMaxHz);
        QCOMPARE(localFp32, 5.326848e12);
        QCOMPARE(double(maxn.emcMaxHz) * 2.0 * agx.memoryBusBits / 8.0, 204.736e9);
        QCOMPARE(agx.peakBandwidth(), 204.736e9);
        QCOMPARE(shippedDevice("orin-nano-8gb").peakBandwidth(), 68.256e9);

        RuntimeProfile ideal;
        ideal.name = "unit";
        const Ceilings c = deriveCeilings(agx, powerModeFrom(agx, maxn), ideal);
        QCOMPARE(c.peak(ComputeClass::Fp32CudaCore).value, 5.326848e12);
        QCOMPARE(c.peak(ComputeClass::Fp32CudaCore).provenance, Provenance::Datasheet);
        QCOMPARE(c.bandwidth.value, 204.736e9);
        QCOMPARE(c.bandwidth.provenance, Provenance::Datasheet);
        QCOMPARE(c.peak(ComputeClass::TensorFp16).value, 16.0 * 2048 * 1300500000.0); // 42.6 TFLOP/s dense
        QCOMPARE(c.peak(ComputeClass::TensorInt8).value, 16.0 * 4096 * 1300500000.0); // 85.2 TOPS = 170/2

        const DeviceSpec& nano8 = shippedDevice("orin-nano-8gb");
        const Ceilings n = deriveCeilings(nano8, powerModeFrom(nano8, *nano8.stockMode(0)), ideal);
        QCOMPARE(n.bandwidth.value, 68.256e9);
        QCOMPARE(n.peak(ComputeClass::Fp32CudaCore).value, 2.0 * 1024 * 624750000.0);

        // MODE_15W gates 5 of 8 TPCs: 3 TPCs = 6 SMs = 768 cores at 408 MHz
        const Ceilings m15 = deriveCeilings(agx, powerModeFrom(agx, *agx.stockMode(1)), ideal);
        QCOMPARE(m15.peak(ComputeClass::Fp32CudaCore).value, 2.0 * 768 * 408000000.0);
        QCOMPARE(m15.bandwidth.value, 2133e6 * 2 * 32);
    }

    void thorNumbersMatchCitedSources() {
        // thor.md, Modules: every published Thor figure against what the catalog derives from its per-SM
        // rates
        RuntimeProfile ideal;
        ideal.name = "unit";
        const auto within = [](double value, double cited, double tolerance) {
            return std::fabs(value / cited - 1.0) <= tolerance;
        };
        const DeviceSpec& t5000 = shippedDevice("agx-thor-t5000");
        QCOMPARE(t5000.computeCapability, std::string("11.0"));
        QCOMPARE(t5000.soc, std::string("tegra264"));
        QCOMPARE(t5000.modules, std::vector<std::string>{"p3834-0008"});
        QCOMPARE(t5000.cudaCores(), 2560); // 2560 CUDA cores
        QCOMPARE(t5000.units.smCount, 20); // 20 SMs seen by CUDA
        QCOMPARE(t5000.cpuCores, 14);      // 14 x Neoverse-V3AE
        QVERIFY(t5000.cpuName.find("Neoverse-V3AE") != std::string::npos);
        QCOMPARE(t5000.maxCpuKhz(), int64_t(2601000));   // 2601 MHz
        QCOMPARE(t5000.maxGpuHz(), int64_t(1575000000)); // gpu-gpc-0 1575 MHz
        QCOMPARE(t5000.emcLadderHz.front(), int64_t(665600000));
        QCOMPARE(t5000.maxEmcHz(), int64_t(4266000000)); // EMC 665.6-4266 MHz
        QCOMPARE(t5000.memoryType, std::string("LPDDR5X"));
        QCOMPARE(t5000.memoryBusBits, 256);
        QCOMPARE(t5000.memoryGiB, 128.0);
        QVERIFY(within(t5000.peakBandwidth(), 273e9, 0.001)); // 273 GB/s
        QCOMPARE(t5000.maxModuleWatts, 130.0);                // 40-130 W, TMP 130 W at MAXN
        QCOMPARE(t5000.totalRail, std::string("VIN"));
        std::vector<std::string> rails;
        for (const auto& r : t5000.rails)
            rails.push_back(r.label);
        for (const char* label : {"VDD_GPU", "VDD_CPU_SOC_MSS", "VIN"})
            QVERIFY2(std::find(rails.begin(), rails.end(), label) != rails.end(), label);

        const PowerMode maxn = powerModeFrom(t5000, *t5000.stockModeNamed("MAXN"));
        const Ceilings c = deriveCeilings(t5000, maxn, ideal);
        QVERIFY(within(c.peak(ComputeClass::Fp32CudaCore).value, 8.06e12, 0.001)); // 2 x 2560 x 1.575 GHz
        // NVIDIA (huggingface.js#1710): FP4 2070 sparse / 1035 dense, FP8 1035 / 517, FP16 517 / 258.5
        QVERIFY(within(c.peak(ComputeClass::TensorFp4).value, 1035e12, 0.005));
        QVERIFY(within(c.peak(ComputeClass::TensorFp8).value, 517e12, 0.005));
        QVERIFY(within(c.peak(ComputeClass::TensorFp16).value, 258.5e12, 0.005));
        QCOMPARE(c.peak(ComputeClass::TensorFp4).provenance, Provenance::Datasheet);
        std::map<std::string, TensorPeak> peaks;
        for (const TensorPeak& p : tensorPeaks(t5000, maxn))
            peaks[p.precision] = p;
        QVERIFY(within(peaks.at("fp4").sparseFlops, 2070e12, 0.005));
        QVERIFY(within(peaks.at("fp4").denseFlops, 1035e12, 0.005));
        QVERIFY(within(peaks.at("fp8").sparseFlops, 1035e12, 0.005));
        QVERIFY(within(peaks.at("fp8").denseFlops, 517e12, 0.005));
        QVERIFY(within(peaks.at("fp16").sparseFlops, 517e12, 0.005));
        QVERIFY(within(peaks.at("fp16").denseFlops, 258.5e12, 0.005));
        QVERIFY(peaks.at("tf32").denseFlops > 0 && peaks.at("int8").denseFlops > 0); // Blackwell ratios [U]
        // the measured third-party figures stay below the peaks (BF16 GEMM 52 %, FP32 79 %, DRAM 94 %)
        QVERIFY(135e12 < c.peak(ComputeClass::TensorFp16).value);
        QVERIFY(6.37e12 < c.peak(ComputeClass::Fp32CudaCore).value);
        QVERIFY(257e9 < c.bandwidth.value);
        // ridge points at MAXN (thor.md, derived): FP16 dense ~947 FLOP/B, FP32 ~30
        QVERIFY(within(c.balance(ComputeClass::TensorFp16), 947.0, 0.01));
        QVERIFY(within(c.balance(ComputeClass::Fp32CudaCore), 29.5, 0.02));
        // a mode's tensor peaks follow its GPU cap
        const PowerMode m70 = powerModeFrom(t5000, *t5000.stockModeNamed("70W"));
        QCOMPARE(deriveCeilings(t5000, m70, ideal).peak(ComputeClass::TensorFp4).value,
                 20.0 * 32768 * 1155e6);
        // the estimated caps say so, and why, down to the ceilings they give
        const Ceilings e = deriveCeilings(t5000, powerModeFrom(t5000, *t5000.stockModeNamed("120W")), ideal);
        QCOMPARE(e.peak(ComputeClass::TensorFp4).provenance, Provenance::Estimate);
        QCOMPARE(e.bandwidth.provenance, Provenance::Estimate);
        QVERIFY(e.peak(ComputeClass::Fp32CudaCore).basis.find("clock caps of 120W are estimates") !=
                std::string::npos);
        QVERIFY(!t5000.stockModeNamed("MAXN")->capsEstimated && t5000.stockModeNamed("70W")->capsEstimated);
        QVERIFY(t5000.sources.at("stock_modes").find("ESTIMATES") != std::string::npos);
        QVERIFY(t5000.sources.at("ladders.gpu_hz").find("ESTIMATES") != std::string::npos);
        QVERIFY(t5000.laddersEstimated);

        const DeviceSpec& t4000 = shippedDevice("agx-thor-t4000");
        QCOMPARE(t4000.modules, std::vector<std::string>{"p3834-0000"});
        QCOMPARE(t4000.cudaCores(), 1536);
        QCOMPARE(t4000.cpuCores, 12);
        QCOMPARE(t4000.memoryGiB, 64.0);
        QVERIFY(within(t4000.peakBandwidth(), 273e9, 0.001));
        QCOMPARE(t4000.maxModuleWatts, 70.0);
        std::map<std::string, TensorPeak> small;
        for (const TensorPeak& p : tensorPeaks(t4000, powerModeFrom(t4000, t4000.stockModes.front())))
            small[p.precision] = p;
        QVERIFY(within(small.at("fp4").sparseFlops, 1200e12, 0.005)); // FP4 1200 sparse
        QVERIFY(t4000.sources.at("stock_modes").find("ESTIMATE") != std::string::npos);

        // Orin has no FP8 / FP4 tensor cores: zero peaks whose basis names the board
        const DeviceSpec& orin = shippedDevice("agx-orin-64gb");
        const Ceilings o = deriveCeilings(orin, powerModeFrom(orin, orin.fastestStockMode()), ideal);
        QCOMPARE(o.peak(ComputeClass::TensorFp8).value, 0.0);
        QCOMPARE(o.peak(ComputeClass::TensorFp4).value, 0.0);
        QVERIFY(o.peak(ComputeClass::TensorFp8).basis.find("has no FP8 tensor cores") != std::string::npos);
        QVERIFY(o.peak(ComputeClass::TensorFp8).basis.find("AGX Orin 64GB") != std::string::npos);
        for (const TensorPeak& p : tensorPeaks(orin, powerModeFrom(orin, orin.fastestStockMode())))
            if (std::string(p.precision) == "fp8" || std::string(p.precision) == "fp4")
                QCOMPARE(p.denseFlops, 0.0);
    }

    void energyBasisIsSourcedAndConsistent() {
        for (const auto& d : shippedCatalog()) {
            const QByteArray id = d.id.c_str();
            QVERIFY2(d.energy.idleWatts > 0 && d.energy.picojoulesPerFlop > 0 &&
                         d.energy.picojoulesPerByte > 0,
                     id);
            QVERIFY2(d.energy.cpuCoreWatts * d.cpuCores <= d.energy.idleWatts, id);
            QVERIFY2(d.energy.basis.find("ESTIMATES") != std::string::npos, id);
            for (const char* key :
                 {"idle_watts", "cpu_core_watts", "pj_per_flop", "pj_per_byte", "tensor_flop_energy_ratio"})
                QVERIFY2(d.energy.fieldBasis.count(key) &&
                             d.energy.fieldBasis.at(key).find("estimate") != std::string::npos,
                         id + " " + key);
            // full FP32 + full bandwidth at the top clocks stays within the module's max power
            const double full =
                d.energy.idleWatts +
                d.energy.picojoulesPerFlop * 1e-12 * 2.0 * d.cudaCores() * double(d.maxGpuHz()) +
                d.energy.picojoulesPerByte * 1e-12 * d.peakBandwidth();
            QVERIFY2(full <= d.maxModuleWatts * 1.05 && full >= d.maxModuleWatts * 0.25, id);
            for (const char* key :
                 {"modules", "compute_capability", "gpu", "gpu.tensor", "memory", "cpu", "ladders.cpu_khz",
                  "ladders.gpu_hz", "ladders.emc_hz", "grid", "stock_modes", "default_mode", "power.rails",
                  "power.max_module_watts", "energy"})
                QVERIFY2(d.sources.count(key) && !d.sources.at(key).empty(), id + " sources." + key);
        }
        QCOMPARE(shippedDevice("agx-orin-64gb").energy.picojoulesPerFlop, 5.6);
        QCOMPARE(shippedDevice("agx-orin-64gb").energy.picojoulesPerByte, 32.0);
    }

    void railsAndTotals() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        QCOMPARE(agx.totalRail, std::string()); // summed
        QCOMPARE(agx.rails.size(), size_t(4));
        QCOMPARE(agx.rails[0].label, std::string("VDD_GPU_SOC"));
        QCOMPARE(agx.rails[0].sensor, std::string("1-0040"));
        QCOMPARE(agx.rails[0].channel, 1);
        QCOMPARE(agx.rails[3].label, std::string("VDDQ_VDD2_1V8AO"));
        QCOMPARE(agx.rails[3].sensor, std::string("1-0041"));
        QCOMPARE(shippedDevice("agx-xavier").totalRail, std::string());
        QCOMPARE(shippedDevice("agx-xavier").rails.size(), size_t(6));
        QCOMPARE(shippedDevice("orin-nx-16gb").totalRail, std::string("VDD_IN"));
        QCOMPARE(shippedDevice("orin-nano-8gb-super").totalRail, std::string("VDD_IN"));
        QCOMPARE(shippedDevice("xavier-nx").rails[0].sensor, std::string("7-0040"));
        QCOMPARE(shippedDevice("tx2").totalRail, std::string("VDD_IN"));
        QCOMPARE(shippedDevice("nano").totalRail, std::string("POM_5V_IN"));
    }

    void gridSizes() {
        QCOMPARE(shippedDevice("agx-orin-64gb").grid.size(), size_t(4368));
        QCOMPARE(gridPowerModes(shippedDevice("agx-orin-64gb")).size(), size_t(4368));
        for (const auto& d : shippedCatalog()) {
            QVERIFY2(d.grid.size() > 0 && d.grid.size() <= 10000, d.id.c_str());
            QVERIFY2(!d.grid.basis.empty(), d.id.c_str());
        }
    }

    void lookups() {
        const DeviceSpec& agx = shippedDevice("agx-orin-64gb");
        QCOMPARE(agx.stockMode(3)->name, std::string("MODE_50W"));
        QVERIFY(agx.stockMode(9) == nullptr);
        QCOMPARE(agx.stockModeNamed("mode_30w")->id, 2);
        QVERIFY(agx.stockModeNamed("nope") == nullptr);
        QCOMPARE(agx.fastestStockMode().name, std::string("MAXN"));
        // "The fastest mode is not the highest id": Orin Nano Super MAXN_SUPER is id 2, 25W is the default
        QCOMPARE(shippedDevice("orin-nano-8gb-super").fastestStockMode().name, std::string("MAXN_SUPER"));
        QCOMPARE(shippedDevice("xavier-nx").fastestStockMode().name, std::string("MODE_20W_6CORE"));
        QCOMPARE(shippedDevice("nano").fastestStockMode().name, std::string("MAXN"));
        QCOMPARE(shippedDevice("orin-nx-16gb-super").fastestStockMode().name, std::string("MAXN_SUPER"));
    }

    void findDeviceListsKnownIds() {
        const QString message = errorOf([] { findDevice(shippedCatalog(), "nope"); });
        QVERIFY(message.contains("unknown device 'nope'"));
        QVERIFY(message.contains("agx-orin-64gb"));
        QVERIFY(message.contains("orin-nano-8gb-super"));
        QVERIFY(message.contains("xavier-nx"));
    }

    void defaultFolderFollowsEnvironment() {
        const test::ScopedEnv dataDir("ROOFTOP_DATA_DIR", "/some/where");
        QCOMPARE(defaultCatalogFolder(), std::string("/some/where/devices"));
        QCOMPARE(defaultDataFolder(), std::string("/some/where"));
        qunsetenv("ROOFTOP_DATA_DIR"); // restored by dataDir
        // beside the program, as installed: the build tree's share/rooftop, a link to the sources' resources
        const QString found = QString::fromStdString(defaultCatalogFolder());
        QVERIFY2(found.endsWith(QStringLiteral("share/rooftop/devices")), qPrintable(found));
        QCOMPARE(QFileInfo(found).canonicalFilePath(),
                 QFileInfo(QStringLiteral(ROOFTOP_SOURCE_DATA_DIR "/devices")).canonicalFilePath());
    }

    // ---- malformed files: the error names the file and the field ------------------------------------------

    void malformedFiles_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        const QJsonObject good = readJson(sourceFile("agx-orin-64gb"));
        QVERIFY(!good.isEmpty());
        const auto row = [](const char* name, const QJsonObject& root, const char* expected) {
            QTest::newRow(name) << QJsonDocument(root).toJson() << QString(expected);
        };
        row("field removed", withMode(good, 2, [](QJsonObject& m) { m.remove("gpu_max_hz"); }),
            "agx-orin-64gb.json: stock_modes[2].gpu_max_hz: missing");
        row("wrong type", withMode(good, 2, [](QJsonObject& m) { m["gpu_max_hz"] = "612 MHz"; }),
            "agx-orin-64gb.json: stock_modes[2].gpu_max_hz: expected an integer");
        row("fraction", withMode(good, 1, [](QJsonObject& m) { m["cpu_max_khz"] = 1113600.5; }),
            "agx-orin-64gb.json: stock_modes[1].cpu_max_khz: expected an integer");
        row("cap above ladder", withMode(good, 1, [](QJsonObject& m) { m["gpu_max_hz"] = 1400000000.0; }),
            "agx-orin-64gb.json: stock_modes[1].gpu_max_hz: 1400000000 is above the top of ladders.gpu_hz");
        row("cap below ladder", withMode(good, 1, [](QJsonObject& m) { m["cpu_max_khz"] = 100000; }),
            "agx-orin-64gb.json: stock_modes[1].cpu_max_khz: 100000 is below the bottom of ladders.cpu_khz");
        row("negative cap", withMode(good, 1, [](QJsonObject& m) { m["emc_max_hz"] = -2; }),
            "agx-orin-64gb.json: stock_modes[1].emc_max_hz: expected a positive clock");
        row("too many cores", withMode(good, 0, [](QJsonObject& m) { m["online_cores"] = 13; }),
            "agx-orin-64gb.json: stock_modes[0].online_cores: expected an integer from 1 to 12, got 13");
        row("every TPC gated", withMode(good, 0, [](QJsonObject& m) { m["tpc_pg_mask"] = 255; }),
            "agx-orin-64gb.json: stock_modes[0].tpc_pg_mask: gates every TPC");
        row("duplicate id", withMode(good, 3, [](QJsonObject& m) { m["id"] = 1; }),
            "agx-orin-64gb.json: stock_modes[3].id: duplicate mode id 1");
        row("unknown mode field", withMode(good, 0, [](QJsonObject& m) { m["gpu_max_Hz"] = 1; }),
            "agx-orin-64gb.json: stock_modes[0].gpu_max_Hz: unknown field");
        {
            QJsonObject root = good;
            QJsonObject ladders = root["ladders"].toObject();
            QJsonArray gpu = ladders["gpu_hz"].toArray();
            const QJsonValue first = gpu[0];
            gpu[0] = gpu[1];
            gpu[1] = first;
            ladders["gpu_hz"] = gpu;
            root["ladders"] = ladders;
            row("descending ladder", root,
                "agx-orin-64gb.json: ladders.gpu_hz[1]: ladder not ascending (114750000 after 216750000)");
        }
        row("empty ladder", withChild(good, "ladders", [](QJsonObject& l) { l["emc_hz"] = QJsonArray(); }),
            "agx-orin-64gb.json: ladders.emc_hz: expected at least one value");
        row("grid off ladder",
            withChild(good, "grid",
                      [](QJsonObject& g) {
                          QJsonArray gpu = g["gpu_hz"].toArray();
                          gpu[0] = 100000000.0;
                          g["gpu_hz"] = gpu;
                      }),
            "agx-orin-64gb.json: grid.gpu_hz[0]: 100000000 is not in ladders.gpu_hz");
        row("grid too many cores",
            withChild(good, "grid",
                      [](QJsonObject& g) {
                          g["cores"] = QJsonArray{2, 14};
                      }),
            "agx-orin-64gb.json: grid.cores: 14 cores but the board has 12");
        {
            QJsonObject root = good;
            root["default_mode"] = 9;
            row("unknown default mode", root, "agx-orin-64gb.json: default_mode: no stock mode has id 9");
        }
        {
            QJsonObject root = good;
            root.remove("default_mode");
            row("default missing", root, "agx-orin-64gb.json: default_mode: missing");
        }
        row("sm count type", withChild(good, "gpu", [](QJsonObject& g) { g["sm_count"] = "16"; }),
            "agx-orin-64gb.json: gpu.sm_count: expected an integer");
        row("tpc does not divide", withChild(good, "gpu", [](QJsonObject& g) { g["tpc_count"] = 5; }),
            "agx-orin-64gb.json: gpu.tpc_count: 5 does not divide sm_count 16");
        row("bus bits", withChild(good, "memory", [](QJsonObject& m) { m["bus_bits"] = 0; }),
            "agx-orin-64gb.json: memory.bus_bits: expected an integer from 8 to 65536, got 0");
        row("negative energy", withChild(good, "energy", [](QJsonObject& e) { e["pj_per_flop"] = -1; }),
            "agx-orin-64gb.json: energy.pj_per_flop: expected a positive number");
        row("energy basis missing",
            withChild(good, "energy",
                      [](QJsonObject& e) {
                          QJsonObject b = e["basis"].toObject();
                          b.remove("pj_per_byte");
                          e["basis"] = b;
                      }),
            "agx-orin-64gb.json: energy.basis.pj_per_byte: missing");
        row("unknown total rail",
            withChild(good, "power", [](QJsonObject& p) { p["total_rail"] = "VDD_IN"; }),
            "agx-orin-64gb.json: power.total_rail: 'VDD_IN' is not one of the rails");
        row("rail channel",
            withChild(good, "power",
                      [](QJsonObject& p) {
                          QJsonArray rails = p["rails"].toArray();
                          QJsonObject r = rails[1].toObject();
                          r["channel"] = 4;
                          rails[1] = r;
                          p["rails"] = rails;
                      }),
            "agx-orin-64gb.json: power.rails[1].channel: expected an integer from 1 to 3, got 4");
        row("source missing", withChild(good, "sources", [](QJsonObject& s) { s.remove("ladders.gpu_hz"); }),
            "agx-orin-64gb.json: sources.ladders.gpu_hz: missing");
        {
            QJsonObject root = good;
            root["id"] = "agx-orin-99gb";
            row("id differs from file", root,
                "agx-orin-64gb.json: id: 'agx-orin-99gb' does not match the file name");
        }
        {
            QJsonObject root = good;
            root["schema"] = "rooftop-device/2";
            row("schema", root, "agx-orin-64gb.json: schema: expected \"rooftop-device/1\"");
        }
        {
            QJsonObject root = good;
            root["gpus"] = 1;
            row("unknown top-level field", root, "agx-orin-64gb.json: gpus: unknown field");
        }
        QTest::newRow("not JSON") << QByteArray("{\n  \"schema\": \"rooftop-device/1\",\n  oops\n}")
                                  << QString("agx-orin-64gb.json: invalid JSON at line 3");
    }
    void malformedFiles() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("agx-orin-64gb.json");
        QVERIFY(writeBytes(path, content));
        const QString message = errorOf([&] { loadDeviceFile(path.toStdString()); });
        QVERIFY2(message.startsWith(expected), qPrintable("got: " + message));
        QVERIFY2(!message.contains('\n'), "one-line message");
    }

    void unmodifiedCopyLoads() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(sourceFile("agx-orin-64gb"), dir.filePath("agx-orin-64gb.json")));
        const DeviceSpec spec = loadDeviceFile(dir.filePath("agx-orin-64gb.json").toStdString());
        QCOMPARE(spec.stockModes.size(), size_t(4));
        // comment keys are allowed
        QJsonObject root = readJson(sourceFile("agx-orin-64gb"));
        root["_comment"] = "notes";
        QVERIFY(writeBytes(dir.filePath("agx-orin-64gb.json"), QJsonDocument(root).toJson()));
        QCOMPARE(loadDeviceFile(dir.filePath("agx-orin-64gb.json").toStdString()).id,
                 std::string("agx-orin-64gb"));
    }

    void catalogErrorNamesTheBadFile() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(sourceFile("nano"), dir.filePath("nano.json")));
        QJsonObject root = readJson(sourceFile("tx2"));
        root = withChild(root, "power", [](QJsonObject& p) { p.remove("rails"); });
        QVERIFY(writeBytes(dir.filePath("tx2.json"), QJsonDocument(root).toJson()));
        QCOMPARE(errorOf([&] { loadCatalog(dir.path().toStdString()); }),
                 QString("tx2.json: power.rails: missing"));
        QVERIFY(errorOf([] { loadCatalog("/nonexistent/folder"); }).contains("not found"));
        QTemporaryDir empty;
        QVERIFY(errorOf([&] { loadCatalog(empty.path().toStdString()); }).contains("no device files"));
    }

    // ---- discrete GPUs
    // ---------------------------------------------------------------------------------------

    void discreteGpuFromProperties() {
        // H100 SXM5: 132 SMs, CC 9.0, 1980 MHz boost, HBM3 2619 MHz x 5120-bit -> 3.35 TB/s, 700 W
        const DeviceSpec h100 = discreteDeviceFromProperties("NVIDIA H100 80GB HBM3", 132, 9, 0, 1980000,
                                                             2619000, 5120, 79.6, 700.0, 32, 3600000);
        QCOMPARE(h100.id, std::string("cuda-nvidia-h100-80gb-hbm3"));
        QVERIFY(h100.discrete);
        QCOMPARE(h100.units.cudaCoresPerSm, 128);
        QCOMPARE(h100.cudaCores(), 16896);
        QCOMPARE(h100.computeCapability, std::string("9.0"));
        QCOMPARE(h100.memoryType, std::string("HBM"));
        QCOMPARE(h100.peakBandwidth(), 2619e6 * 2 * 640); // 3.352 TB/s
        QCOMPARE(h100.stockModes.size(), size_t(1));
        QCOMPARE(h100.fastestStockMode().name, std::string("DEFAULT"));
        QCOMPARE(h100.maxModuleWatts, 700.0);
        QCOMPARE(gridPowerModes(h100).size(), size_t(1));
        RuntimeProfile ideal;
        const Ceilings c = deriveCeilings(h100, powerModeFrom(h100, h100.stockModes[0]), ideal);
        QCOMPARE(c.peak(ComputeClass::Fp32CudaCore).value, 2.0 * 16896 * 1980e6); // 66.9 TFLOP/s
        QCOMPARE(c.peak(ComputeClass::TensorFp16).value, 132.0 * 4096 * 1980e6);  // ~1070 TFLOP/s dense
        QCOMPARE(c.peak(ComputeClass::TensorFp8).value, 132.0 * 8192 * 1980e6);   // Hopper has FP8
        QCOMPARE(c.peak(ComputeClass::TensorFp4).value, 0.0);                     // and no FP4
        QVERIFY(h100.energy.picojoulesPerFlop > 0);
        QCOMPARE(h100.energy.picojoulesPerFlop, 0.5 * 700.0 / (2.0 * 16896 * 1980e6) * 1e12);

        // RTX 3090 (8.6): 82 SMs x 128 = 10496 cores; GDDR6X 9751 MHz x 384-bit = 936 GB/s; no power limit
        // known
        const DeviceSpec rtx =
            discreteDeviceFromProperties("NVIDIA GeForce RTX 3090", 82, 8, 6, 1695000, 9751000, 384);
        QCOMPARE(rtx.cudaCores(), 10496);
        QCOMPARE(rtx.memoryType, std::string("GDDR"));
        QCOMPARE(rtx.peakBandwidth(), 9751e6 * 2 * 48);
        QCOMPARE(rtx.units.tensorFp16FlopsPerSmPerClock, 1024.0);
        QCOMPARE(rtx.energy.picojoulesPerFlop, 0.0); // unknown without a power limit
        QVERIFY(rtx.cpuLadderKhz.empty());           // host CPU clock unknown: dispatch not scaled
        QCOMPARE(rtx.stockModes[0].cpuMaxKhz, int64_t(0));

        QCOMPARE(cudaCoresPerSm(7, 0), 64);
        QCOMPARE(cudaCoresPerSm(8, 0), 64);
        QCOMPARE(cudaCoresPerSm(8, 7), 128);
        QCOMPARE(cudaCoresPerSm(6, 0), 64);
        QCOMPARE(cudaCoresPerSm(6, 1), 128);
        QCOMPARE(cudaCoresPerSm(5, 3), 128);
        QCOMPARE(cudaCoresPerSm(2, 0), 0);
        QCOMPARE(rtx.units.tensorFp8FlopsPerSmPerClock, 0.0); // Ampere: no FP8
        // a compute capability 11.0 GPU (Jetson AGX Thor's) agrees with the catalog's per-SM rates
        const DeviceSpec b = discreteDeviceFromProperties("sm110", 20, 11, 0, 1575000, 4266000, 256);
        const ComputeUnits& t = shippedDevice("agx-thor-t5000").units;
        QCOMPARE(b.units.tensorFp16FlopsPerSmPerClock, t.tensorFp16FlopsPerSmPerClock);
        QCOMPARE(b.units.tensorFp8FlopsPerSmPerClock, t.tensorFp8FlopsPerSmPerClock);
        QCOMPARE(b.units.tensorFp4FlopsPerSmPerClock, t.tensorFp4FlopsPerSmPerClock);
        // Xavier's Volta agrees with the catalog
        const DeviceSpec v = discreteDeviceFromProperties("gv11b", 8, 7, 2, 1377000, 2133000, 256);
        QCOMPARE(v.units.tensorFp16FlopsPerSmPerClock,
                 shippedDevice("agx-xavier").units.tensorFp16FlopsPerSmPerClock);
        QCOMPARE(v.units.tensorInt8OpsPerSmPerClock,
                 shippedDevice("agx-xavier").units.tensorInt8OpsPerSmPerClock);

        QVERIFY(errorOf([] {
                    discreteDeviceFromProperties("old", 8, 2, 0, 1000000, 1000000, 256);
                }).contains("compute capability 2.0 is not supported"));
        QVERIFY(errorOf([] {
                    discreteDeviceFromProperties("x", 0, 8, 0, 1000000, 1000000, 256);
                }).contains("SM count must be positive"));
        QVERIFY(errorOf([] {
                    discreteDeviceFromProperties("x", 8, 8, 0, 1000000, 1000000, 12);
                }).contains("bus width"));
    }
};

ROOFTOP_TEST_CLASS(DeviceCatalog)
#include "test_device_catalog.moc"
