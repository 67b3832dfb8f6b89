// SPDX-License-Identifier: GPL-3.0-or-later
// Mode switching on a writable copy of the AGX Orin JetPack 6 tree through a simulated helper (the real
// helper's validation and write plan, then what nvpmodel and the kernel would do): stock and custom modes
// verified by reading sysfs back, refused and ineffective switches, reboot-needing modes, the restore
// guard, the journal after a simulated crash, and the helper's input validation.
#include "core/device/catalog.h"
#include "core/common/errors.h"
#include "core/platform/helper_request.h"
#include "core/platform/nvpmodel_conf.h"
#include "core/platform/restore_journal.h"
#include "support/device_fixtures.h"
#include "support/simulated_helper.h"
#include "support/test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>

using namespace rooftop;

namespace {

using test::BoardCopy;
using test::SimulatedHelper;

/// The board the helper is simulated on.
const DeviceSpec& orin() { return test::shippedAgxOrin(); }

HelperLimits orinLimits() {
    HelperLimits limits;
    limits.stockIds = {0, 1, 2, 3};
    limits.cpuKhz = {729600, 1728000, 2201600};
    limits.gpuHz = {306000000, 612000000, 1300500000};
    limits.emcHz = {204000000, 3199000000};
    limits.cpuCount = 12;
    return limits;
}

QString refusal(const std::vector<std::string>& args) {
    try {
        parseHelperRequest(args, orinLimits());
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class PlatformSwitching : public QObject {
    Q_OBJECT
private slots:
    void stockModeSwitchVerified() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
        const PowerMode m50 = powerModeFrom(orin(), *orin().stockMode(3));
        switchAndVerify(switcher, m50);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(3));
        const ObservedClocks seen = switcher.observe();
        QCOMPARE(seen.gpuMaxHz, int64_t(816000000));
        QCOMPARE(seen.cpuMaxKhz, int64_t(1497600));
        QCOMPARE(seen.onlineCores, 12);
        QCOMPARE(helper.calls.back(), (std::vector<std::string>{"set-stock-mode", "3"}));
        QCOMPARE(helper.calls.front(), (std::vector<std::string>{"release-clocks"}));
    }

    void customModeSwitchVerified() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        const PowerMode custom = parseCustomMode(orin(), "cores=8,cpu=1728000,gpu=612000000,emc=665600000");
        switchAndVerify(switcher, custom);
        const ObservedClocks seen = switcher.observe();
        QCOMPARE(seen.onlineCores, 8);
        QCOMPARE(seen.gpuMinHz, int64_t(612000000));
        QCOMPARE(seen.gpuMaxHz, int64_t(612000000));
        QCOMPARE(seen.cpuMinKhz, int64_t(1728000));
        QCOMPARE(seen.emcHz, int64_t(665600000));
        QCOMPARE(*board.root().read("sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked"), std::string("1"));
        QCOMPARE(helper.calls.back(),
                 (std::vector<std::string>{"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores",
                                           "8", "--emc", "665600000"}));
    }

    void clocksThatDoNotTakeEffect() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        helper.ignoreWrites = true;
        JetsonModeSwitcher switcher(board.root(), helper);
        const PowerMode custom = parseCustomMode(orin(), "cores=8,cpu=1728000,gpu=612000000,emc=3199000000");
        try {
            switchAndVerify(switcher, custom);
            QFAIL("no error");
        } catch (const UnavailableError& error) {
            QCOMPARE(
                QString(error.what()),
                QString(
                    "mode c8-cpu1728-gpu612-emc3199: the clocks did not take effect (12 cores online, wanted "
                    "8; "
                    "GPU max 1300.5 MHz, wanted 612 MHz; CPU max 2201.6 MHz, wanted 1728 MHz; GPU min "
                    "306 MHz, wanted 612 MHz; CPU min 115.2 MHz, wanted 1728 MHz)"));
        }
    }

    void helperFailureIsOneLine() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        helper.failAll = true;
        JetsonModeSwitcher switcher(board.root(), helper);
        try {
            switcher.setStockMode(1);
            QFAIL("no error");
        } catch (const UnavailableError& error) {
            QCOMPARE(QString(error.what()),
                     QString("the mode helper failed (exit 3): NVPM ERROR: simulated"));
        }
    }

    void currentModeFallsBackToConfDefault() {
        BoardCopy board("xavier-nx-jp5"); // no /var/lib/nvpmodel/status yet
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(5));
    }

    void missingHelperIsUnavailable() {
        ProcessHelperRunner runner("");
        std::string output;
        QVERIFY_EXCEPTION_THROWN(runner.run({"release-clocks"}, &output), UnavailableError);
    }

    void rebootNeededForTpcMaskChange() {
        BoardCopy board("agx-orin-jp6");
        const ObservedClocks now = readObservedClocks(board.root(), findClockPaths(board.root()));
        QCOMPARE(
            QString::fromStdString(rebootReason(orin(), now, powerModeFrom(orin(), *orin().stockMode(1)))),
            QString("needs a reboot: it runs 3 TPCs, the GPU has 8 powered now (TPC mask change)"));
        QVERIFY(rebootReason(orin(), now, powerModeFrom(orin(), *orin().stockMode(3))).empty());
        QVERIFY(rebootReason(orin(), now,
                             parseCustomMode(orin(), "cores=4,cpu=729600,gpu=306000000,emc=204000000"))
                    .empty());
    }

    void guardRestoresOnError() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(board.dir.filePath("state/journal").toStdString());
        try {
            RestoreGuard guard(switcher, journal);
            guard.beforeChange();
            QCOMPARE(journal.pending(), std::optional<int>(0)); // written before the first change
            switcher.setClocks(parseCustomMode(orin(), "cores=4,cpu=729600,gpu=306000000,emc=204000000"));
            QCOMPARE(switcher.observe().onlineCores, 4);
            throw std::runtime_error("kernel failed");
        } catch (const std::runtime_error&) {
        }
        QVERIFY(!journal.pending());
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
        const ObservedClocks seen = switcher.observe();
        QCOMPARE(seen.onlineCores, 12);
        QCOMPARE(seen.gpuMaxHz, int64_t(1300500000));
        QCOMPARE(seen.gpuMinHz, int64_t(306000000));
        QCOMPARE(*board.root().read("sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked"), std::string("0"));
    }

    void guardRefusesUnknownCurrentMode() {
        BoardCopy board("agx-orin-jp6");
        std::filesystem::remove(board.dir.filePath("var/lib/nvpmodel/status").toStdString());
        std::filesystem::remove(board.dir.filePath("etc/nvpmodel.conf").toStdString());
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(board.dir.filePath("journal").toStdString());
        RestoreGuard guard(switcher, journal);
        QVERIFY_EXCEPTION_THROWN(guard.beforeChange(), UnavailableError);
        QVERIFY(helper.calls.empty());
        QVERIFY(!journal.pending());
    }

    void journalReplayedAfterCrash() {
        BoardCopy board("agx-orin-jp6");
        const std::string journalPath = board.dir.filePath("journal").toStdString();
        {
            // the crashed run: journal written, clocks changed, no restore
            SimulatedHelper helper(board.root());
            JetsonModeSwitcher switcher(board.root(), helper);
            auto* guard = new RestoreGuard(switcher, *new RestoreJournal(journalPath));
            guard->beforeChange();
            switcher.setClocks(parseCustomMode(orin(), "cores=2,cpu=729600,gpu=306000000,emc=204000000"));
            // leaked on purpose: a crash runs no destructor
        }
        QCOMPARE(readObservedClocks(board.root(), findClockPaths(board.root())).onlineCores, 2);
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(journalPath);
        QCOMPARE(journal.pending(), std::optional<int>(0));
        QVERIFY(replayRestoreJournal(journal, switcher));
        QCOMPARE(helper.calls,
                 (std::vector<std::vector<std::string>>{{"release-clocks"}, {"set-stock-mode", "0"}}));
        QCOMPARE(switcher.observe().onlineCores, 12);
        QVERIFY(!journal.pending());
        QVERIFY(!replayRestoreJournal(journal, switcher)); // nothing left
    }

    void stockModeSetEvenWhenReleaseFails() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        helper.failRelease = true;
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(board.dir.filePath("journal").toStdString());
        journal.record(0);
        // the release error is reported, but nvpmodel -m still ran; the journal stays for the next start
        QVERIFY_EXCEPTION_THROWN(replayRestoreJournal(journal, switcher), UnavailableError);
        QCOMPARE(helper.calls,
                 (std::vector<std::vector<std::string>>{{"release-clocks"}, {"set-stock-mode", "0"}}));
        QCOMPARE(journal.pending(), std::optional<int>(0));

        helper.calls.clear();
        {
            RestoreGuard guard(switcher, journal);
            guard.beforeChange();
            QVERIFY_EXCEPTION_THROWN(guard.restore(), UnavailableError);
            QCOMPARE(helper.calls.back(), (std::vector<std::string>{"set-stock-mode", "0"}));
            helper.failRelease = false; // the destructor's retry succeeds
        }
        QVERIFY(!journal.pending());

        helper.calls.clear();
        helper.failRelease = true;
        QVERIFY_EXCEPTION_THROWN(switchAndVerify(switcher, powerModeFrom(orin(), *orin().stockMode(0))),
                                 UnavailableError);
        QCOMPARE(helper.calls.back(), (std::vector<std::string>{"set-stock-mode", "0"}));
    }

    void malformedJournalIgnored() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        std::ofstream(path) << "rooftop-mode-journal/1 stock=../../etc\n";
        RestoreJournal journal(path);
        QVERIFY(!journal.pending());
        std::ofstream(path) << "garbage";
        QVERIFY(!journal.pending());
    }

    void helperAcceptsLadderValues() {
        const HelperRequest stock = parseHelperRequest({"set-stock-mode", "2"}, orinLimits());
        QCOMPARE(stock.stockId, 2);
        const HelperRequest clocks = parseHelperRequest(
            {"set-clocks", "--cores", "8", "--gpu", "612000000", "--cpu", "1728000", "--emc", "3199000000"},
            orinLimits());
        QCOMPARE(clocks.cores, 8);
        QCOMPARE(clocks.gpuHz, int64_t(612000000));
        QCOMPARE(clocks.emcHz, int64_t(3199000000));
        QCOMPARE(helperArguments(clocks),
                 (std::vector<std::string>{"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores",
                                           "8", "--emc", "3199000000"}));
        QCOMPARE(parseHelperRequest({"release-clocks"}, orinLimits()).action,
                 HelperRequest::Action::ReleaseClocks);
    }

    void helperRefuses_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("nothing") << QStringList{} << "expected set-stock-mode";
        QTest::newRow("unknown action") << QStringList{"rm", "-rf"} << "unknown action 'rm'";
        QTest::newRow("path as mode") << QStringList{"set-stock-mode", "../../etc/shadow"}
                                      << "needs a decimal number, got '../../etc/shadow'";
        QTest::newRow("absolute path")
            << QStringList{"set-stock-mode", "/etc/nvpmodel.conf"} << "needs a decimal number";
        QTest::newRow("shell") << QStringList{"set-stock-mode", "1; reboot"}
                               << "needs a decimal number, got '1; reboot'";
        QTest::newRow("negative") << QStringList{"set-stock-mode", "-1"}
                                  << "needs a decimal number, got '-1'";
        QTest::newRow("unknown mode")
            << QStringList{"set-stock-mode", "9"} << "mode 9 is not in nvpmodel.conf";
        QTest::newRow("extra arg") << QStringList{"set-stock-mode", "1", "2"} << "usage: set-stock-mode ID";
        QTest::newRow("hex") << QStringList{"set-clocks", "--gpu", "0x10", "--cpu", "1728000", "--cores", "8"}
                             << "needs a decimal number, got '0x10'";
        QTest::newRow("spaces") << QStringList{"set-clocks", "--gpu",   " 612000000", "--cpu",
                                               "1728000",    "--cores", "8"}
                                << "needs a decimal number";
        QTest::newRow("off ladder") << QStringList{"set-clocks", "--gpu",   "612000001", "--cpu",
                                                   "1728000",    "--cores", "8"}
                                    << "GPU clock (Hz) 612000001 is not in the board's ladder";
        QTest::newRow("cpu off ladder")
            << QStringList{"set-clocks", "--gpu", "612000000", "--cpu", "9999999", "--cores", "8"}
            << "CPU clock (kHz) 9999999";
        QTest::newRow("emc off ladder") << QStringList{"set-clocks", "--gpu", "612000000", "--cpu", "1728000",
                                                       "--cores",    "8",     "--emc",     "1"}
                                        << "EMC clock (Hz) 1 is not";
        QTest::newRow("zero cores") << QStringList{"set-clocks", "--gpu",   "612000000", "--cpu",
                                                   "1728000",    "--cores", "0"}
                                    << "--cores must be 1..12";
        QTest::newRow("too many cores")
            << QStringList{"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores", "13"}
            << "--cores must be 1..12";
        QTest::newRow("repeated") << QStringList{"set-clocks", "--gpu", "612000000", "--gpu", "306000000"}
                                  << "--gpu given twice";
        QTest::newRow("missing value") << QStringList{"set-clocks", "--gpu"} << "--gpu needs a value";
        QTest::newRow("missing option")
            << QStringList{"set-clocks", "--gpu", "612000000"} << "needs --gpu, --cpu and --cores";
        QTest::newRow("path option") << QStringList{"set-clocks", "--path", "/sys/x"}
                                     << "unknown option '--path'";
        QTest::newRow("equals form") << QStringList{"set-clocks", "--gpu=612000000"}
                                     << "unknown option '--gpu=612000000'";
        QTest::newRow("release args") << QStringList{"release-clocks", "x"} << "takes no arguments";
        QTest::newRow("overflow") << QStringList{"set-stock-mode", "99999999999999999999999"}
                                  << "needs a decimal number";
    }
    void helperRefuses() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> list;
        for (const auto& a : args)
            list.push_back(a.toStdString());
        const QString error = refusal(list);
        QVERIFY2(error.startsWith("helper: ") && error.contains(message), qPrintable(error));
    }

    void writePlanOrder() {
        ClockPaths paths;
        paths.gpuDevfreq = "gpu";
        ObservedClocks current;
        current.gpuMaxHz = 1300500000;
        current.cpuMaxKhz = 729600;
        HelperLimits limits = orinLimits();
        limits.cpuCount = 2;
        HelperRequest request = parseHelperRequest(
            {"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores", "1"}, limits);
        const auto plan = planClockWrites(request, paths, current, limits);
        std::vector<std::string> text;
        for (const auto& w : plan)
            text.push_back(w.path + "=" + w.value);
        // cores first; CPU raised: max before min; GPU lowered: min before max; no EMC without --emc
        QCOMPARE(text,
                 (std::vector<std::string>{"sys/devices/system/cpu/cpu1/online=0",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq=1728000",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq=1728000",
                                           "gpu/min_freq=612000000", "gpu/max_freq=612000000"}));
        request.action = HelperRequest::Action::SetStockMode;
        QVERIFY(planClockWrites(request, paths, current, limits).empty());

        // release: every core online first (even ones the last run took offline), then min and max
        // reset on every core, not only the ones online now
        request.action = HelperRequest::Action::ReleaseClocks;
        current.onlineCores = 1;
        text.clear();
        for (const auto& w : planClockWrites(request, paths, current, limits))
            text.push_back(w.path + "=" + w.value);
        QCOMPARE(text,
                 (std::vector<std::string>{"sys/devices/system/cpu/cpu1/online=1",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq=729600",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq=2201600",
                                           "sys/devices/system/cpu/cpu1/cpufreq/scaling_min_freq=729600",
                                           "sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq=2201600",
                                           "gpu/min_freq=306000000"}));
    }

    void limitsFromFixture() {
        const SysfsRoot root(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/agx-orin-jp6"));
        const HelperLimits limits = readHelperLimits(root, findClockPaths(root));
        QCOMPARE(limits.stockIds, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(limits.cpuCount, 12);
        QCOMPARE(int(limits.gpuHz.size()), 11);
        QCOMPARE(limits.emcHz, (std::vector<int64_t>{204000000, 665600000, 2133000000, 3199000000}));
        const SysfsRoot nano(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/orin-nano-jp6"));
        QCOMPARE(readHelperLimits(nano, findClockPaths(nano)).emcHz,
                 (std::vector<int64_t>{2133000000})); // max_rate only
    }
};

ROOFTOP_TEST_CLASS(PlatformSwitching)
#include "test_platform_switching.moc"
